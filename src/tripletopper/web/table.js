// The table page, for every game: seats (folded into a bar once play starts), the game drawn
// by the game's renderer module (/static/games/<game>.js), legal actions as buttons, clocks,
// narration (also announced to screen readers), results; the attention calls, safety nets,
// showdowns held on screen and keyboard play of attention.js, moves.js and shortcuts.js.
// Reconnects by itself and catches up from the last version it saw.
import { api, clear, el, getName, getToken, setName, setToken, whoAmI } from "/static/common.js";
import * as cards from "/static/cards.js";
import { Chat, chatForm } from "/static/chat.js";
import { showHelp } from "/static/help.js";
import { askRematch, renderStanding } from "/static/seating.js";
import { Attention } from "/static/attention.js";
import { fillIcons } from "/static/icons.js";
import { HOLD_SECONDS, Moves } from "/static/moves.js";
import { listen, shortcutList } from "/static/shortcuts.js";
import * as motion from "/static/motion.js";
import { play as playSound, soundOf } from "/static/sound.js";
import { changeText, ratingText } from "/static/rating.js";

const tableId = decodeURIComponent(location.pathname.split("/").pop());
const $ = (id) => document.getElementById(id);
const SHOWDOWN_SECONDS = 8;

// A seat link (#seat=TOKEN) moves a seat to this browser.
if (location.hash.startsWith("#seat=")) {
  setToken(tableId, decodeURIComponent(location.hash.slice(6)));
  history.replaceState(null, "", location.pathname);
}

const page = {
  token: getToken(tableId), seat: null, away: null, invited: null, table: null, names: [], view: null,
  version: -1, renderer: null, rendererFor: null, ws: null, retry: 250, sending: false,
  clockOffset: 0, folded: false, showdownKey: null, holding: null,
  focus: { key: null, inPlay: false }, account: null, botAccounts: [], resumable: null,
};
const chat = new Chat($("chat-lines"), tableId, {
  mySeat: () => page.seat, send: (text) => send({ type: "chat", text, ref: "chat" }),
});
const chatBox = chatForm($("chat-form"), $("chat-input"), $("chat-error"), chat);
const attention = new Attention();
const moves = new Moves(el);

function seatName(seat) {
  if (seat === page.seat) return "You";
  return (page.table && page.table.seats[seat] && page.table.seats[seat].name) || `Seat ${seat + 1}`;
}

