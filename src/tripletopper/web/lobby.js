// The lobby: open a table for any registered game (its form built from the game's option
// schema) and list the tables waiting for players or being played.
import { api, clear, el, getName, setName, setToken } from "/static/common.js";

const gameSelect = document.getElementById("game");
const playersSelect = document.getElementById("players");
const optionsBox = document.getElementById("options");
const nameInput = document.getElementById("your-name");
let games = [];

function optionInput(option, players) {
  const name = `opt-${option.name}`;
  const fallback = option.default ?? (option.default_text ? undefined : "");
  if (option.type === "bool") {
    return el("label", { class: "check", title: option.help },
      el("input", { type: "checkbox", name, "data-option": option.name, checked: option.default === true }),
      ` ${option.name.replaceAll("_", " ")}`);
  }
  let input;
  if (option.type === "choice") {
    input = el("select", { name, "data-option": option.name },
      option.choices.map((c) => el("option", { value: c, selected: c === option.default }, c.replaceAll("_", " "))));
  } else {
    input = el("input", {
      type: "number", name, "data-option": option.name, min: option.minimum, max: option.maximum,
      step: option.type === "int" ? 1 : "any", placeholder: option.default_text || "",
      value: fallback,
    });
  }
  return el("label", {}, option.name.replaceAll("_", " "), input, el("span", { class: "help" }, option.help));
}

function showGame() {
  const game = games.find((g) => g.name === gameSelect.value);
  clear(playersSelect);
  for (let n = game.min_players; n <= game.max_players; n++) {
    playersSelect.append(el("option", { value: n, selected: n === Math.min(game.max_players, Math.max(game.min_players, 4)) }, n));
  }
  clear(optionsBox);
  for (const option of game.options) optionsBox.append(optionInput(option));
}

async function loadGames() {
  games = await api("GET", "/api/games");
  for (const game of games) gameSelect.append(el("option", { value: game.name }, `${game.title} (${game.min_players}-${game.max_players})`));
  gameSelect.value = games.some((g) => g.name === "thirty-two") ? "thirty-two" : games[0].name;
  showGame();
}

function statusText(table) {
  const free = table.seats.filter((s) => !s.name).length;
  if (table.status === "open") return free ? `${free} seat(s) free` : "ready to start";
  return table.status;
}

async function loadTables() {
  const tables = await api("GET", "/api/tables");
  const body = clear(document.getElementById("tables"));
  document.getElementById("no-tables").hidden = tables.length > 0;
  for (const table of tables) {
    const who = table.seats.map((s) => s.name || "·").join(", ");
    const verb = table.status === "open" && table.seats.some((s) => !s.name) ? "Join" : "Watch";
    body.append(el("tr", {},
      el("td", {}, table.title), el("td", {}, who), el("td", {}, statusText(table)),
      el("td", {}, el("a", { href: `/t/${table.id}` }, verb))));
  }
}

document.getElementById("create-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const error = document.getElementById("create-error");
  error.textContent = "";
  const form = new FormData(event.target);
  const options = {};
  for (const input of optionsBox.querySelectorAll("[data-option]")) {
    if (input.type === "checkbox") options[input.dataset.option] = input.checked;
    else if (input.value !== "") options[input.dataset.option] = input.type === "number" ? Number(input.value) : input.value;
  }
  const clock = form.get("turn_clock");
  try {
    setName(form.get("name"));
    const created = await api("POST", "/api/tables", {
      game: form.get("game"), players: Number(form.get("players")), options,
      turn_clock: clock ? Number(clock) : null, on_timeout: form.get("on_timeout"), hints: form.get("hints") === "on",
      name: form.get("name"), seat: 0,
    });
    setToken(created.table.id, created.token);
    location.href = `/t/${created.table.id}`;
  } catch (e) {
    error.textContent = e.message;
  }
});

gameSelect.addEventListener("change", showGame);
nameInput.value = getName();
loadGames().catch((e) => { document.getElementById("create-error").textContent = e.message; });
loadTables();
setInterval(loadTables, 5000);
