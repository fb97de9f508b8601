// The lobby's own games: a signed-in person's games from the server (unfinished first), a
// guest's from this browser's local storage (the tables it took a seat at, newest first).
import { api, clear, el, recentTables } from "/static/common.js";

const $ = (id) => document.getElementById(id);
const STATUS = { open: "waiting for players", playing: "being played", finished: "finished", abandoned: "abandoned" };

function row(table, seat) {
  const over = table.status === "finished" || table.status === "abandoned";
  const names = table.seats.map((s) => (s && s.name) || "free").join(", ");
  return el("tr", { "data-table": table.id },
    el("td", {}, table.title, table.rated ? el("span", { class: "badge" }, "rated") : null),
    el("td", {}, names),
    el("td", {}, STATUS[table.status] || table.status, seat !== null && over && table.results && table.results.winners.includes(seat) ? " - you won" : ""),
    el("td", {}, el("a", { href: over ? `/r/${table.id}` : `/t/${table.id}` }, over ? "Replay" : "Open")));
}

export async function showMyGames(account) {
  let games;
  if (account) {
    $("my-title").textContent = "My games";
    games = (await api("GET", "/api/account/games")).games;
  } else {
    $("my-title").textContent = "Your recent games (this browser)";
    const found = await Promise.all(recentTables().map((id) => api("GET", `/api/tables/${id}`).catch(() => null)));
    games = found.filter(Boolean).map((info) => ({ table: info.table, seat: null }));
  }
  const body = clear($("my-tables"));
  for (const game of games) body.append(row(game.table, game.seat));
  $("my-list").querySelector("table").hidden = !games.length;
  $("my-list").querySelector(".empty").hidden = games.length > 0;
}
