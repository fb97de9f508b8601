// Thirty-One at the table: each player's lives as organs (liver, kidneys, heart; then
// circling the drain, then out), the knocker and the dealer, the cards the table knows in
// each hand; the stock (click it to draw), the squared discard pile (its size and its top
// card, which a click takes), the kitty; your hand with its value, whose cards are the
// discard buttons, each with the value it keeps; and how the last hand was settled (held on
// screen after each hand, shown at the end).  With manual_31 a click that throws away a
// declarable 31 asks first.  Built only from the observation the server sent to this seat.
import { badge, clickable, declareGuard, drawHint, handCard, handRow, legalBy, otherHand, playerBox, plural, spot } from "/static/games/parts.js";

// A player's lives in words: each organ is one (liver, kidneys, heart, lost in that order),
// then one more while circling the drain.
function livesText(lives) {
  if (lives <= 0) return "0 lives: out";
  const organs = ORGANS.slice(ORGANS.length + 1 - lives);
  return `${plural(lives, "life", "lives")}: ${organs.length ? `${organs.join(", ")}, then circling the drain` : "circling the drain"}`;
}

const ORGANS = ["liver", "kidneys", "heart"];
const NS = "http://www.w3.org/2000/svg";
const ICONS = {
  liver: '<path d="M2,9 C2,4 8,3 13,4 C17,5 19,6 18,9 C17,13 11,15 6,15 C3,15 2,12 2,9 Z" fill="#8d4a2f"/>',
  kidneys: '<path d="M3,4 C6,2 9,5 8,8 C7,10 8,12 7,14 C5,17 1,14 2,9 C2,7 2,5 3,4 Z M17,4 C14,2 11,5 12,8 C13,10 12,12 13,14 C15,17 19,14 18,9 C18,7 18,5 17,4 Z" fill="#a4508b"/>',
  heart: '<path d="M10,17 C3,12 2,7 5,5 C7,4 9,5 10,7 C11,5 13,4 15,5 C18,7 17,12 10,17 Z" fill="#d62828"/>',
  drain: '<path d="M10,10 m0,-1 a1,1 0 1,1 -1,1 a2,2 0 0,1 2,-3 a3.5,3.5 0 0,1 2.5,4.5 a5,5 0 0,1 -6,3 a6.5,6.5 0 0,1 -3.5,-7 a8,8 0 0,1 9,-5.5" fill="none" stroke="#9cc9ff" stroke-width="1.6"/>',
};
const REASONS = {
  lowest: "the lowest hand", tied_lowest: "tied for the lowest hand",
  tied_with_knocker: "tied for lowest with the knocker", knocker_lowest: "the knocker, and lowest alone",
  31: "someone declared 31", dealt_31: "someone was dealt 31",
};

function icon(kind) {
  const node = document.createElementNS(NS, "svg");
  node.setAttribute("viewBox", "0 0 20 20");
  node.setAttribute("class", "organ-icon");
  node.setAttribute("aria-hidden", "true");
  node.innerHTML = ICONS[kind];
  return node;
}

const value = (v) => (v % 1 ? `${Math.floor(v)}½` : `${v}`);

// A player's lives: the organs left and those gone into the kitty, or the drain, or out.
function lives(obs, seat, ctx) {
  const { el } = ctx;
  if (obs.out.includes(seat)) return el("div", { class: "organs" }, "out of the game");
  const left = obs.organs[seat];
  if (!left.length) return el("div", { class: "organs drain" }, icon("drain"), "circling the drain");
  return el("div", { class: "organs", role: "group", "aria-label": `organs: ${left.join(", ")}` }, ORGANS.map((organ) => {
    const gone = !left.includes(organ);
    return el("span", { class: `organ${gone ? " gone" : ""}`, title: gone ? `${organ}: in the kitty` : organ }, icon(organ), organ);
  }));
}

// A player: lives, badges, and the cards the table knows in their hand.
function seatBox(obs, seat, ctx) {
  const badges = [
    seat === obs.dealer ? badge(ctx, "D", "dealer") : null,
    seat === obs.knocker ? badge(ctx, "knocked") : null,
    obs.declared.includes(seat) ? badge(ctx, "31!", "declared a dealt 31") : null,
  ];
  const lines = [lives(obs, seat, ctx)];
  // (once the game is over the last hand's showdown shows every hand: none half face down)
  if (seat !== ctx.seat && obs.in_hand.includes(seat) && !obs.result) lines.push(otherHand(ctx, obs.known[seat] || [], obs.hand_sizes[seat]));
  return playerBox(ctx, seat, { acting: obs.to_act.includes(seat), out: obs.out.includes(seat), badges }, ...lines);
}

