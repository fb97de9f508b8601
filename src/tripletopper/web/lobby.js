// The lobby.  Its first screen: what Triple Topper is, and each game with a one-line pitch,
// "Play" (a table against bots at the chosen level, seats filled and the game started: one
// click) and "Play with friends" (a table with you seated, whose page shows the invite link).
// Below: a table opened your way (the form built from each game's option schema, each option
// in plain words with its default shown as the default, shown only while the options it
// requires are set so), the three lists kept live over /ws/lobby (open tables to join, games
// in progress to watch, recently finished games to replay), your account and your games.
import { accountPanel } from "/static/account.js";
import { api, clear, el, getName, setName, setToken } from "/static/common.js";
import { showMyGames } from "/static/mygames.js";
import { INTRO, PITCHES, optionWords } from "/static/words.js";

const $ = (id) => document.getElementById(id);
const gameSelect = $("game");
const playersSelect = $("players");
const optionsBox = $("options");
const LEVELS = ["easy", "medium", "hard", "expert"];
const LEVEL_KEY = "tt-level";
let games = [];
let account = null;
const lobby = { lists: null, offset: 0, retry: 500 };

const capital = (text) => text[0].toUpperCase() + text.slice(1);
const between = (game, n) => Math.min(game.max_players, Math.max(game.min_players, n));

// --- the first screen: play now --------------------------------------------------------
function myName() {
  if (account) return account.name;
  const typed = $("your-name").value.trim();
  if (typed) setName(typed);
  return typed || "Guest";
}

// The levels every game has, in order (a bot of another kind stays in the form's seats).
function showLevels() {
  const common = LEVELS.filter((level) => games.every((g) => g.bots.some((b) => b.name === level)));
  const chosen = localStorage.getItem(LEVEL_KEY);
  const select = clear($("level"));
  for (const level of common) {
    select.append(el("option", { value: level, selected: level === (common.includes(chosen) ? chosen : "medium") }, capital(level)));
  }
  select.addEventListener("change", () => localStorage.setItem(LEVEL_KEY, select.value));
}

function busy(on) {
  for (const button of document.querySelectorAll("#game-cards button")) button.disabled = on;
}

// One click: a table with you in seat 0 and bots of the chosen level in the others, started.
// Three calls of the HTTP API, each allowed to anyone holding the seat's token; if a later
// one is refused (a rate limit), the table page opens anyway, where seats can be filled.
async function playBots(game) {
  const players = between(game, game.name === "toe" ? 2 : 3);
  const level = $("level").value || "medium";
  let created = null;
  busy(true);
  $("play-error").textContent = "";
  try {
    created = await api("POST", "/api/tables", { game: game.name, players, name: myName(), seat: 0 });
    const id = created.table.id;
    setToken(id, created.token);
    for (let seat = 1; seat < players; seat++) {
      await api("POST", `/api/tables/${id}/seats/${seat}/bot`, { bot: level }, created.token);
    }
    await api("POST", `/api/tables/${id}/start`, undefined, created.token);
    location.href = `/t/${id}`;
  } catch (e) {
    if (created) { location.href = `/t/${created.table.id}`; return; }
    $("play-error").textContent = e.message;
    busy(false);
  }
}

// A table for friends: you sit down; its page shows the invite link to send them.
async function playFriends(game) {
  busy(true);
  $("play-error").textContent = "";
  try {
    const created = await api("POST", "/api/tables", { game: game.name, players: between(game, 4), name: myName(), seat: 0 });
    setToken(created.table.id, created.token);
    location.href = `/t/${created.table.id}`;
  } catch (e) {
    $("play-error").textContent = e.message;
    busy(false);
  }
}

function gameCard(game) {
  const seats = game.min_players === game.max_players ? `${game.min_players} players` : `${game.min_players}-${game.max_players} players`;
  return el("li", { class: "game-card", "data-game": game.name },
    el("h3", {}, game.title, el("span", { class: "seats-count" }, ` · ${seats}`)),
    el("p", { class: "pitch" }, PITCHES[game.name] || ""),
    el("div", { class: "row" },
      el("button", { type: "button", "data-quick": game.name, "aria-label": `Play ${game.title} against bots`, onclick: () => playBots(game) }, "Play"),
      el("button", { type: "button", class: "secondary", "data-friends": game.name, "aria-label": `Play ${game.title} with friends`,
        onclick: () => playFriends(game) }, "Play with friends"),
      el("a", { href: game.rules, class: "rules-link", "aria-label": `How ${game.title} is played` }, "Rules")));
}

function showCards() {
  const order = Object.keys(PITCHES);
  const sorted = [...games].sort((a, b) => (order.indexOf(a.name) + 1 || 99) - (order.indexOf(b.name) + 1 || 99));
  clear($("game-cards")).append(...sorted.map(gameCard));
}

// --- the form: a table your way --------------------------------------------------------
function defaultOf(option, players) {
  if ("default" in option) return option.default;
  return option.defaults ? option.defaults[String(players)] : undefined;
}

function defaultText(option, value) {
  if (value === undefined) return option.default_text || "";
  if (option.type === "bool") return value ? "on" : "off";
  return String(value);
}

