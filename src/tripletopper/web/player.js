// A player's page: a rating per game with a small rating-over-time chart (SVG), and the
// recent games with their result, rating change and replay link.
import { api, clear, el } from "/static/common.js";
import { fillIcons } from "/static/icons.js";
import { START, changeText, ratingText } from "/static/rating.js";

const name = decodeURIComponent(location.pathname.split("/").pop());
const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";

function svg(tag, attrs = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
  return node;
}

// The rating after each rated game, left to right, starting from 1500 (a newcomer).
export function chart(history, width = 240, height = 60) {
  const values = [START, ...history.map((h) => h.rating)];
  const low = Math.min(...values), high = Math.max(...values);
  const span = high - low || 1;
  const x = (i) => (values.length > 1 ? (i * (width - 8)) / (values.length - 1) + 4 : width / 2);
  const y = (v) => height - 4 - ((v - low) * (height - 8)) / span;
  const points = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
  const box = svg("svg", { viewBox: `0 0 ${width} ${height}`, width, height, role: "img", class: "rating-chart",
    "aria-label": `rating over ${history.length} rated games: from ${values[0]} to ${values.at(-1)}` });
  box.append(svg("line", { x1: 0, x2: width, y1: y(START), y2: y(START), class: "zero" }));
  box.append(svg("polyline", { points, fill: "none", class: "line" }));
  for (const [i, v] of values.entries()) if (i) box.append(svg("circle", { cx: x(i), cy: y(v), r: 2 }));
  return box;
}

function place(n) {
  if (n === null || n === undefined) return "";
  const whole = Math.round(n * 2) / 2;
  const suffix = whole === 1 ? "st" : whole === 2 ? "nd" : whole === 3 ? "rd" : "th";
  return Number.isInteger(whole) ? `${whole}${suffix}` : `${whole} (shared)`;
}

function gameRow(game) {
  const change = game.rating ? game.rating.after - game.rating.before : null;
  const result = game.status === "finished" || game.status === "abandoned" ? place(game.place) : game.status;
  const link = game.replay ? el("a", { href: game.replay }, "Replay") : el("a", { href: `/t/${game.table}` }, "Open");
  return el("tr", { "data-table": game.table },
    el("td", {}, game.title), el("td", {}, game.names.filter(Boolean).join(", ")),
    el("td", { class: "result" }, result),
    el("td", { class: "change" }, change === null ? "unrated" : `${game.rating.after} (${changeText(game.rating.before, game.rating.after)})`),
    el("td", {}, link));
}

async function init() {
  const data = await api("GET", `/api/players/${encodeURIComponent(name)}`);
  $("title").textContent = data.kind === "bot" ? `${data.name} (bot)` : data.name;
  document.title = `${data.name} - Triple Topper card room`;
  const box = clear($("ratings"));
  if (!data.ratings.length) box.append(el("p", { class: "muted" }, "No rated game yet."));
  for (const r of data.ratings) {
    box.append(el("div", { class: "rating", "data-game": r.game },
      el("h3", {}, el("a", { href: `/leaderboard/${r.game}` }, r.title)),
      el("p", {}, el("strong", { class: "value" }, ratingText(r.rating, r.provisional)),
        ` after ${r.games} rated game${r.games === 1 ? "" : "s"}${r.provisional ? " (provisional until 10)" : ""}`),
      chart(r.history)));
  }
  $("games").append(...data.games.map(gameRow));
  document.querySelector("table.list").hidden = !data.games.length;
  document.querySelector(".empty").hidden = data.games.length > 0;
}

fillIcons();
init().catch((e) => { $("error").textContent = e.message; });
