// Step through a finished game from the public view or from your own seat's view
// (hidden cards stay hidden: the server sends only what that view could see).
import { api, clear, el, getToken } from "/static/common.js";
import * as cards from "/static/cards.js";
import { Chat } from "/static/chat.js";
import { fillIcons } from "/static/icons.js";

const tableId = decodeURIComponent(location.pathname.split("/").pop());
const token = getToken(tableId);
const $ = (id) => document.getElementById(id);
let data = null;
let renderer = null;
let at = 0;
const chat = new Chat($("chat-lines"), tableId);

async function load(viewer) {
  const seat = viewer === "public" ? "" : `?seat=${viewer}`;
  try {
    data = await api("GET", `/api/tables/${tableId}/replay${seat}`, undefined, token);
  } catch (e) { $("error").textContent = e.message; return; }
  if (!renderer) {
    renderer = await import(`/static/games/${data.game}.js`).catch(() => import("/static/games/generic.js"));
  }
  $("step").max = data.steps.length - 1;
  chat.receive(data.chat || []);
  show(Math.min(at, data.steps.length - 1));
}

function show(index) {
  at = Math.max(0, Math.min(index, data.steps.length - 1));
  const step = data.steps[at];
  $("step").value = at;
  $("where").textContent = `step ${at} of ${data.steps.length - 1}`;
  const names = data.names.map((n, seat) => (seat === data.seat ? "You" : n));
  renderer.render($("game"), step.observation, { seat: data.seat, names, legal: [], act: () => {}, cards, el, clear,
    toAct: step.observation.to_act || [], events: [], hints: null, game: data.game });
  const log = clear($("log"));
  for (const line of step.log) log.append(el("div", { class: "line" }, line));
  // what was said up to this step (at the last step: also what was said after the game)
  chat.render(at === data.steps.length - 1 ? Infinity : step.version);
}

async function init() {
  const info = await api("GET", `/api/tables/${tableId}`, undefined, token);
  $("title").textContent = `Replay: ${info.table.title}`;
  if (info.seat !== null) $("viewer").append(el("option", { value: info.seat }, `your seat (${info.table.seats[info.seat].name})`));
  await load("public");
}

fillIcons();
$("viewer").addEventListener("change", (e) => load(e.target.value));
$("first").addEventListener("click", () => show(0));
$("prev").addEventListener("click", () => show(at - 1));
$("next").addEventListener("click", () => show(at + 1));
$("last").addEventListener("click", () => show(data.steps.length - 1));
$("step").addEventListener("input", (e) => show(Number(e.target.value)));
document.addEventListener("keydown", (e) => { if (e.key === "ArrowRight") show(at + 1); if (e.key === "ArrowLeft") show(at - 1); });
init().catch((e) => { $("error").textContent = e.message; });