function optionInput(game, option) {
  const words = optionWords(game.name, option);
  if (words.hidden) return null;
  const name = `opt-${option.name}`;
  const box = { "data-option-box": option.name };
  const players = Number(playersSelect.value) || game.min_players;
  const fallback = defaultOf(option, players);
  if (option.type === "bool") {
    return el("label", { class: "check option", ...box },
      el("input", { type: "checkbox", name, "data-option": option.name, checked: option.default === true }),
      el("span", {}, `${words.label} `, el("span", { class: "default" }, `(default: ${defaultText(option, fallback)})`)));
  }
  let input;
  if (option.type === "choice") {
    input = el("select", { name, "data-option": option.name },
      option.choices.map((c) => el("option", { value: c, selected: c === option.default },
        `${words.choice(c)}${c === option.default ? " (default)" : ""}`)));
    return el("label", { class: "option", ...box }, el("span", {}, words.label), input);
  }
  if (option.type === "text") {
    input = el("input", { type: "text", name, "data-option": option.name, placeholder: option.default ?? "", maxlength: 100 });
  } else {
    input = el("input", {
      type: "number", name, "data-option": option.name, min: option.minimum, max: option.maximum,
      step: option.type === "int" ? 1 : "any", placeholder: `${defaultText(option, fallback)} (default)`,
    });
  }
  return el("label", { class: "option", ...box }, el("span", {}, words.label), input);
}

function optionValue(input) {
  if (input.type === "checkbox") return input.checked;
  if (input.value === "") return undefined;
  return input.type === "number" ? Number(input.value) : input.value;
}

// Show each option only while the options it requires have the values it requires.
function applyRequires(game) {
  const values = {};
  for (const option of game.options) values[option.name] = option.default;
  for (const input of optionsBox.querySelectorAll("[data-option]")) {
    const value = optionValue(input);
    if (value !== undefined) values[input.dataset.option] = value;
  }
  for (const option of game.options) {
    const box = optionsBox.querySelector(`[data-option-box="${option.name}"]`);
    if (!box) continue;
    const needs = Object.entries(option.requires || {});
    const shown = needs.every(([other, value]) => values[other] === value);
    box.hidden = !shown;
    box.querySelector("[data-option]").disabled = !shown;
  }
}

function currentGame() { return games.find((g) => g.name === gameSelect.value); }

function showOptions() {
  const game = currentGame();
  clear(optionsBox);
  for (const option of game.options) {
    const input = optionInput(game, option);
    if (input) optionsBox.append(input);
  }
  applyRequires(game);
}

function showGame() {
  const game = currentGame();
  clear(playersSelect);
  for (let n = game.min_players; n <= game.max_players; n++) {
    playersSelect.append(el("option", { value: n, selected: n === between(game, 4) }, n));
  }
  showOptions();
  $("game-rules").href = game.rules;
  $("game-rules").textContent = `How ${game.title} is played`;
}

async function loadGames() {
  games = await api("GET", "/api/games");
  for (const game of games) gameSelect.append(el("option", { value: game.name }, `${game.title} (${game.min_players}-${game.max_players})`));
  gameSelect.value = games.some((g) => g.name === "thirty-two") ? "thirty-two" : games[0].name;
  showCards();
  showLevels();
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
    const created = await api("POST", "/api/tables", {
      game: form.get("game"), players: Number(form.get("players")), options,
      turn_clock: clock ? Number(clock) : null, on_timeout: form.get("on_timeout"), hints: form.get("hints") === "on",
      name: myName(), seat: 0,
      rated: $("rated-box").hidden ? null : form.get("rated") === "on",  // guests: never rated
    });
    setToken(created.table.id, created.token);
    location.href = `/t/${created.table.id}`;
  } catch (e) {
    error.textContent = e.message;
  }
});

gameSelect.addEventListener("change", showGame);
playersSelect.addEventListener("change", () => {  // a default may follow the players
  const game = currentGame();
  for (const option of game.options.filter((o) => o.defaults)) {
    const input = optionsBox.querySelector(`[data-option="${option.name}"]`);
    if (input) input.placeholder = `${defaultText(option, defaultOf(option, Number(playersSelect.value)))} (default)`;
  }
});
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

// The options a table sets otherwise than the game's defaults, in a few plain words.
function options(entry) {
  const game = games.find((g) => g.name === entry.game);
  if (!game) return "";
  const out = [];
  for (const [name, value] of Object.entries(entry.options)) {
    const option = game.options.find((o) => o.name === name);
    if (!option || defaultOf(option, entry.players) === value) continue;
    const needs = Object.entries(option.requires || {});
    if (!needs.every(([other, want]) => entry.options[other] === want)) continue;
    out.push(optionWords(game.name, option).short(value));
  }
  return out.length ? out.join(" · ") : "standard rules";
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

$("intro").textContent = INTRO;
$("your-name").value = getName();
accountPanel($("account-box"), (signed) => {  // signed in, you sit under your account's name
  account = signed;
  const input = $("your-name");
  input.readOnly = Boolean(signed);
  input.value = signed ? signed.name : getName();
  $("rated-box").hidden = !signed;
  showMyGames(signed).catch(() => {});
}).catch((e) => { $("account-box").textContent = e.message; });
loadGames().catch((e) => { $("play-error").textContent = e.message; });
connectLobby();
setInterval(() => { if (lobby.lists) showLists(); }, 30000);  // the ages move on