export function render(root, obs, ctx) {
  const { el, clear, cards } = ctx;
  clear(root);
  root.append(el("div", { class: "players" }, Array.from({ length: obs.players }, (_, seat) => seatBox(obs, seat, ctx))));
  root.append(el("div", { class: "muted" }, `Hand ${obs.hand_number}`,
    obs.knocker !== null && !obs.result ? ` · ${ctx.names[obs.knocker]} knocked: ${obs.knocker === ctx.seat ? "the others have" : "everyone else has"} one more turn` : ""));

  // the stock, the discard pile, the kitty
  const draw = ctx.legal.find((item) => item.action.type === "draw");
  const take = ctx.legal.find((item) => item.action.type === "take");
  const stock = cards.back("large", `stock of ${obs.stock_size} cards`);
  stock.dataset.key = "stock";
  if (draw) clickable(stock, draw, ctx, "draw from the stock");
  // The discard pile is squared: only its top card shows, with how many cards it holds.
  const code = obs.discard_top;
  const top = code ? cards.card(code, "large") : el("span", { class: "muted" }, "(empty)");
  if (take && code) { clickable(top, take, ctx, `take ${cards.longName(code)} from the discard pile`); top.dataset.key = "pile"; }
  const pile = spot(ctx, `Discard pile: ${obs.discard_size}`, top);
  pile.classList.add("discard-pile");
  const middle = el("div", { class: "middle" }, el("div", { class: "center" },
    spot(ctx, `Stock: ${obs.stock_size}`, obs.stock_size ? stock : el("span", { class: "muted" }, "(empty)")),
    pile,
    spot(ctx, "Kitty", el("div", { class: "organs", title: "the organs lost so far" }, plural(obs.kitty, "organ")))));
  root.append(middle);

  if (obs.hand) {
    const discards = legalBy(ctx, "discard", (a) => (a.declare ? null : a.card));
    const declares = legalBy(ctx, "discard", (a) => (a.declare ? a.card : null));
    const hand = handRow(ctx);
    for (const code of obs.hand) {
      const face = cards.card(code, "large");
      const item = discards.get(code);
      if (item) clickable(face, item, ctx, `${item.label} (${cards.longName(code)})${item.preview ? `: ${item.preview}` : ""}`);
      if (code === obs.taken) face.classList.add("taken-card");
      const note = item && item.preview ? item.preview : code === obs.taken ? "taken: keep it" : "";
      hand.append(handCard(ctx, face, note, declares.has(code) ? el("strong", {}, " · 31!") : null));
    }
    let score = `${plural(obs.hand.length, "card")}: discard one`;
    if ("value" in obs) {
      score = `Your hand is worth ${value(obs.value)}`;
      if (obs.counts !== obs.value) score += ` (an undeclared 31: it counts ${value(obs.counts)})`;
      else if (obs.value === 31) score += " - THIRTY-ONE!";
    }
    middle.append(el("div", { class: "your-hand" }, el("div", { class: "score", id: "hand-score" }, score), drawHint(ctx, value), hand));
  }
  if (obs.last_hand && !obs.result) {
    const box = el("details", { class: "last-hand" }, el("summary", {}, `How hand ${obs.last_hand.hand} ended`));
    box.append(...lastHand(obs.last_hand, ctx).childNodes);
    root.append(box);
  }
}

// Before a click (manual_31): a discard that throws away a declarable 31, or playing a dealt
// 31 without declaring it.
export function guard(action, ctx) {
  return declareGuard(action, ctx, "a 31", ["play"]);
}

// The last hand settled: the hands shown and who lost which organs.
export function showdown(obs, ctx) {
  if (!obs.last_hand) return null;
  return { key: `hand ${obs.last_hand.hand}`, node: lastHand(obs.last_hand, ctx) };
}

// How the last hand ended: the hands shown and who lost which organs.
function lastHand(last, ctx) {
  const { el, cards } = ctx;
  const name = (seat) => ctx.names[seat];
  const knocker = last.knocker !== null && last.knocker !== undefined ? name(last.knocker) : null;
  const whose = knocker === "You" ? "your" : `${knocker}'s`;
  const declarers = (last.declarers || []).map(name);
  const how = {
    knock: knocker ? `a showdown after ${whose} knock` : "a showdown after a knock",
    stop: knocker ? `the stock running out, after ${whose} knock` : "the stock running out",
    31: declarers.length ? `${declarers.join(" and ")}'s 31`.replace("You's", "your") : "a 31",
    dealt_31: declarers.length ? `a dealt 31 (${declarers.join(" and ")})` : "a dealt 31",
  }[last.ended_by] || last.ended_by;
  const box = el("div", { class: "settlement" }, el("p", {}, `Hand ${last.hand} ended with ${how}.`));
  for (const shown of last.shown) {
    box.append(el("div", { class: "shown" }, el("span", { class: "who" }, name(shown.seat)), cards.row(shown.cards, "small"),
      `${value(shown.value)}${shown.counts !== shown.value ? ` (counts ${value(shown.counts)})` : ""}`));
  }
  for (const loss of last.losses) {
    const organs = loss.organs.length ? `: ${loss.organs.join(" and ")} into the kitty` : "";
    const then = loss.out ? ", out" : loss.circling_the_drain ? ", now circling the drain" : "";
    box.append(el("div", {}, `${name(loss.seat)} ${last.void ? "would lose" : "lost"} ${plural(loss.lives, "life", "lives")} `
      + `(${REASONS[loss.reason] || loss.reason})${last.void ? "" : organs + then}.`));
  }
  for (const seat of last.saved) box.append(el("div", {}, `${name(seat)} knocked and tied for lowest: saved.`));
  if (last.void) box.append(el("div", {}, "That would put everyone out: the hand is void and dealt again."));
  return box;
}

// The end: the last player with a life, and the hand that put the others out.
export function ending(obs, ctx) {
  const last = obs.last_hand;
  return {
    reason: "the last player with a life left",
    moment: last ? ctx.el("div", {}, ctx.el("h3", {}, "The last hand"), lastHand(last, ctx)) : null,
    unit: "The scores are the lives left: each organ (liver, kidneys, heart) is one, and circling the drain the last.",
    score: (seat, value) => livesText(value),
  };
}
