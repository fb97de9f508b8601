// The lobby: open a table for any registered game (its form built from the game's option
// schema: each option explained by its help text, and shown only when the options it
// requires are set so), and the three lists: open tables to join, games in progress to
// watch, recently finished games to replay.  The lists come over /ws/lobby whenever a
// table opens, changes seats, starts or ends; ages count on by themselves.
import { accountPanel } from "/static/account.js";
import { api, clear, el, getName, setName, setToken } from "/static/common.js";
import { showMyGames } from "/static/mygames.js";

const $ = (id) => document.getElementById(id);
const gameSelect = $("game");
const playersSelect = $("players");
const optionsBox = $("options");
let games = [];
const lobby = { lists: null, offset: 0, retry: 500 };

// --- the new-table form ------------------------------------------------------------------
function optionInput(option) {
  const name = `opt-${option.name}`;
  const box = { "data-option-box": option.name };
  if (option.type === "bool") {
    return el("label", { class: "check option", ...box },
      el("input", { type: "checkbox", name, "data-option": option.name, checked: option.default === true }),
      ` ${option.help}`);
  }
  let input;
  if (option.type === "choice") {
    input = el("select", { name, "data-option": option.name },
      option.choices.map((c) => el("option", { value: c, selected: c === option.default }, c.replaceAll("_", " "))));
  } else if (option.type === "text") {
    input = el("input", { type: "text", name, "data-option": option.name, value: option.default ?? "", maxlength: 100 });
  } else {
    input = el("input", {
      type: "number", name, "data-option": option.name, min: option.minimum, max: option.maximum,
      step: option.type === "int" ? 1 : "any", placeholder: option.default_text || "",
      value: option.default ?? "",
    });
  }
  return el("label", { class: "option", ...box }, el("span", {}, option.help), input);
}

function optionValue(input) {
  if (input.type === "checkbox") return input.checked;
  if (input.value === "") return undefined;
  return input.type === "number" ? Number(input.value) : input.value;
}

// Show each option only while the options it requires have the values it requires.
function applyRequires(game) {
  const values = {};
  for (const input of optionsBox.querySelectorAll("[data-option]")) values[input.dataset.option] = optionValue(input);
  for (const option of game.options) {
    const box = optionsBox.querySelector(`[data-option-box="${option.name}"]`);
    const needs = Object.entries(option.requires || {});
    const shown = needs.every(([other, value]) => values[other] === value);
    box.hidden = !shown;
    box.querySelector("[data-option]").disabled = !shown;
  }
}

function currentGame() { return games.find((g) => g.name === gameSelect.value); }

function showGame() {
  const game = currentGame();
  clear(playersSelect);
  for (let n = game.min_players; n <= game.max_players; n++) {
    playersSelect.append(el("option", { value: n, selected: n === Math.min(game.max_players, Math.max(game.min_players, 4)) }, n));
  }
  clear(optionsBox);
  for (const option of game.options) optionsBox.append(optionInput(option));
  applyRequires(game);
  $("game-rules").href = game.rules;
  $("game-rules").textContent = `How ${game.title} is played`;
}

async function loadGames() {
  games = await api("GET", "/api/games");
  for (const game of games) gameSelect.append(el("option", { value: game.name }, `${game.title} (${game.min_players}-${game.max_players})`));
  gameSelect.value = games.some((g) => g.name === "thirty-two") ? "thirty-two" : games[0].name;
  const nav = $("rules-nav");
  games.forEach((game, i) => nav.append(i ? " · " : " ", el("a", { href: game.rules }, game.title)));
  showGame();
  if (lobby.lists) showLists();
}

$("create-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const error = $("create-error");
  error.textContent = "";
  const form = new FormData(event.target);
  const options = {};
  for (const input of optionsBox.querySelectorAll("[data-option]:not(:disabled)")) {
    const value = optionValue(input);
    if (value !== undefined) options[input.dataset.option] = value;
  }
  const clock = form.get("turn_clock");
  try {
    if (!$("your-name").readOnly) setName(form.get("name"));
    const created = await api("POST", "/api/tables", {
      game: form.get("game"), players: Number(form.get("players")), options,
      turn_clock: clock ? Number(clock) : null, on_timeout: form.get("on_timeout"), hints: form.get("hints") === "on",
      name: form.get("name"), seat: 0,
      rated: $("rated-box").hidden ? null : form.get("rated") === "on",  // guests: never rated
    });
    setToken(created.table.id, created.token);
    location.href = `/t/${created.table.id}`;
  } catch (e) {
    error.textContent = e.message;
  }
});

