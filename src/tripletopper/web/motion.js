// Cards that move.  Before the table is redrawn, where every card is (by its data-card code)
// and where the stock, the pile and each player's box are, is noted; after, each card that is
// somewhere else now travels from where it was (FLIP with the Web Animations API), a card new
// to the page comes from where the update's events say (a draw from the stock, a take from
// the pile, another player's play from their box), a card just turned face up turns over, a
// Toe mark pops into its cell, and another player's face-down draw is a card back flying from
// the stock to their box.  Short (MOVE_MS), interruptible (a new update finishes the last one
// at once) and paced: updates that come while cards move wait their turn, so the moves of
// bots are seen one after another.  With prefers-reduced-motion nothing moves and updates
// show at once.  document.body.dataset.animations counts the animations started (tests read it).

export const MOVE_MS = 260;
const reduced = window.matchMedia("(prefers-reduced-motion: reduce)");
const running = new Set();

export function enabled() { return !reduced.matches; }

function count(animation) {
  running.add(animation);
  animation.addEventListener("finish", () => running.delete(animation));
  animation.addEventListener("cancel", () => running.delete(animation));
  document.body.dataset.animations = String(Number(document.body.dataset.animations || 0) + 1);
  return animation;
}

// Finish whatever is moving now (a new update is to be drawn).
export function finishAll() {
  for (const animation of [...running]) animation.finish();
}

function rectOf(node) {
  const r = node.getBoundingClientRect();
  return r.width || r.height ? r : null;
}

// Where things are before a redraw: cards by code, and the anchors cards come from.
export function snapshot(root) {
  if (!enabled()) return null;
  const cards = new Map();
  const anchors = new Map();
  for (const node of root.querySelectorAll("[data-card]")) {
    const rect = rectOf(node);
    if (rect && !cards.has(node.dataset.card)) cards.set(node.dataset.card, rect);
  }
  for (const node of root.querySelectorAll("#game [data-key='stock'], #game [data-key='pile'], #game .discard-pile, #game [data-seat]")) {
    const rect = rectOf(node);
    if (!rect) continue;
    const key = node.dataset.seat !== undefined ? `seat-${node.dataset.seat}` : node.dataset.key || "pile";
    if (!anchors.has(key)) anchors.set(key, rect);
  }
  const marks = new Map();
  for (const cell of root.querySelectorAll("#game [data-cell][data-mark]")) marks.set(cell.dataset.cell, cell.dataset.mark);
  return { cards, anchors, marks };
}

const travel = (node, dx, dy, scale = 1) => count(node.animate(
  [{ transform: `translate(${dx}px, ${dy}px) scale(${scale})` }, { transform: "none" }],
  { duration: MOVE_MS, easing: "cubic-bezier(.2,.7,.3,1)" }));

function from(node, rect) {
  const now = rectOf(node);
  if (!now || !rect) return false;
  const dx = rect.left - now.left;
  const dy = rect.top - now.top;
  if (Math.abs(dx) < 2 && Math.abs(dy) < 2) return false;
  travel(node, dx, dy, Math.max(0.4, Math.min(2.5, rect.width / now.width)));
  return true;
}

// The events' word on a card new to the page: where it came from.
const TAKEN_FROM_STOCK = new Set(["drew", "took_all"]);
const TAKEN_FROM_PILE = new Set(["took", "picked_up"]);
const TURNED_UP = new Set(["flipped", "declared", "revealed"]);

function origin(code, events, before, mySeat) {
  for (const e of events) {
    const named = e.card === code || (Array.isArray(e.cards) && e.cards.includes(code))
      || (e.flipped_card === code);
    if (!named) continue;
    if (TURNED_UP.has(e.type) || (e.type === "played" && e.from === "3DOWN")) return { turn: true };
    if (TAKEN_FROM_STOCK.has(e.type)) return { rect: before.anchors.get("stock") };
    if (TAKEN_FROM_PILE.has(e.type)) return { rect: before.anchors.get("pile") };
    if (e.seat !== undefined && e.seat !== mySeat) return { rect: before.anchors.get(`seat-${e.seat}`) };
  }
  return null;
}

