// Cards as SVG, drawn from the card's data, never from a picture of it.
//
// A Triple Topper card (notation "RC1": color R Y G B K, shape C H T S B, number 1-4 or ?)
// shows its shape filled in its color, the number in two corners and the color's letter,
// and each color also has its own fill pattern (solid, dots, stripes, diagonal, checks),
// so a card is readable without color vision.  Standard cards ("10H", "QS") show rank and
// suit symbol.  3UP 3DOWN cards ("7R1", "C+1G2": value, color, copy) show their value,
// and the three Clears a burst with "CLEAR" (colors mean nothing in play: a letter shows
// it).  Every card has an aria-label and a tooltip with its long name.

const NS = "http://www.w3.org/2000/svg";
const COLORS = {
  R: ["red", "#d62828", "solid"], Y: ["yellow", "#e9b000", "dots"],
  G: ["green", "#2b9348", "stripes"], B: ["blue", "#1f5fbf", "diagonal"],
  K: ["black", "#222222", "checks"],
};
const SHAPES = { C: "circle", H: "heart", T: "triangle", S: "square", B: "blob" };
const SUITS = { C: ["clubs", "#222"], D: ["diamonds", "#c62828"], H: ["hearts", "#c62828"], S: ["spades", "#222"] };
// Suit symbols drawn as paths in a 16 x 16 box (never font glyphs, which a font may lack).
const SUIT_PATHS = {
  C: "M8 1.8a2.9 2.9 0 0 1 2.2 4.8 2.9 2.9 0 1 1-1.5 4.9L9.6 14.5H6.4l.9-3a2.9 2.9 0 1 1-1.5-4.9A2.9 2.9 0 0 1 8 1.8z",
  D: "M8 1.5 13 8 8 14.5 3 8z",
  H: "M8 14C2.5 10 1.5 6.5 3.5 4.5 5 3 7 3.6 8 5.3 9 3.6 11 3 12.5 4.5 14.5 6.5 13.5 10 8 14z",
  S: "M8 1.5C5 5 2 7 2 9.5 2 11.5 4 12.5 6 11.5L5.2 14.5h5.6L10 11.5c2 1 4 0 4-2C14 7 11 5 8 1.5z",
};

// A suit symbol of `size` units centred on (cx, cy).
function suit(letter, cx, cy, size) {
  const scale = size / 16;
  return svg("path", { d: SUIT_PATHS[letter], fill: SUITS[letter][1],
    transform: `translate(${cx - size / 2},${cy - size / 2}) scale(${scale})` });
}
const RANKS = { J: "jack", Q: "queen", K: "king", A: "ace" };
const TT = /^[RYGBK][CHTSB][1-4?]$/;
const THREE_UP = /^(10|[1-9]|C\+[12]|C)([RGB])([1-9])$/;
const THREE_UP_COLORS = { R: ["red", "#c62828"], G: ["green", "#2b9348"], B: ["blue", "#1f5fbf"] };
const CLEARS = { C: "Clear", "C+1": "Clear+1", "C+2": "Clear+2" };

function svg(tag, attrs = {}) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

let defsReady = false;
function ensureDefs() {
  if (defsReady) return;
  defsReady = true;
  const holder = svg("svg", { width: 0, height: 0, "aria-hidden": "true" });
  holder.style.position = "absolute";
  const defs = svg("defs");
  for (const [letter, [, hex, kind]] of Object.entries(COLORS)) {
    const p = svg("pattern", { id: `tt-fill-${letter}`, width: 8, height: 8, patternUnits: "userSpaceOnUse" });
    p.append(svg("rect", { width: 8, height: 8, fill: hex, opacity: kind === "solid" ? 1 : 0.35 }));
    if (kind === "dots") p.append(svg("circle", { cx: 4, cy: 4, r: 2.2, fill: hex }));
    if (kind === "stripes") p.append(svg("rect", { width: 8, height: 3.5, fill: hex }));
    if (kind === "diagonal") p.append(svg("path", { d: "M-2,10 L10,-2 M-2,2 L2,-2 M6,10 L10,6", stroke: hex, "stroke-width": 3 }));
    if (kind === "checks") {
      p.append(svg("rect", { width: 4, height: 4, fill: hex }));
      p.append(svg("rect", { x: 4, y: 4, width: 4, height: 4, fill: hex }));
    }
    defs.append(p);
  }
  holder.append(defs);
  document.body.prepend(holder);
}

function shapePath(shape) {
  // centred on (30, 42), about 30 units wide
  switch (shape) {
    case "C": return svg("circle", { cx: 30, cy: 42, r: 15 });
    case "S": return svg("rect", { x: 16, y: 28, width: 28, height: 28 });
    case "T": return svg("path", { d: "M30,26 L46,56 L14,56 Z" });
    case "H": return svg("path", { d: "M30,57 C12,45 13,29 22,28 C27,27 30,32 30,35 C30,32 33,27 38,28 C47,29 48,45 30,57 Z" });
    default: return svg("path", { d: "M20,33 C24,22 38,24 42,31 C48,38 45,52 37,55 C30,58 26,52 20,54 C13,55 12,41 20,33 Z" });
  }
}

