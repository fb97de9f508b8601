// Small pieces the game renderers share: things you click to play, player boxes, piles,
// and a selection of cards that lasts while one decision stands.

// Make `node` play `item` (a legal action) when clicked or when Enter/Space is pressed on it.
export function clickable(node, item, ctx, label) {
  return pressable(node, () => ctx.act(item.action), label || item.label);
}

// A button in the drawing that plays `item`.
export function actButton(ctx, item, text, secondary = false) {
  return ctx.el("button", { type: "button", class: secondary ? "secondary" : null, title: item.label,
    "data-action": JSON.stringify(item.action), onclick: () => ctx.act(item.action) }, text);
}

// Make `node` call `run` when clicked or activated from the keyboard (Enter or Space).
export function pressable(node, run, label) {
  node.classList.add("clickable");
  node.setAttribute("tabindex", "0");
  node.setAttribute("role", "button");
  if (label) node.setAttribute("aria-label", label);
  node.addEventListener("click", run);
  node.addEventListener("keydown", (e) => {
    if (e.key === "Enter" || e.key === " ") { e.preventDefault(); run(); }
  });
  return node;
}

// A card of your hand with a line under it (what discarding it keeps, "new", "chosen").
export function handCard(ctx, face, ...caption) {
  return ctx.el("div", { class: "hand-card" }, face, ctx.el("div", { class: "caption" }, ...caption));
}

// Your hand: a row of cards the digit keys pick from (shortcuts.js), labelled for readers.
export function handRow(ctx, label = "Your hand") {
  return ctx.el("div", { class: "cards hand", role: "group", "aria-label": label, "data-keys": "hand" });
}

// Thirty-Two's and Thirty-One's question before a click that throws a declarable hand away:
// the discard of `action` leaves a hand that could be declared with it (the same discard
// with declare: true is legal), or the player would play on (`instead`) holding one.
export function declareGuard(action, ctx, what, instead) {
  const legal = ctx.legal.filter((item) => item.action);
  if (action.type === "discard" && !action.declare) {
    const declare = legal.find((i) => i.action.type === "discard" && i.action.card === action.card && i.action.declare);
    if (declare) {
      return {
        text: `Discarding ${action.card} leaves ${what}${declare.preview ? ` (${declare.preview})` : ""}. Declare it now? `
          + "Discarding without declaring throws that away.",
        choices: [{ label: `Declare ${what}`, action: declare.action }, { label: "Discard anyway", action }],
      };
    }
  }
  const declare = legal.find((i) => i.action.type === "declare");
  if (declare && instead.includes(action.type)) {
    return {
      text: `You hold ${what}. Declare it now instead of "${action.type}"?`,
      choices: [{ label: `Declare ${what}`, action: declare.action }, { label: `${action.type[0].toUpperCase()}${action.type.slice(1)} anyway`, action }],
    };
  }
  return null;
}

// The legal actions of one type, by a key made of the action (e.g. its card).
export function legalBy(ctx, type, key) {
  const found = new Map();
  for (const item of ctx.legal) if (item.action && item.action.type === type) found.set(key(item.action), item);
  return found;
}

// The legal entry that is a pattern of actions of one type (many actions in one: see
// docs/protocol.md), or null.
export function patternOf(ctx, type) {
  return ctx.legal.find((item) => item.pattern && item.pattern.action.type === type) || null;
}

// The action a pattern entry stands for with `items` chosen (put in the pattern's order),
// or null unless they are `pick` different items of its `from`.
export function fromPattern(entry, items) {
  const { action, field, pick, from } = entry.pattern;
  const at = items.map((item) => from.indexOf(item));
  if (at.length !== pick || at.includes(-1) || new Set(at).size !== pick) return null;
  return { ...action, [field]: at.sort((a, b) => a - b).map((i) => from[i]) };
}

export function plural(n, word, many = `${word}s`) {
  return `${n} ${n === 1 ? word : many}`;
}

// "Ann", "Ann and Bob", "Ann, Bob and you" (the viewer's own "You" inside a sentence).
export function joined(names) {
  const words = names.map((n, i) => (i > 0 && n === "You" ? "you" : n));
  return words.length > 1 ? `${words.slice(0, -1).join(", ")} and ${words.at(-1)}` : words[0] || "";
}

// "has"/"have" for a name ("You have").
export function has(name) { return name === "You" ? "have" : "has"; }

export function badge(ctx, text, title) {
  return ctx.el("span", { class: "badge", title }, text);
}

// A player's box: name with badges, then the given lines.
export function playerBox(ctx, seat, { acting = false, out = false, badges = [] }, ...lines) {
  const { el } = ctx;
  return el("div", { class: `player${acting ? " acting" : ""}${out ? " out" : ""}`, "data-seat": seat },
    el("div", { class: "name" }, ctx.names[seat], ...badges, acting ? badge(ctx, "to act") : null),
    ...lines);
}

// A hand the viewer may not see: the cards the whole table knows in it, then backs.
export function otherHand(ctx, known, size) {
  const hand = ctx.el("div", { class: "cards" });
  for (const code of known) hand.append(ctx.cards.card(code, "small"));
  for (let i = known.length; i < size; i++) hand.append(ctx.cards.back("small"));
  return hand;
}

// At a table with hints (Thirty-One, Thirty-Two), before you draw or take: what a stock draw
// and the face-up card would make of your hand, from the cards you know; else null.
export function drawHint(ctx, format = (v) => `${v}`) {
  const hints = ctx.hints || {};
  const parts = [];
  if (hints.draw) {
    const { value, unseen, improve, mean } = hints.draw;
    parts.push(`a draw improves your ${format(value)} with ${improve} of ${unseen} unseen cards (${mean.toFixed(2)} on average)`);
  }
  if (hints.take) parts.push(`taking ${hints.take.card} makes ${format(hints.take.value)}`);
  if (!parts.length) return null;
  return ctx.el("div", { class: "hint draw-hint", id: "draw-hint" }, `Hint: ${parts.join("; ")}.`);
}

// A labelled spot on the table (the stock, a pile...).
export function spot(ctx, label, ...content) {
  return ctx.el("div", { class: "spot" }, ctx.el("div", { class: "pile-label" }, label), ...content);
}

// Cards picked by clicking (to lay face up, to discard...), kept while `key` is unchanged.
export class Selection {
  constructor() { this.key = null; this.picked = []; }
  // The indexes picked for this decision (forgotten when the decision changed).
  for(key) {
    if (key !== this.key) { this.key = key; this.picked = []; }
    return this.picked;
  }
  // Pick or unpick; past `most` picks the oldest is let go.
  toggle(index, most = Infinity) {
    const at = this.picked.indexOf(index);
    if (at >= 0) this.picked.splice(at, 1); else this.picked.push(index);
    if (this.picked.length > most) this.picked.shift();
  }
}
