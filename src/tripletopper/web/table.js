// The table page, for every game: seats, the game drawn by the game's renderer module
// (/static/games/<game>.js), legal actions as buttons, clocks, narration, reconnection.
import { api, clear, el, getName, getToken, setName, setToken } from "/static/common.js";
import * as cards from "/static/cards.js";
import { Chat, chatForm } from "/static/chat.js";
import { showHelp } from "/static/help.js";
import { askRematch, renderStanding } from "/static/seating.js";

const tableId = decodeURIComponent(location.pathname.split("/").pop());
const $ = (id) => document.getElementById(id);

// A seat link (#seat=TOKEN) moves a seat to this browser.
if (location.hash.startsWith("#seat=")) {
  setToken(tableId, decodeURIComponent(location.hash.slice(6)));
  history.replaceState(null, "", location.pathname);
}

const page = {
  token: getToken(tableId), seat: null, away: null, invited: null, table: null, names: [], view: null,
  version: -1, renderer: null, rendererFor: null, ws: null, retry: 250, sending: false,
  clockOffset: 0, logVersions: new Set(),
};
const chat = new Chat($("chat-lines"), tableId, {
  mySeat: () => page.seat, send: (text) => send({ type: "chat", text, ref: "chat" }),
});
const chatBox = chatForm($("chat-form"), $("chat-input"), $("chat-error"), chat);

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

function act(action, table = false) {
  if (page.sending) return;
  page.sending = true;
  $("error").textContent = "";
  const message = { type: "action", action, version: page.version };
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
      break;
    case "seat":  // this seat was handed to a bot (its person watches now), or back
      page.seat = message.seat;
      page.away = message.away;
      break;
    case "chat":
      chat.receive(message.lines);
      break;
    case "state":
      if (message.resync) { clear($("log")); page.logVersions.clear(); }
      page.table = message.table;
      // fall through
    case "update":
      page.version = message.version;
      page.view = message;
      page.sending = false;
      if (message.clock) page.clockOffset = message.clock.now - Date.now() / 1000;
      addLog(message.log || [], message.type === "update");
      render();
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
      if (message.code === "bad_token") { page.token = null; }
      if (message.code === "stale") send({ type: "sync", version: page.version });
      render();
      break;
  }
}

function addLog(lines, fresh) {
  const box = $("log");
  for (const old of box.querySelectorAll(".line.new")) old.classList.remove("new");
  for (const line of lines) {
    box.append(el("div", { class: `line${fresh ? " new" : ""}`, "data-version": line.version }, line.text));
  }
  while (box.children.length > 300) box.removeChild(box.firstChild);
  box.scrollTop = box.scrollHeight;
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
  render();
}

function render() {
  const table = page.table;
  if (!table) return;
  document.title = `${table.title} - Triple Topper card room`;
  $("title").textContent = `${table.title} · ${table.players} players`;
  $("invite").value = `${location.origin}/t/${table.id}`;
  if (page.token && page.seat !== null) {
    $("seat-link-box").hidden = false;
    $("seat-link").value = `${location.origin}/t/${table.id}#seat=${encodeURIComponent(page.token)}`;
  }
  loadRenderer(table.game);
  showHelp(table.game);
  renderStanding(page, reconnect, problem);
  renderSeats(table);
  renderGame();
  renderActions();
  renderResults(table);
  renderTurn();
}

