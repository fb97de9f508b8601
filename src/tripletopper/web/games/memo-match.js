// Memo Match at the table: the grid of positions (A1 ... L10, then A11 ... E11), face down
// with their names, and only the cards that are face up now; the players in turn order with
// the cards they took; the "no matches" race and the playoff.  Click a face-down card to flip
// it (or to take it as a triple's bonus); while spotting, click two cards to claim a pair.
// The two cards of a miss stay drawn face up, outlined, until the next update, as they lay
// face up on a real table before being turned back: their faces come from that update's
// `missed` event, and nothing else names them later (the log gives positions only).
// Remembering where the cards lie is the game.  The grid is one labelled grid a keyboard
// walks card by card with the arrows (Enter flips or claims); declaring "no matches" asks
// for confirmation first, since a wrong declaration puts you out.
import { badge, fromPattern, legalBy, patternOf, playerBox, plural, pressable } from "/static/games/parts.js";

const COLUMNS = "ABCDEFGHIJKL";
const WIDE = COLUMNS.length;
const DRAWN = new Set(["flip", "take"]);

// The first card of a claim being made, and the position the keyboard is on.
let claim = { key: null, first: null };
let cursor = null;

// The page lists "no matches" and pass; flips, bonus takes and claims (sent as one pattern:
// any two of the face-up cards) are the grid's cards.
export function buttons(legal) {
  return legal.filter((item) => !DRAWN.has(item.action.type));
}

function position(p) {
  return `${COLUMNS[p % WIDE]}${Math.floor(p / WIDE) + 1}`;
}

// Before declaring "no matches": it is one click from the first turn, and wrong puts you out.
export function guard(action) {
  if (action.type !== "declare") return null;
  return {
    text: "Declare \"no matches\"? Every card is turned face up and the others race to spot a pair: "
      + "if anyone spots one, you are out of the game.",
    choices: [{ label: "Declare no matches", action }],
  };
}

function status(obs, ctx) {
  const name = (seat) => ctx.names[seat];
  const you = (seat) => seat === ctx.seat;
  if (obs.result) return "Game over.";
  if (obs.phase === "spot") {
    const spotting = patternOf(ctx, "claim") !== null;
    return `${name(obs.declarer)} declared "no matches": every card is face up. `
      + (spotting ? "Spot a pair: click two cards (a wrong claim bars you from spotting)." : "The others race to spot a pair.");
  }
  if (obs.phase === "bonus") {
    return `A triple! ${name(obs.turn)} ${you(obs.turn) ? "take" : "takes"} ${plural(obs.bonus_left, "more card")}`
      + `${you(obs.turn) ? ": click face-down cards" : ""}.`;
  }
  const which = obs.phase === "second" ? "a second card" : "a card";
  if (you(obs.turn)) return `Your turn: flip ${which} (click it)${obs.phase === "flip" ? ", or declare \"no matches\"" : ""}.`;
  return `${name(obs.turn)} ${obs.phase === "second" ? "flips a second card" : "is to flip"}.`;
}