// --- the websocket -------------------------------------------------------------------
function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws/tables/${encodeURIComponent(tableId)}`);
  page.ws = ws;
  ws.onopen = () => {
    page.retry = 250;
    const hello = { type: "hello", token: page.token };
    if (page.version >= 0) hello.version = page.version;
    ws.send(JSON.stringify(hello));
    setConn(true);
  };
  ws.onmessage = (event) => receive(JSON.parse(event.data));
  ws.onclose = () => {
    setConn(false);
    page.sending = false;
    setTimeout(connect, page.retry);
    page.retry = Math.min(4000, page.retry * 2);
  };
}

function setConn(up) {
  $("conn").textContent = up ? "connected" : "reconnecting…";
  $("conn").classList.toggle("down", !up);
}

function send(message) {
  if (page.ws && page.ws.readyState === WebSocket.OPEN) page.ws.send(JSON.stringify(message));
}

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
// (while newer updates wait to be shown, the page's view is not the newest: nothing to play)
const legalNow = () => (pacer.waiting ? [] : (page.view && page.view.legal) || []);

// The legal entry of an action (for its label), also one formed from a pattern.
function entryOf(action) {
  for (const item of legalNow()) {
    if (item.action && same(item.action, action)) return item;
    if (item.pattern && item.pattern.action.type === action.type) return { action, label: item.label };
  }
  return null;
}

// Play an action for this seat (the renderers' ctx.act and the buttons), through the safety
// nets of moves.js: the game's question, then the player's confirm-or-undo setting.
async function act(action, table = false) {
  if (page.sending || moves.busy || page.holding) return;
  const item = table ? { action, label: "the table's action" } : entryOf(action);
  if (!item || (page.renderer && page.renderer.ready && !page.renderer.ready(action))) return;
  const clock = page.view && page.view.clock;
  const deadline = clock && clock.deadlines && page.seat !== null ? clock.deadlines[String(page.seat)] : undefined;
  const now = Date.now() / 1000 + page.clockOffset;
  const chosen = await moves.decide(item, {
    guard: page.renderer && page.renderer.guard ? page.renderer.guard(action, context()) : null,
    timed: Boolean(clock && clock.phase_deadline),
    soon: deadline !== undefined && deadline - now < HOLD_SECONDS + 2,
  });
  if (!chosen) { restoreFocus(); return; }
  if (!table && !entryOf(chosen)) {  // the game moved on while the move was held
    $("error").textContent = "The game moved on: that move was not sent.";
    return;
  }
  page.sending = true;
  $("error").textContent = "";
  const message = { type: "action", action: chosen, version: page.version };
  if (table) message.table = true;
  send(message);
  render();
}

function receive(message) {
  switch (message.type) {
    case "welcome":
      page.seat = message.seat;
      page.away = message.away;
      page.invited = message.invited;
      if (page.token && message.seat === null && message.away === null && message.invited === null) page.token = null;
      findMySeat();
      break;
    case "seat":  // this seat was handed to a bot (its person watches now), or back, or revoked
      page.seat = message.seat;
      page.away = message.away;
      findMySeat();
      break;
    case "chat":
      chat.receive(message.lines);
      break;
    case "state":
    case "update":  // shown one after another, each once the last one's cards have moved
      pacer.push(message, message.type === "state" || Boolean(message.clock && message.clock.phase_deadline));
      break;
    case "table":
      page.table = message.table;
      render();
      break;
    case "rematch":  // asked for: people answer, spectators may follow (seating.js)
      page.table = { ...page.table, rematch: message.table };
      render();
      break;
    case "error":
      if (message.ref === "chat") { chatBox.refused(message.message); break; }
      page.sending = false;
      $("error").textContent = message.message;
      if (message.code === "bad_token" || message.code === "revoked") { page.token = null; }
      if (message.code === "stale") send({ type: "sync", version: page.version });
      render();
      break;
  }
}

// A state or an update on the page: its narration, its drawing, its cards moving from where
// they were (motion.js) and its sound (sound.js); returns how long the motion lasts.
function show(message, animate) {
  motion.finishAll();
  const main = document.querySelector("main");
  const before = animate ? motion.snapshot(main) : null;
  if (message.type === "state") {
    if (message.resync) { clear($("log")); }
    page.table = message.table;
  }
  const fresh = message.type === "update";
  page.version = message.version;
  page.view = message;
  page.sending = false;
  if (message.clock) page.clockOffset = message.clock.now - Date.now() / 1000;
  addLog(message.log || [], fresh);
  render(fresh);
  const events = (fresh && message.events) || [];
  const sound = soundOf(events, page.seat);
  if (sound) playSound(sound);
  return motion.play(before, main, events, page.seat);
}
const pacer = new motion.Pacer(show);

// The narration: kept in the log, and the newest lines announced to screen readers.
function addLog(lines, fresh) {
  const box = $("log");
  for (const old of box.querySelectorAll(".line.new")) old.classList.remove("new");
  for (const line of lines) {
    box.append(el("div", { class: `line${fresh ? " new" : ""}`, "data-version": line.version }, line.text));
  }
  while (box.children.length > 300) box.removeChild(box.firstChild);
  box.scrollTop = box.scrollHeight;
  if (fresh && lines.length) $("announce").textContent = lines.map((line) => line.text).join(" ");
}

// --- drawing ---------------------------------------------------------------------------
async function loadRenderer(game) {
  if (page.rendererFor === game) return;
  page.rendererFor = game;
  try {
    page.renderer = await import(`/static/games/${game}.js`);
  } catch (e) {
    page.renderer = await import("/static/games/generic.js");
  }
  $("keys-list").replaceChildren(shortcutList(game));
  $("help-keys").replaceChildren(el("h3", {}, "Keyboard"), shortcutList(game));  // the same list
  $("help-keys").hidden = false;
  render();
}

// What a renderer is given (docs/web.md).
function context() {
  const view = page.view;
  return {
    seat: page.seat, names: page.table.seats.map((s) => seatName(s.seat)),
    legal: page.sending || moves.busy ? [] : legalNow(), act, cards, el, clear,
    toAct: view.to_act || [], results: view.results, events: (view.type === "update" && view.events) || [],
    hints: view.hints || null, game: page.table.game,
  };
}

function render(fresh = false) {
  const table = page.table;
  if (!table) return;
  attention.setTitle(`${table.title} - Triple Topper card room`);
  $("title").replaceChildren(table.title, el("span", { class: "title-extra" }, ` · ${table.players} players`));
  $("invite").value = `${location.origin}/t/${table.id}`;
  if (page.token && page.seat !== null) {
    $("seat-link-box").hidden = false;
    $("seat-link").value = `${location.origin}/t/${table.id}#seat=${encodeURIComponent(page.token)}`;
  }
  // a guest holding a seat may sign in (in the lobby) and come back to it
  $("sign-in-hint").hidden = Boolean(page.account) || page.seat === null;
  $("sign-in-link").href = `/?back=${encodeURIComponent(`/t/${table.id}`)}`;
  loadRenderer(table.game);
  showHelp(table.game);
  renderStanding(page, reconnect, problem);
  renderSeats(table);
  renderGame();
  renderShowdown(fresh);
  renderActions();
  renderResults(table);
  renderTurn();
  restoreFocus();
}

