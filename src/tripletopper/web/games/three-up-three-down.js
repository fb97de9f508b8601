// 3UP 3DOWN at the table: every player's 3UP cards lying on their 3DOWN cards, hand sizes and
// the cards the table knows to be in a hand; the pile (its top cards and the run of equal
// values), the stock and the cleared cards; your own cards.  Click a card of your hand (or of
// your 3UP cards when you play those) to play one card of that value, a 3DOWN card to flip
// it, the pile to pick it up, the stock to draw before an extra play; several cards of one
// value are the page's buttons.  At the start, click three of your six cards to lay them face
// up: picked cards rise, get a thick outline and say "chosen".  At a table with hints, the
// cards you could play on the pile as it lies are marked "playable", turn or not.  Built only
// from the observation the server sent to this seat.
import { actButton, badge, clickable, handCard, handRow, legalBy, playerBox, plural, pressable, Selection, spot } from "/static/games/parts.js";
import { icon } from "/static/icons.js";

const VALUE = /^(10|[1-9]|C\+[12]|C)[RGB]/;
const chosen = new Selection();

// The page lists several cards of a value, pickups and draws; one card is played by clicking
// it, and the (up to twenty) choices are made by clicking the cards.
export function buttons(legal) {
  return legal.filter((item) => item.action.type !== "choose" && !(item.action.type === "play" && item.action.cards.length === 1));
}

const valueOf = (code) => VALUE.exec(code)[1];

// What the table knows of the cards nobody saw in a hand, in words: "3 unseen cards are 9
// or lower" (the player once had to pick up the pile, so none of them could beat its top).
const AT_MOST_WHY = "This player had to pick up the pile: none of the cards they held could beat its top card.";
function atMost(bounds) {
  const groups = new Map();
  for (const bound of bounds) groups.set(bound, (groups.get(bound) || 0) + 1);
  const parts = [...groups].map(([bound, n]) => `${n === 1 ? "1 unseen card is" : `${n} unseen cards are`} ${bound} or lower`);
  return `${parts.join("; ")} (they could not beat the pile).`;
}
const ORDINALS = ["1st", "2nd", "3rd", "4th", "5th", "6th"];

export function render(root, obs, ctx) {
  const { el, clear, cards } = ctx;
  clear(root);
  const me = ctx.seat;
  const choosing = obs.phase === "choose";

  // the players
  const players = el("div", { class: "players" });
  obs.seats.forEach((info, seat) => {
    const place = obs.finished.indexOf(seat);
    const badges = [
      seat === obs.dealer ? badge(ctx, "D", "dealer") : null,
      place >= 0 ? badge(ctx, `${ORDINALS[place]} place`, "played every card") : null,
      choosing ? badge(ctx, info.chosen ? "chosen" : "choosing") : null,
    ];
    const lines = [el("div", {}, `${plural(info.hand_size, "card")} in hand · ${info.down} face down`)];
    if (seat !== me) {
      if (info.known.length || info.hidden_at_most.length) {
        // every pickup adds to what is known of a hand: one overlapping row, however many
        lines.push(el("div", { class: "pile-label" }, "in hand:"),
          el("div", { class: "cards known" }, info.known.map((c) => el("span", { class: "known-card" }, cards.card(c, "small")))),
          info.hidden_at_most.length ? el("div", { class: "muted at-most", title: AT_MOST_WHY }, atMost(info.hidden_at_most)) : null);
      }
      // their 3UP cards (the 3DOWN ones are counted above)
      if ((info.up || []).length) lines.push(tableCards({ up: info.up, down: 0 }, ctx, "small", el("span", { class: "pile-label" }, "3UP:")));
    }
    // going out is winning (or placing): the box is marked done, never struck through
    const box = playerBox(ctx, seat, { acting: obs.to_act.includes(seat), badges }, ...lines);
    if (place >= 0) box.classList.add("done");
    players.append(box);
  });
  root.append(players);

  // the middle of the table
  const pickup = ctx.legal.find((item) => item.action.type === "pickup");
  const draw = ctx.legal.find((item) => item.action.type === "draw");
  const stock = obs.stock_size ? cards.back("", `stock of ${obs.stock_size} cards`) : el("div", { class: "muted" }, "(empty)");
  stock.dataset.key = "stock";
  if (draw) clickable(stock, draw, ctx, "draw a card before your extra play");
  const pile = el("div", { class: "cards fan", role: "group", "aria-label": `the pile: ${plural(obs.pile_size, "card")}`, "data-key": "pile" },
    obs.pile.slice(-5).map((code) => cards.card(code)));
  if (!obs.pile.length) pile.append(el("span", { class: "muted small-note" }, "(empty: anything goes)"));
  if (pickup) clickable(pile, pickup, ctx, "pick up the pile");
  const run = obs.top ? `top ${obs.top}${obs.run > 1 ? `, ${obs.run} in a row` : ""}` : "";
  const middle = el("div", { class: "middle" }, el("div", { class: "center" },
    spot(ctx, `Stock: ${obs.stock_size}`, stock),
    spot(ctx, `Pile: ${obs.pile_size}${run ? ` · ${run}` : ""}`, pile),
    spot(ctx, `Cleared: ${obs.cleared.length}`, obs.cleared.length
      ? el("details", {}, el("summary", {}, "out of the game"), cards.row(obs.cleared, "small")) : null)));
  root.append(middle);

  const notes = [];
  if (obs.extra_plays) notes.push(`${plural(obs.extra_plays, "extra play")} to make${obs.may_draw ? " (you may draw one card first)" : ""}.`);
  if (pickup && ctx.legal.length === 1 + (draw ? 1 : 0)) notes.push("You cannot play: click the pile to pick it up.");
  if (obs.result) notes.push("Game over.");
  if (notes.length) root.append(el("div", { class: "status-line" }, notes.join(" ")));

  if (me !== null && obs.hand) {
    const [table, hand] = yourCards(obs, ctx, () => render(root, obs, ctx));
    middle.append(table);
    root.append(hand);
  }
}