function frame(label, extra = "") {
  const node = svg("svg", { viewBox: "0 0 60 84", class: `card ${extra}`.trim(), role: "img", "aria-label": label });
  const title = svg("title");
  title.textContent = label;
  node.append(title);
  node.append(svg("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, fill: "#fffdf7", stroke: "#333", "stroke-width": 1.5 }));
  return node;
}

function text(x, y, content, attrs = {}) {
  const t = svg("text", { x, y, "font-size": 12, "font-weight": 700, "text-anchor": "middle", "font-family": "system-ui, sans-serif", ...attrs });
  t.textContent = content;
  return t;
}

export function longName(code) {
  if (TT.test(code)) {
    const [c, s, n] = code;
    return `${COLORS[c][0]} ${SHAPES[s]} ${n}`;
  }
  const up = THREE_UP.exec(code);
  if (up) return `${THREE_UP_COLORS[up[2]][0]} ${CLEARS[up[1]] || up[1]} (copy ${up[3]})`;
  const m = /^(10|[2-9TJQKA])([CDHS])$/.exec(code);
  if (m) return `${RANKS[m[1]] || (m[1] === "T" ? "10" : m[1])} of ${SUITS[m[2]][0]}`;
  return code;
}

// One face-up card from its notation; size: "", "small" or "large".
export function card(code, size = "") {
  ensureDefs();
  if (TT.test(code)) {
    const [c, s, n] = code;
    const node = frame(`${code}: ${longName(code)}`, size);
    const hex = COLORS[c][1];
    const shape = shapePath(s);
    shape.setAttribute("fill", `url(#tt-fill-${c})`);
    shape.setAttribute("stroke", hex);
    shape.setAttribute("stroke-width", 2.5);
    node.append(shape);
    node.append(text(9, 15, n, { "font-size": 14 }));
    node.append(text(51, 79, n, { "font-size": 14 }));
    node.append(text(51, 15, c, { "font-size": 10, fill: "#555" }));
    node.append(text(9, 79, c, { "font-size": 10, fill: "#555" }));
    node.append(text(30, 72, code, { "font-size": 8, fill: "#555", "font-weight": 400 }));
    node.dataset.card = code;
    return node;
  }
  const m = /^(10|[2-9TJQKA])([CDHS])$/.exec(code);
  if (m) {
    const [, rank, letter] = m;
    const hex = SUITS[letter][1];
    const node = frame(`${code}: ${longName(code)}`, size);
    const shown = rank === "T" ? "10" : rank;
    node.append(text(12, 17, shown, { fill: hex, "font-size": 13 }));
    node.append(suit(letter, 12, 26, 10));
    node.append(suit(letter, 30, 45, 26));
    node.append(text(48, 78, shown, { fill: hex, "font-size": 13 }));
    node.dataset.card = code;
    return node;
  }
  const up = THREE_UP.exec(code);
  if (up) return threeUp(code, up[1], up[2], size);
  const node = frame(String(code), size);
  node.append(text(30, 46, String(code), { "font-size": 10 }));
  return node;
}

function threeUp(code, value, color, size) {
  const node = frame(`${code}: ${longName(code)}`, size);
  const hex = THREE_UP_COLORS[color][1];
  node.append(svg("rect", { x: 5, y: 5, width: 50, height: 6, rx: 2, fill: hex }));
  node.append(text(51, 79, color, { "font-size": 9, fill: "#555" }));
  if (value in CLEARS) {
    const extra = value.slice(1);
    node.append(svg("path", { d: "M30,18 L35,33 L50,30 L39,41 L50,54 L35,50 L30,64 L25,50 L10,54 L21,41 L10,30 L25,33 Z",
      fill: "#fff2b3", stroke: "#8a6d00", "stroke-width": 1.5 }));
    node.append(text(30, 45, "CLEAR", { "font-size": 8.5, fill: "#222" }));
    if (extra) node.append(text(30, 76, extra, { "font-size": 14, fill: "#222" }));
    node.append(text(10, 21, value === "C" ? "C" : extra, { "font-size": 10 }));
  } else {
    node.append(text(30, 54, value, { "font-size": 28, fill: "#222" }));
    node.append(text(10, 23, value, { "font-size": 12 }));
  }
  node.dataset.card = code;
  return node;
}

// A face-down card (a hand you cannot see, the stock).
export function back(size = "", label = "face-down card") {
  const node = frame(label, size);
  node.append(svg("rect", { x: 6, y: 6, width: 48, height: 72, rx: 4, fill: "#1d3557" }));
  node.append(text(30, 47, "TT", { fill: "#f1c40f", "font-size": 14 }));
  return node;
}

// Cards in a row.
export function row(codes, size = "") {
  const holder = document.createElement("div");
  holder.className = "cards";
  for (const code of codes) holder.append(card(code, size));
  return holder;
}