function renderSeats(table) {
  const open = table.status === "open";
  $("seats-panel").hidden = !open && page.seat === null;
  // Once play starts, invite and seats fold into the bar (the summary) to leave the screen
  // to the game; they open again with a click.
  if (!open && !page.folded) { $("table-info").open = false; page.folded = true; }
  const toAct = (page.view && page.view.to_act) || [];
  // (replaceChildren would write a null as the text "null": only nodes go in)
  $("table-summary").replaceChildren(...[
    el("span", { class: "summary-label" }, open ? "Invite and seats" : "Seats:"),
    ...(open ? [] : table.seats.map((info) => el("span", {
      class: `chip${info.seat === page.seat ? " mine" : ""}${toAct.includes(info.seat) ? " acting" : ""}`,
    }, info.name || "empty"))),
    open ? null : el("span", { class: "summary-more" }, $("table-info").open ? "hide" : "invite link, seats"),
  ].filter(Boolean));
  // A redraw must not take the name someone is typing, nor the focus, away from them.
  const typing = document.activeElement && document.activeElement.matches("#seats [data-seat] input")
    ? document.activeElement : null;
  if (typing && !page.account) setName(typing.value);
  const typingSeat = typing ? typing.closest("[data-seat]").dataset.seat : null;
  const chosen = {};  // nor the bot someone picked
  for (const select of $("seats").querySelectorAll("[data-seat] select")) chosen[select.closest("[data-seat]").dataset.seat] = select.value;
  const box = clear($("seats"));
  const seated = page.seat !== null;
  for (const info of table.seats) {
    const mine = info.seat === page.seat;
    const card = el("div", { class: `seat${mine ? " mine" : ""}`, "data-seat": info.seat });
    const who = info.name ? `${info.name}${mine ? " - you" : ""}${info.kind === "invited" ? " (asked to the rematch: answering…)" : ""}` : "empty";
    card.append(el("div", {}, el("strong", {}, `Seat ${info.seat + 1}: `), who));
    if (open && !info.name && !seated) {
      // what is typed is kept at once: any update redraws the seats, and the name must survive
      // signed in, you sit under your account's name
      const input = page.account
        ? el("input", { value: page.account.name, readonly: true, "aria-label": `Name for seat ${info.seat + 1}` })
        : el("input", { placeholder: "your name", maxlength: 32, value: getName(), "aria-label": `Name for seat ${info.seat + 1}`, oninput: (e) => setName(e.target.value) });
      card.append(el("div", { class: "row" }, input, el("button", {
        type: "button", onclick: () => takeSeat(info.seat, input.value),
      }, "Sit here")));
    }
    if (open && !info.name && seated) {
      // the built-in bots, then the bot accounts connected now (they are sent an invitation)
      const select = el("select", { "aria-label": `Bot for seat ${info.seat + 1}` },
        el("optgroup", { label: "Built-in bots" }, table.bots.map((b) => el("option", { value: b, selected: b === (chosen[info.seat] || "medium") }, b))),
        page.botAccounts.length ? el("optgroup", { label: "Bot accounts (connected)" },
          page.botAccounts.map((name) => el("option", { value: `account:${name}`, selected: chosen[info.seat] === `account:${name}` }, name))) : null);
      card.append(el("div", { class: "row" }, select, el("button", {
        type: "button", class: "secondary", onclick: () => seatCall("POST", `/seats/${info.seat}/bot`, { bot: select.value }),
      }, "Add bot")));
    }
    if (open && info.name && (mine || (seated && info.kind === "bot"))) {
      card.append(el("button", { type: "button", class: "secondary", onclick: () => seatCall("DELETE", `/seats/${info.seat}`) },
        mine ? "Leave" : "Remove bot"));
    }
    if (table.status === "playing" && mine) {
      card.append(el("button", { type: "button", class: "secondary", onclick: () => {
        if (confirm("Leave the game? A bot will play your seat until you take it back (with your seat link).")) seatCall("DELETE", `/seats/${info.seat}`);
      } }, "Leave (a bot takes over)"));
    }
    box.append(card);
  }
  if (typingSeat !== null) {
    const again = box.querySelector(`[data-seat="${typingSeat}"] input`);
    if (again) { again.focus(); again.setSelectionRange(again.value.length, again.value.length); }
  }
  const full = table.seats.every((s) => s.name);
  $("start").hidden = !(open && seated);
  $("start").disabled = !full;
  $("seats-note").textContent = open ? (full ? "Every seat is filled." : "Waiting for players: share the invite link or add bots.") : "";
}