gameSelect.addEventListener("change", showGame);
optionsBox.addEventListener("change", () => applyRequires(currentGame()));

// --- the three lists -----------------------------------------------------------------------
function ago(seconds) {
  if (seconds < 60) return "just now";
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  return hours < 48 ? `${hours} h ago` : `${Math.round(hours / 24)} days ago`;
}

function players(entry) {
  return entry.seats.map((seat) => {
    if (!seat) return el("span", { class: "muted" }, "free");
    const bot = seat.kind === "bot";
    return el("span", { class: bot ? "bot-name" : null }, seat.name, bot && !/bot/i.test(seat.name) ? " (bot)" : "",
      seat.kind === "invited" ? " (asked)" : "");
  }).flatMap((node, i) => (i ? [", ", node] : [node]));
}

// The options a table sets otherwise than the game's defaults, in words.
function options(entry) {
  const game = games.find((g) => g.name === entry.game);
  const out = [];
  for (const [name, value] of Object.entries(entry.options)) {
    const option = game && game.options.find((o) => o.name === name);
    if (option && "default" in option && option.default === value) continue;
    const needs = Object.entries((option && option.requires) || {});
    if (!needs.every(([other, want]) => entry.options[other] === want)) continue;
    const shown = value === true ? "on" : value === false ? "off" : String(value).replaceAll("_", " ");
    out.push(`${name.replaceAll("_", " ")}: ${shown}`);
  }
  return out.length ? out.join(" · ") : "standard";
}

function row(entry, when, link, text) {
  const now = Date.now() / 1000 + lobby.offset;
  return el("tr", { "data-table": entry.id },
    el("td", {}, entry.title, entry.rematch_of ? el("span", { class: "badge" }, "rematch") : null),
    el("td", {}, players(entry)), el("td", { class: "options" }, options(entry)),
    el("td", {}, when ? ago(now - when) : ""),
    el("td", {}, el("a", { href: link }, text)));
}

function fill(listId, bodyId, entries, make) {
  const body = clear($(bodyId));
  for (const entry of entries) body.append(make(entry));
  $(listId).querySelector(".empty").hidden = entries.length > 0;
  $(listId).querySelector("table").hidden = !entries.length;
}

function showLists() {
  const lists = lobby.lists;
  fill("open-list", "open-tables", lists.open, (t) => {
    const free = t.seats.some((s) => !s);
    return row(t, t.created_at, `/t/${t.id}`, free ? "Join" : "Look");
  });
  fill("playing-list", "playing-tables", lists.playing, (t) => row(t, t.started_at, `/t/${t.id}`, "Watch"));
  fill("finished-list", "finished-tables", lists.finished, (t) => row(t, t.finished_at, `/r/${t.id}`, "Replay"));
}

function connectLobby() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws/lobby`);
  ws.onopen = () => { lobby.retry = 500; $("lobby-conn").textContent = "live"; $("lobby-conn").classList.remove("down"); };
  ws.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type !== "lobby") return;
    lobby.lists = message;
    lobby.offset = message.now - Date.now() / 1000;
    showLists();
  };
  ws.onclose = () => {
    $("lobby-conn").textContent = "reconnecting…";
    $("lobby-conn").classList.add("down");
    setTimeout(connectLobby, lobby.retry);
    lobby.retry = Math.min(8000, lobby.retry * 2);
  };
}

$("your-name").value = getName();
accountPanel($("account-box"), (account) => {  // signed in, you sit under your account's name
  const input = $("your-name");
  input.readOnly = Boolean(account);
  input.value = account ? account.name : getName();
  $("rated-box").hidden = !account;
  showMyGames(account).catch(() => {});
}).catch((e) => { $("account-box").textContent = e.message; });
loadGames().catch((e) => { $("create-error").textContent = e.message; });
connectLobby();
setInterval(() => { if (lobby.lists) showLists(); }, 30000);  // the ages move on