function renderSeats(table) {
  const open = table.status === "open";
  $("seats-panel").hidden = !open && page.seat === null;
  const box = clear($("seats"));
  const seated = page.seat !== null;
  for (const info of table.seats) {
    const mine = info.seat === page.seat;
    const card = el("div", { class: `seat${mine ? " mine" : ""}`, "data-seat": info.seat });
    const who = info.name ? `${info.name}${mine ? " - you" : ""}${info.kind === "invited" ? " (asked to the rematch: answering…)" : ""}` : "empty";
    card.append(el("div", {}, el("strong", {}, `Seat ${info.seat + 1}: `), who));
    if (open && !info.name && !seated) {
      // what is typed is kept at once: any update redraws the seats, and the name must survive
      const input = el("input", { placeholder: "your name", maxlength: 32, value: getName(), "aria-label": `Name for seat ${info.seat + 1}`, oninput: (e) => setName(e.target.value) });
      card.append(el("div", { class: "row" }, input, el("button", {
        type: "button", onclick: () => takeSeat(info.seat, input.value),
      }, "Sit here")));
    }
    if (open && !info.name && seated) {
      const select = el("select", { "aria-label": `Bot for seat ${info.seat + 1}` },
        table.bots.map((b) => el("option", { value: b, selected: b === "medium" }, b)));
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
  page.renderer.render(root, view.observation, {
    seat: page.seat, names: page.table.seats.map((s) => seatName(s.seat)),
    legal: page.sending ? [] : (view.legal || []), act, cards, el, clear,
    toAct: view.to_act || [], results: view.results, events: (view.type === "update" && view.events) || [],
  });
}

// Every legal action as a button, except those the renderer draws as clickable things and
// asks not to list (its optional buttons(legal, obs)): a wild card's 64 cells, a grid's flips.
// A pattern (many actions in one entry: Memo Match's claims) is never a button: the drawing
// offers it.
function renderActions() {
  const box = clear($("actions"));
  const view = page.view;
  const legal = (view && view.legal) || [];
  $("actions-panel").hidden = page.seat === null || !view || view.status !== "playing";
  $("actions-title").textContent = legal.length ? "Your move" : "Waiting";
  const plain = legal.filter((item) => item.action);
  const listed = plain.length && page.renderer && page.renderer.buttons ? page.renderer.buttons(plain, view.observation) : plain;
  for (const item of listed) {
    box.append(el("button", { type: "button", disabled: page.sending, "data-action": JSON.stringify(item.action), title: item.text,
      onclick: () => act(item.action) }, item.label));
  }
  if (listed.length < legal.length) {
    box.append(el("span", { class: "muted hint" }, `${listed.length ? "Or click" : "Click"} on the table above to play.`));
  }
}

function renderResults(table) {
  const done = table.status === "finished" && table.results;
  $("results-panel").hidden = !done;
  if (!done) return;
  const r = table.results;
  const winners = r.winners.map(seatName);
  const box = clear($("results"));
  box.append(el("p", {}, winners.length ? `Winner${winners.length > 1 ? "s" : ""}: ${winners.join(" and ")}` : "Nobody won."));
  const list = el("ol", {});
  for (const group of r.ranking) for (const seat of group) list.append(el("li", {}, `${seatName(seat)}: ${r.scores[seat]}`));
  box.append(list);
  $("rematch").hidden = page.seat === null;
  $("replay-link").href = `/r/${table.id}`;
}

function renderTurn() {
  const view = page.view;
  const turn = $("turn");
  if (!page.table || page.table.status === "open") { turn.textContent = "Waiting for players"; return; }
  if (page.table.status === "finished") { turn.textContent = "Game over"; return; }
  if (!view) return;
  const toAct = view.to_act || [];
  if (page.seat !== null && toAct.includes(page.seat)) turn.innerHTML = '<span class="turn">Your turn</span>';
  else turn.textContent = toAct.length ? `Waiting for ${toAct.map(seatName).join(", ")}` : "";
}

function tickClock() {
  const box = $("clock");
  const clock = page.view && page.view.status === "playing" && page.view.clock;
  if (!clock) { box.textContent = ""; return; }
  const now = Date.now() / 1000 + page.clockOffset;
  const mine = clock.deadlines && page.seat !== null ? clock.deadlines[String(page.seat)] : undefined;
  const anyone = clock.deadlines ? Math.min(...Object.values(clock.deadlines)) : undefined;
  const deadline = mine ?? clock.phase_deadline ?? anyone;
  if (deadline === undefined || !isFinite(deadline)) { box.textContent = ""; return; }
  const left = Math.max(0, deadline - now);
  box.textContent = `⏱ ${left.toFixed(left < 10 ? 1 : 0)} s`;
  box.classList.toggle("low", left < 10);
}

// --- seats through the HTTP API ----------------------------------------------------------
async function takeSeat(seat, name) {
  try {
    setName(name);
    const answer = await api("POST", `/api/tables/${tableId}/seats/${seat}`, { name });
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

$("start").addEventListener("click", () => seatCall("POST", "/start"));
$("rematch").addEventListener("click", () => askRematch(page, problem));
$("copy-invite").addEventListener("click", () => { $("invite").select(); navigator.clipboard?.writeText($("invite").value); });
setInterval(tickClock, 250);
connect();