// After a redraw: move what moved.  Returns how long the motion lasts (0: nothing moves).
export function play(before, root, events, mySeat) {
  if (!before || !enabled()) return 0;
  let moved = 0;
  const seen = new Set();
  for (const node of root.querySelectorAll("[data-card]")) {
    const code = node.dataset.card;
    if (seen.has(code)) continue;  // a card drawn twice (large and in the grid) moves once
    seen.add(code);
    if (before.cards.has(code)) {
      if (from(node, before.cards.get(code))) moved += 1;
      continue;
    }
    const whence = origin(code, events, before, mySeat);
    if (!whence) continue;
    if (whence.turn) {
      count(node.animate([{ transform: "scaleX(0.05)" }, { transform: "none" }], { duration: MOVE_MS, easing: "ease-out" }));
      moved += 1;
    } else if (from(node, whence.rect)) moved += 1;
  }
  for (const cell of root.querySelectorAll("#game [data-cell][data-mark]")) {
    const was = before.marks.get(cell.dataset.cell);
    if (was === "." && cell.dataset.mark !== ".") {
      count(cell.animate([{ transform: "scale(0.3)", opacity: 0.2 }, { transform: "none", opacity: 1 }],
        { duration: MOVE_MS, easing: "cubic-bezier(.3,1.4,.5,1)" }));
      moved += 1;
    }
  }
  for (const e of events) {  // another player's face-down draw: a back flies to their box
    if (e.type !== "drew" || e.seat === mySeat || e.card || e.cards) continue;
    if (ghost(before.anchors.get("stock"), before.anchors.get(`seat-${e.seat}`))) moved += 1;
  }
  return moved ? MOVE_MS : 0;
}

function ghost(start, end) {
  if (!start || !end) return false;
  const node = document.createElement("div");
  node.className = "ghost-card";
  node.setAttribute("aria-hidden", "true");
  Object.assign(node.style, { left: `${start.left}px`, top: `${start.top}px`, width: `${start.width}px`, height: `${start.height}px` });
  document.body.append(node);
  const dx = end.left + end.width / 2 - (start.left + start.width / 2);
  const dy = end.top + end.height / 2 - (start.top + start.height / 2);
  const animation = count(node.animate(
    [{ transform: "none", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) scale(.4)`, opacity: 0.2 }],
    { duration: MOVE_MS, easing: "ease-in" }));
  const gone = () => node.remove();
  animation.addEventListener("finish", gone);
  animation.addEventListener("cancel", gone);
  return true;
}

// Updates in order, each shown when the last one's motion is over.  `show(message, animate)`
// draws one (moving its cards if `animate`) and returns how long its motion lasts.  An urgent
// message (a full state, a timed phase that may ask this player to race) is shown at once,
// with those still waiting before it.
export class Pacer {
  constructor(show) {
    this.show = show;
    this.queue = [];
    this.timer = null;
    // a hidden tab's timers are slowed to a tick a second: it shows every update at once
    document.addEventListener("visibilitychange", () => { if (document.hidden) this.flush(); });
  }

  // Newer updates wait: the one on the page is not the newest (its moves are not to be made).
  // (document.body.dataset.pending: how many wait, for tests)
  get waiting() { return this.queue.length > 0; }

  push(message, urgent = false) {
    this.queue.push(message);
    document.body.dataset.pending = String(this.queue.length);
    if (urgent || !enabled() || document.hidden) this.flush();
    else if (this.timer === null) this.next();
  }

  next() {
    const message = this.queue.shift();
    document.body.dataset.pending = String(this.queue.length);
    if (!message) { this.timer = null; return; }
    let lasts = 0;
    try {
      lasts = this.show(message, this.queue.length <= 3);  // far behind: catch up, still
    } finally {  // a drawing that failed never stops the updates after it
      this.timer = setTimeout(() => { this.timer = null; this.next(); }, lasts ? lasts + 40 : 0);
    }
  }

  flush() {
    if (!this.queue.length) return;
    clearTimeout(this.timer);
    this.timer = null;
    finishAll();
    const all = this.queue.splice(0);
    document.body.dataset.pending = "0";
    all.forEach((message, i) => this.show(message, i === all.length - 1));
  }
}
