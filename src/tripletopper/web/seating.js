// Where this browser stands at the table, shown in the banner at the top of the page:
// watching, gone from its seat (with the way back), offered a seat in a rematch, or told
// that a rematch was asked for (people answer; spectators may follow).  All the seat
// calls of the page after the start go through here.
import { api, clear, el, setToken } from "/static/common.js";

// `page`: the table page's state (table, seat, away, invited, token, resumable: the seat the
// signed-in account holds here without a token in this browser); `reconnect()`:
// reconnect as what the token holds now; `problem(text)`: show a refusal.
export function renderStanding(page, reconnect, problem) {
  const box = document.getElementById("standing");
  const table = page.table;
  const free = !!table && table.status === "open" && table.seats.some((s) => !s.name);
  // Drawn again only when what it says changes: a button replaced at every move of a
  // fast game could not be clicked (nor keep the keyboard's focus).
  const shown = JSON.stringify(table && [table.id, table.status, table.rated, table.rematch_of,
    table.rematch, page.away, page.invited, page.seat, page.resumable, page.declined, free]);
  if (box.dataset.shown === shown) return;
  box.dataset.shown = shown;
  clear(box);
  if (!table) { box.hidden = true; return; }
  const lines = [];
  const button = (id, text, run, secondary = false) =>
    el("button", { type: "button", id, class: secondary ? "secondary" : null, onclick: run }, text);
  const call = async (method, path, then) => {
    try { then(await api(method, path, undefined, page.token)); } catch (e) { problem(e.message); }
  };
  const rematchOf = `/api/tables/${table.rematch_of}/rematch`;
  if (page.away !== null && page.away !== undefined) {
    const seat = page.away + 1;
    if (table.status === "playing") {
      const last = table.rated ? "In this rated game you finish last, even if you take it back. " : "";
      lines.push([`You left seat ${seat}: a bot plays it for you. ${last}`,
        button("take-back", "Take my seat back",
          () => call("POST", `/api/tables/${table.id}/seats/${page.away}/return`, reconnect))]);
    } else if (table.status === "open" && table.rematch_of) {
      lines.push([`You declined seat ${seat} of this rematch: a bot will play it. `,
        button("join-rematch", "Join after all", () => call("POST", rematchOf, reconnect))]);
    } else {
      lines.push([`You left seat ${seat}: a bot played it.`]);
    }
  } else if (page.invited !== null && page.invited !== undefined) {
    lines.push([`You are offered seat ${page.invited + 1} in this rematch. `,
      button("join-rematch", "Join the rematch", () => call("POST", rematchOf, reconnect)), " ",
      button("decline-rematch", "No thanks", () => call("DELETE", rematchOf, reconnect), true)]);
  } else if (page.seat === null && page.resumable !== null && page.resumable !== undefined) {
    // signed in on a browser with no token for the account's seat here (another device)
    lines.push([el("strong", {}, "You are watching"), `: your account holds seat ${page.resumable + 1} here. `,
      button("resume-seat", "Resume my seat", async () => {
        try {
          const answer = await api("POST", `/api/tables/${table.id}/resume`);
          setToken(table.id, answer.token);
          page.token = answer.token;
          page.resumable = null;
          reconnect();
        } catch (e) { problem(e.message); }
      })]);
  } else if (page.seat === null) {
    lines.push([el("strong", {}, "You are watching"),
      free ? ": take a free seat below to play." : ": you see what the whole table sees, never a hidden card."]);
  }
  if (table.status === "finished" && table.rematch) lines.push(rematchOffer(page, button, call, reconnect, problem));
  box.hidden = !lines.length;
  box.append(...lines.map((line) => el("div", {}, ...line)));
}

// The rematch asked for at a finished table, as this browser may answer it.
function rematchOffer(page, button, call, reconnect, problem) {
  const table = page.table;
  const url = `/t/${table.rematch}`;
  if (page.seat === null) {
    return ["A rematch was asked for. ", el("a", { id: "watch-rematch", href: url }, "Watch the rematch")];
  }
  if (page.declined === table.rematch) {
    return ["You said no to the rematch: a bot plays your seat there. ",
      el("a", { id: "watch-rematch", href: url }, "Watch it")];
  }
  const go = (answer) => {
    setToken(answer.table.id, page.token);
    location.href = `/t/${answer.table.id}`;
  };
  return ["A rematch was asked for: you are offered your seat. ",
    button("join-rematch", "Join the rematch", () => call("POST", `/api/tables/${table.id}/rematch`, go)), " ",
    button("decline-rematch", "No thanks", () => call("DELETE", `/api/tables/${table.id}/rematch`, () => {
      page.declined = table.rematch;
      renderStanding(page, reconnect, problem);  // drawn until what it says changes: real handlers
    }), true)];
}

// Ask for a rematch (or accept the one asked for): then go to its table with this seat's token.
export async function askRematch(page, problem) {
  try {
    const answer = await api("POST", `/api/tables/${page.table.id}/rematch`, undefined, page.token);
    setToken(answer.table.id, page.token);
    location.href = `/t/${answer.table.id}`;
  } catch (e) { problem(e.message); }
}