function renderGame() {
  const root = $("game");
  const view = page.view;
  if (!view || !view.observation || !page.renderer) {
    clear(root);
    if (page.table && page.table.status === "open") root.append(el("p", { class: "muted" }, "The game starts when every seat is filled and someone presses Start."));
    return;
  }
  page.renderer.render(root, view.observation, context());
}

// A hand's showdown (a renderer's optional showdown(obs, ctx): {key, node} for the last hand
// settled) is held on screen when a new one comes in, until Continue or a few seconds pass;
// the next hand waits behind it.  At the end it stays in the results.
function renderShowdown(fresh) {
  const view = page.view;
  const shown = view && view.observation && page.renderer && page.renderer.showdown
    ? page.renderer.showdown(view.observation, context()) : null;
  const key = shown ? shown.key : null;
  const changed = key !== null && key !== page.showdownKey;
  page.showdownKey = key;
  if (page.holding && view && view.status !== "playing") endHold(false);  // the end shows it
  if (!changed || !fresh || view.status !== "playing" || page.holding) return;
  const box = $("showdown");
  const go = el("button", { type: "button", "data-key": "continue" }, "Continue");
  let left = SHOWDOWN_SECONDS;
  const clock = view.clock && view.clock.deadlines && page.seat !== null ? view.clock.deadlines[String(page.seat)] : undefined;
  if (clock !== undefined) left = Math.max(1, Math.min(left, Math.floor(clock - (Date.now() / 1000 + page.clockOffset) - 3)));
  const paint = () => { go.textContent = `Continue (${left})`; };
  page.holding = setInterval(() => { left -= 1; if (left <= 0) endHold(); else paint(); }, 1000);
  go.addEventListener("click", () => endHold());
  paint();
  box.replaceChildren(el("h2", { id: "showdown-title" }, "The hand is over"), shown.node, el("div", { class: "row" }, go));
  box.hidden = false;
  document.body.classList.add("holding");
  go.focus();
}

// The held showdown goes; the table comes back (and the focus into it, unless the game ended).
function endHold(redraw = true) {
  clearInterval(page.holding);
  page.holding = null;
  $("showdown").hidden = true;
  document.body.classList.remove("holding");
  if (!redraw) return;
  render();
  focusPlay(true);
}