export function render(root, obs, ctx) {
  const { el, clear, cards } = ctx;
  clear(root);
  const redraw = () => render(root, obs, ctx);
  const key = `${obs.turns}|${obs.phase}|${obs.table.length}`;
  if (claim.key !== key) claim = { key, first: null };

  if (obs.playoff) {
    root.append(el("div", { class: "banner" },
      `Playoff: ${obs.leaders.map((s) => ctx.names[s]).join(" and ")} share the lead and play off on the other players' cards`
      + (obs.set_aside ? ` (${obs.set_aside} left from the main game are set aside).` : ".")));
  }

  // the players, in the order of play
  const players = el("div", { class: "players" });
  for (const seat of obs.order) {
    const out = obs.out.includes(seat);
    const badges = [
      seat === obs.declarer ? badge(ctx, "declared", "declared no matches") : null,
      out ? badge(ctx, "out", "out of the game: keeps the cards taken") : null,
      obs.barred.includes(seat) ? badge(ctx, "may not spot", "made a wrong claim") : null,
      obs.playoff && obs.leaders.includes(seat) ? badge(ctx, "leader") : null,
    ];
    const taken = obs.captured_cards[seat];
    const lines = [el("div", {}, `${plural(obs.captured[seat], "card")} taken`,
      obs.playoff ? ` · playoff: ${obs.playoff_captured[seat]}` : "")];
    const shown = obs.playoff ? obs.playoff_cards[seat] : taken;
    if (shown.length) {
      lines.push(el("details", { class: "taken" }, el("summary", {}, obs.playoff ? "playoff cards" : "cards taken"),
        cards.row(shown, "small")));
    }
    players.append(playerBox(ctx, seat, { acting: obs.to_act.includes(seat), out, badges }, ...lines));
  }
  root.append(players);
  root.append(el("div", { class: "status-line", id: "memo-status" }, status(obs, ctx),
    ` ${obs.table.length} cards on the table · turn ${obs.turns}${obs.players === 1 ? " (fewer is better)" : ""}.`));

  // once the game is over with every card taken, an empty grid would only push the rest down
  if (obs.result && !obs.table.length) {
    root.append(el("p", { class: "muted" }, "The table is cleared: every card was taken."));
    return;
  }

  // the grid: face-down cards by name, face-up cards drawn
  const flips = legalBy(ctx, obs.phase === "bonus" ? "take" : "flip", (a) => a.position);
  const claims = patternOf(ctx, "claim");
  const claimable = new Set(claims ? claims.pattern.from : []);
  const pickForClaim = (name) => {
    if (claim.first === null || claim.first === name) {
      claim.first = claim.first === name ? null : name;
      redraw();
      return;
    }
    const action = fromPattern(claims, [claim.first, name]);
    claim.first = null;
    if (action) ctx.act(action); else redraw();
  };
  // A missed pair stays drawn face up until the next update, as both cards lay face up
  // on a real table before they were turned back.
  const missed = new Set();
  const faces = {};
  for (const e of ctx.events || []) {
    if (e.type !== "missed") continue;
    e.positions.forEach((name, i) => {
      missed.add(name);
      if (e.cards) faces[name] = e.cards[i];
    });
  }
  const onTable = new Set(obs.table);
  const cells = [];
  for (let p = 0; p < obs.size; p++) {
    const name = position(p);
    let cell;
    if (name in obs.face_up) {
      const code = obs.face_up[name];
      cell = code ? cards.card(code) : cards.back("", `${name}: face up, hidden from you`);
      cell.classList.add("memo-up");
      cell.setAttribute("aria-label", `${name}: ${code ? cards.longName(code) : "face up, hidden from you"}`);
      if (claimable.has(name)) {
        pressable(cell, () => pickForClaim(name), `${claim.first ? `claim with ${claim.first}` : "claim"}: ${name}${code ? ` (${cards.longName(code)})` : ""}`);
        if (claim.first === name) { cell.classList.add("picked"); cell.setAttribute("aria-selected", "true"); }
      }
    } else if (onTable.has(name)) {
      const back = missed.has(name);
      if (back && faces[name]) {
        cell = cards.card(faces[name]);
        cell.classList.add("missed");
        cell.setAttribute("title", `${name}: ${cards.longName(faces[name])}, no match: turned back`);
        cell.setAttribute("aria-label", cell.getAttribute("title"));
      } else {
        cell = el("div", { class: `memo-down${back ? " missed" : ""}`, title: `${name}: face down${back ? " (just turned back)" : ""}` }, name);
      }
      const item = flips.get(name);
      if (item) pressable(cell, () => ctx.act(item.action), item.label);
    } else {
      cell = el("div", { class: "memo-empty", "aria-label": `${name}: empty` });
    }
    cell.dataset.pos = name;
    if (!cell.getAttribute("aria-label")) cell.setAttribute("aria-label", cell.getAttribute("title") || name);
    cells.push(cell);
  }
  // One grid, row by row; the keyboard moves through it (roving focus: one cell in the tab
  // order, the one last visited or the first that can be played).
  const playable = cells.find((c) => c.classList.contains("clickable"));
  const home = cells.find((c) => c.dataset.pos === (claim.first || cursor)) || playable || cells[0];
  const grid = el("div", { class: "memo-grid", role: "grid", "aria-label": "The cards on the table, 12 to a row" });
  for (let start = 0; start < cells.length; start += WIDE) {
    const row = el("div", { role: "row", class: "memo-row" });
    for (const cell of cells.slice(start, start + WIDE)) {
      cell.setAttribute("role", "gridcell");
      cell.setAttribute("tabindex", cell === home ? "0" : "-1");
      if (!cell.classList.contains("clickable")) cell.setAttribute("aria-disabled", "true");
      cell.addEventListener("focus", () => { cursor = cell.dataset.pos; });
      row.append(cell);
    }
    grid.append(row);
  }
  grid.addEventListener("keydown", (event) => walk(event, cells));
  const board = el("div", { class: "memo-board" }, grid);
  root.append(board);

  // a card or two face up in play, drawn large as well (the grid's cards are small on a phone;
  // the grid itself names them to screen readers)
  const up = Object.entries(obs.face_up);
  if (up.length && up.length <= 2) {
    board.append(el("div", { class: "cards memo-shown", "aria-hidden": "true" }, el("span", { class: "pile-label" }, "Face up:"),
      up.map(([name, code]) => el("div", { class: "hand-card" }, code ? cards.card(code, "large") : cards.back("large"),
        el("div", { class: "caption" }, name)))));
  }
}

// Arrow keys on the grid: one card left or right, one row up or down; Home/End: the row's
// ends.  Enter and Space are the cards' own (pressable).
function walk(event, cells) {
  const at = cells.indexOf(event.target);
  if (at < 0) return;
  const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -WIDE, ArrowDown: WIDE,
    Home: -(at % WIDE), End: WIDE - 1 - (at % WIDE) };
  if (!(event.key in moves)) return;
  event.preventDefault();
  const next = cells[Math.max(0, Math.min(cells.length - 1, at + moves[event.key]))];
  event.target.setAttribute("tabindex", "-1");
  next.setAttribute("tabindex", "0");
  next.focus();
}

// The end: who took the most cards (alone: how many turns the table took to clear).
export function ending(obs, ctx) {
  const solo = obs.players === 1;
  const winner = obs.result.winners.length === 1 ? ctx.names[obs.result.winners[0]] : null;
  const total = obs.captured.reduce((a, b) => a + b, 0);
  let reason;
  if (solo) reason = obs.table.length ? `the table was not cleared (${plural(obs.table.length, "card")} left)` : `cleared the table in ${plural(obs.turns, "turn")}`;
  else if (winner) reason = `the most cards taken, ${obs.captured[obs.result.winners[0]]} of ${total}`;
  else reason = "the most cards taken, shared";
  return {
    reason,
    moment: null,  // the last pair taken, from the narration
    unit: solo ? "Alone, the score is the turns taken to clear the table: fewer is better." : "The scores are the cards each player took; the most wins.",
    score: solo ? null : (seat, value) => `${plural(value, "card")} taken${obs.out.includes(seat) ? " (out of the game)" : ""}`,
  };
}
