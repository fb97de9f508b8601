// The lobby's own games: a signed-in person's games from the server (unfinished first), a
// guest's from this browser's local storage (the tables it took a seat at, newest first).
import { api, clear, el, getToken, recentTables, setToken } from "/static/common.js";

const $ = (id) => document.getElementById(id);
const STATUS = { open: "waiting for players", playing: "being played", finished: "finished", abandoned: "abandoned" };

// Signed in on a browser that holds no token for the seat (another device): the server hands
// this browser a token of its own for the account's seat, then the table opens.
async function resume(tableId, cell) {
  try {
    setToken(tableId, (await api("POST", `/api/tables/${tableId}/resume`)).token);
    location.href = `/t/${tableId}`;
  } catch (e) {
    clear(cell).append(el("span", { class: "error", role: "alert" }, e.message), " ",
      el("a", { href: `/t/${tableId}` }, "Watch"));
  }
}

function row(table, seat, account) {
  const over = table.status === "finished" || table.status === "abandoned";
  const names = table.seats.map((s) => (s && s.name) || "free").join(", ");
  const cell = el("td", {});
  const mine = seat !== null && table.seats[seat];
  if (account && !over && mine && mine.kind !== "bot" && !getToken(table.id)) {
    cell.append(el("button", { type: "button", class: "resume", onclick: () => resume(table.id, cell) }, "Resume my seat"));
  } else {
    cell.append(el("a", { href: over ? `/r/${table.id}` : `/t/${table.id}` }, over ? "Replay" : "Open"));
  }
  return el("tr", { "data-table": table.id },
    el("td", {}, table.title, table.rated ? el("span", { class: "badge" }, "rated") : null),
    el("td", {}, names),
    el("td", {}, STATUS[table.status] || table.status, seat !== null && over && table.results && table.results.winners.includes(seat) ? " - you won" : ""),
    cell);
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
  for (const game of games) body.append(row(game.table, game.seat, account));
  $("my-list").querySelector("table").hidden = !games.length;
  $("my-list").querySelector(".empty").hidden = games.length > 0;
}