// Every legal action as a button, except those the renderer draws as clickable things and
// asks not to list (its optional buttons(legal, obs)): a wild card's 64 cells, a grid's flips.
// A pattern (many actions in one entry: Memo Match's claims) is never a button: the drawing
// offers it.  A preview (what the move keeps) is shown on its button.
function renderActions() {
  const box = clear($("actions"));
  const view = page.view;
  const legal = legalNow();
  $("actions-panel").hidden = page.seat === null || !view || view.status !== "playing";
  $("actions-title").textContent = legal.length ? "Your move" : "Waiting";
  const plain = legal.filter((item) => item.action);
  const listed = plain.length && page.renderer && page.renderer.buttons ? page.renderer.buttons(plain, view.observation) : plain;
  for (const item of listed) {
    box.append(el("button", { type: "button", disabled: page.sending, "data-action": JSON.stringify(item.action), title: item.text,
      onclick: () => act(item.action) }, item.label, item.preview ? el("span", { class: "preview" }, ` · ${item.preview}`) : null));
  }
  if (listed.length < legal.length) {
    box.append(el("span", { class: "muted hint" }, `${listed.length ? "Or click" : "Click"} on the table above to play.`));
  }
}

// The end, on the first screen: who won and why (the renderer's optional ending(obs, ctx):
// {reason, moment, unit, score(seat, value)}), the deciding moment (the renderer's, or the
// last move's narration), what the scores count, every seat's score, and at a rated table
// how each rating moved.
function renderResults(table) {
  const abandoned = table.status === "abandoned";
  // (the table may say "finished" before its last update is drawn: the end waits for it)
  const done = table.status === "finished" && table.results && page.view && page.view.status === "finished";
  $("results-panel").hidden = !(done || abandoned);
  if (abandoned) {  // no winner: the game stopped where it was; its replay stays open
    clear($("results")).append(el("p", {}, "The game was abandoned: nobody was left at the table to play it."));
    $("rematch").hidden = true;
    $("replay-link").href = `/r/${table.id}`;
    return;
  }
  if (!done) return;
  const r = table.results;
  const view = page.view;
  const obs = view && view.observation;
  const ctx = obs ? context() : null;
  const ending = obs && obs.result && page.renderer && page.renderer.ending ? page.renderer.ending(obs, ctx) : null;
  const [one, many] = table.score_unit || ["point", "points"];
  const winners = r.winners.map(seatName);
  const headline = !winners.length ? "A draw: nobody won"
    : winners.length > 1 ? `${joined(winners)} share the win`
      : winners[0] === "You" ? "You won" : `${winners[0]} won`;
  const reason = (ending && ending.reason) || finalLine();
  const box = clear($("results"));
  box.append(el("p", { class: "verdict", id: "verdict" }, el("strong", {}, headline), reason ? `: ${reason}` : "."));
  const moment = (ending && ending.moment) || finalMoves();
  if (moment) box.append(el("div", { class: "moment" }, moment));
  const list = el("ol", { class: "ranking" });
  let place = 1;
  for (const group of r.ranking) {  // seats tied share their place
    for (const seat of group) {
      const score = r.scores[seat];
      const text = (ending && ending.score && ending.score(seat, score)) || `${score} ${score === 1 ? one : many}`;
      list.append(el("li", { class: seat === page.seat ? "mine" : null, value: place }, el("strong", {}, seatName(seat)), `: ${text}`));
    }
    place += group.length;
  }
  box.append(list, el("p", { class: "muted unit" }, (ending && ending.unit) || `The scores count ${many}.`));
  if (table.rated) box.append(ratingChanges(table));
  $("rematch").hidden = page.seat === null;
  $("replay-link").href = `/r/${table.id}`;
  if (!page.endShown) {  // the end comes into view once, from wherever the player was
    page.endShown = true;
    window.scrollTo({ top: 0 });
  }
}

