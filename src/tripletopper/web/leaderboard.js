// A game's leaderboard: rated people and bot levels, best first, 50 at a time.
import { api, el } from "/static/common.js";
import { fillIcons } from "/static/icons.js";
import { ratingText } from "/static/rating.js";

const game = decodeURIComponent(location.pathname.split("/").pop());
const $ = (id) => document.getElementById(id);
const PAGE = 50;
let offset = 0;

function row(entry) {
  return el("tr", { "data-player": entry.name },
    el("td", {}, entry.rank),
    el("td", {}, el("a", { href: entry.page }, entry.name), entry.kind === "bot" ? el("span", { class: "badge" }, "bot") : null),
    el("td", { title: entry.provisional ? "provisional: fewer than 10 rated games" : null }, ratingText(entry.rating, entry.provisional)),
    el("td", {}, entry.games));
}

async function more() {
  const data = await api("GET", `/api/leaderboard/${encodeURIComponent(game)}?limit=${PAGE}&offset=${offset}`);
  $("title").textContent = `Leaderboard: ${data.title}`;
  document.title = `${data.title} leaderboard - Triple Topper card room`;
  $("players").append(...data.players.map(row));
  offset += data.players.length;
  $("more").hidden = data.players.length < PAGE;
  document.querySelector("table.list").hidden = offset === 0;
  document.querySelector(".empty").hidden = offset > 0;
}

async function init() {
  const games = await api("GET", "/api/games");
  $("boards").append(...games.map((g) => el("a", { href: `/leaderboard/${g.name}`, "aria-current": g.name === game ? "page" : null }, g.title)));
  await more();
}

fillIcons();
$("more").addEventListener("click", () => more().catch((e) => { $("error").textContent = e.message; }));
init().catch((e) => { $("error").textContent = e.message; });