// 3UP cards face up on the 3DOWN ones.
function tableCards(info, ctx, size, label, clickUp, flip) {
  const { el, cards } = ctx;
  const row = el("div", { class: "cards labelled", role: "group", "aria-label": "3UP and 3DOWN cards" }, label);
  if (clickUp) row.dataset.keys = "hand";  // played from next: the digit keys pick them
  for (const code of info.up || []) {
    const face = cards.card(code, size);
    if (clickUp) clickUp(face, code);
    row.append(face);
  }
  for (let i = 0; i < info.down; i++) {
    const down = cards.back(size, "a 3DOWN card");
    if (flip && i === 0) { clickable(down, flip, ctx, "flip your next 3DOWN card"); down.dataset.key = "down"; }
    down.classList.add("down");
    row.append(down);
  }
  return row;
}

function yourCards(obs, ctx, redraw) {
  const { el, cards } = ctx;
  const info = obs.seats[ctx.seat];
  const singles = legalBy(ctx, "play", (a) => (a.cards.length === 1 ? a.cards[0] : null));
  const playOne = (face, code) => {
    const item = singles.get(valueOf(code));
    if (item) clickable(face, item, ctx, `${item.label} (${cards.longName(code)})`);
  };
  const box = el("div", { class: "your-cards" });
  const flip = ctx.legal.find((item) => item.action.type === "flip");
  const table = el("div", { class: "spot" }, el("div", { class: "pile-label" }, "Your 3UP and 3DOWN cards"),
    tableCards(info, ctx, "", null, obs.playing_from === "3UP" ? playOne : null, flip));

  const hand = obs.playing_from === "hand" || obs.phase === "choose" ? handRow(ctx) : el("div", { class: "cards hand", role: "group", "aria-label": "Your hand" });
  const playable = new Set((ctx.hints && ctx.hints.playable) || []);
  if (obs.phase === "choose") {
    const picks = chosen.for(obs.hand.join());
    const choices = ctx.legal.filter((item) => item.action.type === "choose");
    obs.hand.forEach((code, i) => {
      const face = cards.card(code, "large");
      const on = picks.includes(i);
      if (choices.length) {
        pressable(face, () => { chosen.toggle(i, 3); redraw(); }, `${cards.longName(code)}: ${on ? "chosen (press to unpick)" : "pick to lay face up"}`);
        face.setAttribute("aria-pressed", String(on));
        face.dataset.key = `choose-${i}`;
        if (on) face.classList.add("picked");
      }
      hand.append(handCard(ctx, face, on ? el("span", { class: "chosen" }, icon("check"), "chosen") : ""));
    });
    const wanted = picks.map((i) => valueOf(obs.hand[i])).sort().join(" ");
    const choice = picks.length === 3 && choices.find((item) => [...item.action.cards].sort().join(" ") === wanted);
    let lay = null;
    if (choice) { lay = actButton(ctx, choice, "Lay these three face up"); lay.dataset.key = "lay"; }
    box.append(el("div", { class: "actions-inline" }, choices.length
      ? (lay || `Pick three cards to lay face up (${picks.length} of 3).`)
      : "Waiting for the others to choose."));
  } else {
    const size = obs.hand.length > 7 ? "" : "large";  // a big hand in smaller cards
    for (const code of obs.hand) {
      const face = cards.card(code, size);
      if (obs.playing_from === "hand") playOne(face, code);
      hand.append(handCard(ctx, face, playable.has(code) ? el("span", { class: "playable" }, icon("check"), "playable") : ""));
    }
  }
  box.append(el("div", { class: "score" }, `Your hand: ${plural(obs.hand.length, "card")}`), hand);
  return [table, box];
}

// The end: the first player to play every card (or, at the turn limit, the fewest left).
export function ending(obs, ctx) {
  const first = obs.finished.length > 0;
  const place = (seat) => obs.finished.indexOf(seat);
  return {
    reason: first ? "the first to play every card" : "the turn limit was reached: the fewest cards left win",
    moment: null,  // the last plays, from the narration
    unit: "The scores are the cards each player still held; the fewest wins, and going out first wins outright.",
    score: (seat, value) => (place(seat) >= 0 ? `${ORDINALS[place(seat)]} to go out` : plural(value, "card left", "cards left")),
  };
}