const joined = (names) => (names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names.at(-1)}` : names[0] || "");

// The game's last narration line ("Game over: ..."), as a reason when the renderer has none.
function finalLine() {
  const lines = [...$("log").querySelectorAll(".line")].map((line) => line.textContent);
  const over = lines.reverse().find((text) => text.startsWith("Game over"));
  return over ? over.replace(/^Game over:?\s*/, "").replace(/\.$/, "") : "";
}

// The last move's narration (the lines of the final version, but "Game over").
function finalMoves() {
  const lines = [...$("log").querySelectorAll(`.line[data-version="${page.version}"]`)]
    .map((line) => line.textContent).filter((text) => !text.startsWith("Game over"));
  if (!lines.length) return null;
  return el("div", {}, el("h3", {}, "The last move"), ...lines.map((text) => el("p", { class: "narration" }, text)));
}

// At a rated table: each rated seat's rating before and after (fetched once).
function ratingChanges(table) {
  const box = el("div", { class: "rating-changes", id: "rating-changes" }, el("h3", {}, "Ratings"));
  const fill = (answer) => {
    if (!answer.seats.length) { box.append(el("p", { class: "muted" }, "Nobody's rating moved.")); return; }
    box.append(el("ul", {}, answer.seats.map((s) => el("li", { "data-seat": s.seat },
      `${s.seat === page.seat ? "You" : s.name}: ${ratingText(s.before, s.provisional)} → ${ratingText(s.after, s.provisional)} `,
      el("strong", {}, `(${changeText(s.before, s.after)})`)))));
    if (answer.seats.some((s) => s.provisional)) box.append(el("p", { class: "muted" }, "? : provisional, for the first 10 rated games of a game."));
  };
  if (page.ratings && page.ratings.table === table.id) fill(page.ratings.answer);
  else {
    box.append(el("p", { class: "muted" }, "Updating the ratings…"));
    api("GET", `/api/tables/${table.id}/ratings`).then((answer) => {
      page.ratings = { table: table.id, answer };
      render();
    }).catch(() => {});
  }
  return box;
}

function myTurn() {
  const view = page.view;
  return Boolean(page.table && page.table.status === "playing" && view && page.seat !== null
    && (view.to_act || []).includes(page.seat) && legalNow().length);
}

function renderTurn() {
  const view = page.view;
  const turn = $("turn");
  const waiting = myTurn();
  attention.update(waiting, view && (view.to_act || []).length > 1 ? "Your move" : "Your turn");
  if (waiting && document.activeElement === document.body) focusPlay(false);
  if (!page.table || page.table.status === "open") { turn.textContent = "Waiting for players"; return; }
  const over = { finished: "Game over", abandoned: "Game abandoned",
    expired: "This table closed before its game began", broken: "This table is out of order" };
  if (over[page.table.status]) { turn.textContent = over[page.table.status]; return; }
  if (!view) return;
  const toAct = view.to_act || [];
  if (waiting) turn.replaceChildren(el("span", { class: "turn" }, "Your turn"));
  else turn.textContent = toAct.length ? `Waiting for ${toAct.map(seatName).join(", ")}` : "";
}

function tickClock() {
  const box = $("clock");
  const clock = page.view && page.view.status === "playing" && page.view.clock;
  const show = (text) => { $("clock-text").textContent = text; box.hidden = !text; };
  if (!clock) { show(""); return; }
  const now = Date.now() / 1000 + page.clockOffset;
  const mine = clock.deadlines && page.seat !== null ? clock.deadlines[String(page.seat)] : undefined;
  const anyone = clock.deadlines ? Math.min(...Object.values(clock.deadlines)) : undefined;
  const deadline = mine ?? clock.phase_deadline ?? anyone;
  if (deadline === undefined || !isFinite(deadline)) { show(""); return; }
  const left = Math.max(0, deadline - now);
  show(`${left.toFixed(left < 10 ? 1 : 0)} s`);
  box.classList.toggle("low", left < 10);
}

// --- focus stays in the play area ------------------------------------------------------
// Redrawing replaces the things a player's focus was on: focus goes back to the same thing
// (the same card, cell, button) if it is still there, else to the first card of the hand or
// the first thing to click, else to the table itself; never back to the top of the page.
const PLAY_AREA = ["game", "actions-panel", "showdown"];
const KEYS = ["key", "action", "cell", "pos", "card"];

function inPlay(node) {
  return Boolean(node && node.nodeType === 1 && PLAY_AREA.some((id) => $(id).contains(node)));
}

function focusKey(node) {
  for (const name of KEYS) if (node.dataset && node.dataset[name] !== undefined) return [name, node.dataset[name]];
  return null;
}

function focusable(node) {
  return node.tabIndex >= 0 && !node.disabled && node.offsetParent !== null;
}

function findByKey(key) {
  if (!key) return null;
  const [name, value] = key;
  const attr = `data-${name}`;
  const matches = PLAY_AREA.flatMap((id) => [...$(id).querySelectorAll(`[${attr}]`)])
    .filter((node) => node.getAttribute(attr) === value && focusable(node));
  return matches[0] || null;
}

function focusPlay(remembered) {
  const target = (remembered && findByKey(page.focus.key))
    || [...document.querySelectorAll("#game [data-keys='hand'] .clickable, #game .clickable, #game button, #actions button")].find(focusable)
    || $("game");
  if (target !== document.activeElement) target.focus({ preventScroll: false });
}

function restoreFocus() {
  if (!page.focus.inPlay || moves.busy) return;
  const active = document.activeElement;
  if (active && active !== document.body && active !== $("game")) return;  // the table itself: a stopgap
  focusPlay(true);
}

document.addEventListener("focusin", (e) => {
  if (inPlay(e.target)) page.focus = { key: focusKey(e.target) || page.focus.key, inPlay: true };
  else if (e.target !== document.body && !$("ask").contains(e.target)) page.focus.inPlay = false;
});
// a renderer redrawing itself (picking a card) replaces the focused node too
new MutationObserver(() => queueMicrotask(restoreFocus)).observe($("game"), { childList: true, subtree: true });

// --- seats through the HTTP API ----------------------------------------------------------
// Signed in and watching: the seat the account holds here (playing, or offered in a rematch)
// that this browser has no token for, which "Resume my seat" asks for (as "My games" does).
async function findMySeat() {
  page.resumable = null;
  if (!page.account || page.seat !== null || page.away !== null || page.invited !== null) return;
  const games = (await api("GET", "/api/account/games").catch(() => ({ games: [] }))).games;
  const mine = games.find((game) => game.table.id === tableId && game.seat !== null);
  const info = mine && mine.table.seats[mine.seat];
  const live = mine && (mine.table.status === "open" || mine.table.status === "playing");
  if (live && info && info.kind !== "bot" && page.seat === null) {
    page.resumable = mine.seat;
    render();
  }
}

async function takeSeat(seat, name) {
  try {
    if (!page.account) setName(name);
    const answer = await api("POST", `/api/tables/${tableId}/seats/${seat}`, page.account ? {} : { name });
    setToken(tableId, answer.token);
    page.token = answer.token;
    page.ws.close();  // reconnect as the seat's player
  } catch (e) { $("error").textContent = e.message; alert(e.message); }
}

async function seatCall(method, path, body) {
  try {
    await api(method, `/api/tables/${tableId}${path}`, body, page.token);
  } catch (e) { problem(e.message); }
}

// A refused seat call, said where it is seen whatever panels show.
function problem(text) {
  $("error").textContent = text;
  alert(text);
}

// Reconnect as whatever the seat token holds now (after sitting down or taking a seat back).
function reconnect() {
  if (page.ws) page.ws.close();
}

function toggleHelp() {
  const panel = $("keys-help");
  panel.hidden = !panel.hidden;
  $("keys-toggle").setAttribute("aria-expanded", String(!panel.hidden));
  if (!panel.hidden) panel.scrollIntoView({ block: "nearest" });
}

$("start").addEventListener("click", () => seatCall("POST", "/start"));
$("rematch").addEventListener("click", () => askRematch(page, problem));
$("copy-invite").addEventListener("click", () => { $("invite").select(); navigator.clipboard?.writeText($("invite").value); });
$("keys-toggle").addEventListener("click", toggleHelp);
$("table-info").addEventListener("toggle", () => render());
$("tools").prepend(...attention.controls(el));
$("settings").append(moves.setting());
fillIcons();
listen({
  game: () => page.table && page.table.game, legal: () => (page.sending ? [] : legalNow()), act,
  help: toggleHelp, quiet: () => Boolean(moves.busy || page.holding || page.sending),
});
setInterval(tickClock, 250);
// Connected bot accounts, for "Add bot" while seats may still change.
async function refreshBotAccounts() {
  if (page.table && page.table.status !== "open") return;
  const names = (await api("GET", "/api/bots/online").catch(() => ({ bots: [] }))).bots;
  if (names.join("\n") === page.botAccounts.join("\n")) return;
  page.botAccounts = names;
  if (page.table) render();
}
refreshBotAccounts();
setInterval(refreshBotAccounts, 10000);
// Signed in since sitting down here as a guest: the seat becomes the account's (it keeps its
// name and token; refused quietly when the token holds no seat here).
whoAmI().then(async (account) => {
  page.account = account;
  if (account && page.token) await api("POST", `/api/tables/${tableId}/account`, undefined, page.token).catch(() => {});
  if (page.table) render();
}).catch(() => {}).finally(connect);
