// Thirty-Two at the table: players with counters and known cards, the stock (click it to
// draw) and the discard pile (squared: its top card, which a click takes, and its size), your
// hand with its score; in the discard phase your cards are the discard buttons, each with the
// score it keeps.  A discard that would throw away a declarable Thirty-two asks first.  The
// last hand's showdown (hands, scores, who paid whom) is held on screen after each hand and
// shown at the end.  Built only from the observation the server sent to this seat.
import { badge, clickable, declareGuard, drawHint, handCard, handRow, has, joined, legalBy, otherHand, playerBox, plural, spot } from "/static/games/parts.js";

export function render(root, obs, ctx) {
  const { el, clear, cards } = ctx;
  clear(root);
  const players = el("div", { class: "players" });
  for (let seat = 0; seat < obs.players; seat++) {
    const out = obs.out.includes(seat);
    const sitting = !out && !obs.in_hand.includes(seat);
    const badges = [
      seat === obs.dealer ? badge(ctx, "D", "dealer") : null,
      seat === obs.knocker ? badge(ctx, "knocked") : null,
    ];
    const lines = [el("div", {}, plural(obs.counters[seat], "counter"), out ? " · out" : sitting ? " · sits out" : "")];
    if (seat !== obs.seat && !out && !sitting && !obs.result) lines.push(otherHand(ctx, obs.known[seat] || [], obs.hand_sizes[seat]));
    players.append(playerBox(ctx, seat, { acting: obs.to_act.includes(seat), out, badges }, ...lines));
  }
  root.append(players);

  root.append(el("div", { class: "muted" }, `Hand ${obs.hand_number}${obs.playoff ? " (playoff)" : ""}`,
    obs.knocker !== null && obs.turn !== null ? ` · ${ctx.names[obs.knocker]} knocked: one more turn each` : ""));
  const draw = ctx.legal.find((item) => item.action && item.action.type === "draw");
  const take = ctx.legal.find((item) => item.action && item.action.type === "take");
  const stock = cards.back("large", `stock of ${obs.stock_size} cards`);
  stock.dataset.key = "stock";
  if (draw) clickable(stock, draw, ctx, "draw from the stock");
  // The discard pile is squared: only its top card shows, with how many cards it holds.
  const top = obs.discard_top;
  const face = top ? cards.card(top, "large") : el("span", { class: "muted" }, "(empty)");
  if (take && top) { clickable(face, take, ctx, `take ${cards.longName(top)} from the discard pile`); face.dataset.key = "pile"; }
  const pile = spot(ctx, `Face up · discard pile: ${obs.discard_size}`, face);
  pile.classList.add("discard-pile");
  const middle = el("div", { class: "middle" }, el("div", { class: "center" }, spot(ctx, `Stock: ${obs.stock_size}`, stock), pile));

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
      hand.append(handCard(ctx, face, note, declares.has(code) ? el("strong", {}, " · Thirty-two!") : null));
    }
    const score = "score" in obs
      ? `Your hand scores ${obs.score}${obs.thirty_two ? " - a Thirty-two!" : ""} · ${plural(obs.wilds, "wild")}`
      : `${plural(obs.wilds, "wild")} · discard one: each card says what the others keep`;
    middle.append(el("div", { class: "your-hand" }, el("div", { class: "score", id: "hand-score" }, score), drawHint(ctx), hand));
  }
  root.append(middle);
  if (obs.last_hand && !obs.result) {
    root.append(el("details", { class: "last-hand" }, el("summary", {}, `How hand ${obs.last_hand.hand} ended`), settlement(obs.last_hand, ctx)));
  }
}

// Before a click: a discard that throws away a declarable Thirty-two, or a knock holding one.
export function guard(action, ctx) {
  return declareGuard(action, ctx, "a Thirty-two", ["knock"]);
}

// The last hand settled: the hands shown with their scores, and who paid whom.
export function showdown(obs, ctx) {
  if (!obs.last_hand) return null;
  return { key: `hand ${obs.last_hand.hand}`, node: settlement(obs.last_hand, ctx) };
}

function settlement(last, ctx) {
  const { el, cards } = ctx;
  const name = (seat) => ctx.names[seat];
  const how = last.ended_by === "knock"
    ? `${name(last.knocker)} knocked and ${last.knocker_won ? "beat everyone" : "tied or lost"}`
    : `${name(last.declarer)} declared a Thirty-two`;
  const box = el("div", { class: "settlement" }, el("p", {}, `Hand ${last.hand}: ${how}.`));
  for (const shown of last.shown) {
    box.append(el("div", { class: "shown" }, el("span", { class: "who" }, name(shown.seat)), cards.row(shown.cards, "small"),
      `${shown.score} points, ${plural(shown.wilds, "wild")}`));
  }
  if (last.mucked.length) box.append(el("div", { class: "muted" }, `Not shown: ${joined(last.mucked.map(name)).replace(/^You\b/, "you")}`));
  for (const cut of last.cuts) box.append(el("div", { class: "muted" }, `${name(cut.seat)} cut ${cut.card} for the order of payment`));
  const paid = el("ul", { class: "payments" });
  for (const p of last.payments) {
    const short = p.paid < p.due ? ` (all ${p.from === ctx.seat ? "you" : "they"} had)` : "";
    // the amount before the payee: "Medium bot 1 pays 3 counters to Medium bot 3"
    const to = p.to === ctx.seat ? "you" : name(p.to);
    const amount = p.paid < p.due ? `${p.paid} of the ${plural(p.due, "counter")} due` : plural(p.paid, "counter");
    paid.append(el("li", {}, `${name(p.from)} ${p.from === ctx.seat ? "pay" : "pays"} ${amount} to ${to}${short}`));
  }
  if (last.payments.length) box.append(paid);
  box.append(el("div", {}, "Counters now: ", last.counters.map((n, seat) => `${name(seat)}: ${n}`).join(" · ")));
  for (const seat of last.eliminated) box.append(el("div", {}, `${name(seat)} ${seat === ctx.seat ? "have" : "has"} no counters left: out.`));
  return box;
}

// The end: who ran out of counters, who holds the most, and the last hand as it was settled.
export function ending(obs, ctx) {
  const name = (seat) => ctx.names[seat];
  const winners = obs.result ? obs.result.winners : [];
  const last = obs.last_hand;
  const gone = last ? last.eliminated : [];
  let reason = null;
  if (winners.length === 1) {
    const most = plural(obs.counters[winners[0]], "counter");
    const who = name(winners[0]);
    reason = gone.length
      ? `${joined(gone.map(name))} ran out of counters, and ${who === "You" ? "you" : who} ${has(who)} the most left (${most})`
      : `${who === "You" ? "you" : who} ${has(who)} the most counters (${most})`;
  }
  return {
    reason,
    moment: last ? ctx.el("div", {}, ctx.el("h3", {}, "The last hand"), settlement(last, ctx)) : null,
    unit: "The scores are the counters each player has left; the most wins.",
    score: (seat, value) => `${plural(value, "counter")}${obs.out.includes(seat) ? " (out)" : ""}`,
  };
}
