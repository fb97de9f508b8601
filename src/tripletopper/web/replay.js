// Step through a finished game from your own seat's view (a seat's player opens on it) or
// the public one (hidden cards stay hidden: the server sends only what that view could see), and
// review your own decisions (the server searches them in the background: we poll).
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

const SKIPPED = { forced: "forced (one legal move)", race: "races (several seats at once)",
  not_searched: "quiz answers" };
let mySeat = null;

async function review(method) {
  const path = `/api/tables/${tableId}/review?seat=${mySeat}`;
  $("review-error").textContent = "";
  let answer;
  try { answer = await api(method, path, undefined, token); }
  catch (e) { $("review-error").textContent = e.message; $("review").disabled = false; return; }
  if (answer.status === "done") { showReview(answer.review); return; }
  if (answer.status === "failed") {
    $("review-error").textContent = answer.message; $("review").disabled = false; return;
  }
  const bar = $("review-progress");
  bar.hidden = false;
  if (answer.total) { bar.max = answer.total; bar.value = answer.done; } else bar.removeAttribute("value");
  $("review-status").textContent = answer.total === null ? "Waiting for a free worker..."
    : `Reviewing decision ${Math.min(answer.done + 1, answer.total)} of ${answer.total}...`;
  setTimeout(() => review("GET"), 500);
}

function showReview(result) {
  $("review-progress").hidden = true;
  $("review").hidden = true;
  const n = result.decisions.length;
  $("review-status").textContent = `${n} decision${n === 1 ? "" : "s"} reviewed, ${result.iterations} search iterations each.`;
  const body = clear($("review-table").querySelector("tbody"));
  for (const d of result.decisions) {
    const same = d.preferred === d.played;
    const step = el("button", { class: "secondary", type: "button", title: "Show this step" }, String(d.index + 1));
    step.addEventListener("click", () => { show(d.index + 1); $("game").scrollIntoView(); });
    body.append(el("tr", { class: same ? "muted" : "" }, el("td", {}, step), el("td", {}, d.played),
      el("td", {}, same ? "the same" : d.preferred), el("td", {}, (d.loss * 100).toFixed(1))));
  }
  $("review-table").hidden = n === 0;
  const skipped = Object.entries(result.skipped).map(([why, count]) => `${count} ${SKIPPED[why] || why}`);
  $("review-skipped").textContent = skipped.length ? `Not reviewed: ${skipped.join(", ")}.` : "";
}

async function init() {
  const info = await api("GET", `/api/tables/${tableId}`, undefined, token);
  $("title").textContent = `Replay: ${info.table.title}`;
  mySeat = info.seat ?? info.away;
  // a seat's own player opens on their seat's view (the public one is a choice away)
  if (mySeat !== null) {
    $("viewer").append(el("option", { value: mySeat }, `your seat (${info.table.seats[mySeat].name})`));
    $("viewer").value = String(mySeat);
  }
  await load(mySeat !== null ? String(mySeat) : "public");
  if (mySeat !== null && data) {
    $("review-panel").hidden = false;
    // a review asked for before (here or elsewhere) shows at once
    api("GET", `/api/tables/${tableId}/review?seat=${mySeat}`, undefined, token)
      .then((answer) => {
        if (answer.status === "done") showReview(answer.review);
        else if (answer.status === "waiting" || answer.status === "running") { $("review").disabled = true; review("GET"); }
      })
      .catch(() => {});
  }
}

$("review").addEventListener("click", () => { $("review").disabled = true; review("POST"); });

fillIcons();
$("viewer").addEventListener("change", (e) => load(e.target.value));
$("first").addEventListener("click", () => show(0));
$("prev").addEventListener("click", () => show(at - 1));
$("next").addEventListener("click", () => show(at + 1));
$("last").addEventListener("click", () => show(data.steps.length - 1));
$("step").addEventListener("input", (e) => show(Number(e.target.value)));
document.addEventListener("keydown", (e) => { if (e.key === "ArrowRight") show(at + 1); if (e.key === "ArrowLeft") show(at - 1); });
init().catch((e) => { $("error").textContent = e.message; });
