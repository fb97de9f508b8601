// Thirty-Two at the table: players with counters and known cards, the stock and the
// discard pile (squared: its top card and size), your hand with its score.  In the discard phase your cards are the
// discard buttons.  Built only from the observation the server sent to this seat.
import { clickable, otherHand } from "/static/games/parts.js";

export function render(root, obs, ctx) {
  const { el, clear, cards } = ctx;
  clear(root);
  const players = el("div", { class: "players" });
  for (let seat = 0; seat < obs.players; seat++) {
    const out = obs.out.includes(seat);
    const sitting = !out && !obs.in_hand.includes(seat);
    const acting = obs.to_act.includes(seat);
    const box = el("div", { class: `player${acting ? " acting" : ""}${out ? " out" : ""}`, "data-seat": seat },
      el("div", { class: "name" }, ctx.names[seat],
        seat === obs.dealer ? el("span", { class: "badge", title: "dealer" }, "D") : null,
        seat === obs.knocker ? el("span", { class: "badge", title: "knocked" }, "knocked") : null,
        acting ? el("span", { class: "badge" }, "to act") : null),
      el("div", {}, `${obs.counters[seat]} counter${obs.counters[seat] === 1 ? "" : "s"}`,
        out ? " · out" : sitting ? " · sits out" : ""));
    if (seat !== obs.seat && !out && !sitting) box.append(otherHand(ctx, obs.known[seat] || [], obs.hand_sizes[seat]));
    players.append(box);
  }
  root.append(players);

  const head = el("div", { class: "muted" }, `Hand ${obs.hand_number}${obs.playoff ? " (playoff)" : ""}`);
  root.append(head);
  // The discard pile is squared: only its top card shows, with how many cards it holds.
  const top = obs.discard_top;
  const center = el("div", { class: "center" },
    el("div", {}, el("div", { class: "pile-label" }, `Stock: ${obs.stock_size}`), cards.back("large", `stock of ${obs.stock_size} cards`)),
    el("div", { class: "discard-pile" }, el("div", { class: "pile-label" }, `Face up · discard pile: ${obs.discard_size}`),
      top ? cards.card(top, "large") : el("span", { class: "muted" }, "(empty)")));
  root.append(center);

  if (obs.hand) {
    const discards = new Map();
    for (const item of ctx.legal) {
      if (item.action.type === "discard" && !item.action.declare) discards.set(item.action.card, item);
    }
    const hand = el("div", { class: "cards", "aria-label": "Your hand" });
    for (const code of obs.hand) {
      const face = cards.card(code, "large");
      const item = discards.get(code);
      if (item) clickable(face, item, ctx, `${item.label} (${cards.longName(code)})`);
      if (code === obs.taken) face.style.opacity = "0.8";
      hand.append(face);
    }
    const score = "score" in obs
      ? `Your hand scores ${obs.score}${obs.thirty_two ? " - a Thirty-two!" : ""} · ${obs.wilds} wild${obs.wilds === 1 ? "" : "s"}`
      : `${obs.wilds} wild${obs.wilds === 1 ? "" : "s"} · choose a card to discard${obs.taken ? ` (keep ${obs.taken})` : ""}`;
    root.append(el("div", {}, el("div", { class: "score", id: "hand-score" }, score), hand));
  }
}
