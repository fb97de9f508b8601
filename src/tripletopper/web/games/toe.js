// Triple Topper Toe at the table: the cube as four 4x4 layers (rows are the colors R Y G B,
// columns the shapes C H T S, layers the numbers 1-4), X and O drawn as a cross and a ring,
// the last mark and a winning line highlighted; both players, the stock (click it to draw),
// the face-down discards, the played cards; your hand with the card you drew.  To play,
// click a card to see the free cells it may mark, then one of them (a card with a single
// play plays at once), or click a marked-out cell straight away.  The Quiz Show's question,
// who buzzed and the last answer are shown; buzzing and answering are the page's buttons.
//
// Each layer is a labelled grid a keyboard walks cell by cell: arrows move along rows and
// columns (and on to the next layer), Page Up / Page Down change layers, Enter marks.  At a
// table with hints, lines of three marks with a free fourth cell are marked as threats.
// Built only from the observation the server sent to this seat.
import { actButton, badge, clickable, handCard, handRow, playerBox, plural, pressable, spot } from "/static/games/parts.js";
import { icon } from "/static/icons.js";

const ROWS = "RYGB";
const COLUMNS = "CHTS";
const ROW_WORDS = ["red", "yellow", "green", "blue"];
const COLUMN_WORDS = ["circle", "heart", "triangle", "square"];
const COLUMN_ICONS = ["circle", "heart", "triangle", "square"];
const NS = "http://www.w3.org/2000/svg";

// What this browser has picked toward a play: a hand card, or a cell several cards fit; and
// the cell the keyboard is on.
let picked = { key: null, card: null, cell: null };
let cursor = null;

// When one question on the page gave way to another (the first was dropped unanswered): a buzz
// (or answer) pressed within SETTLE_MS of the new one was meant for the one before (nobody
// reads a question that fast), so it is not sent; the server refuses one sent for a question
// already gone (a stale version).
const SETTLE_MS = 350;
const shown = { number: null, at: -Infinity };
export function ready(action) {
  if (action.type !== "buzz" && action.type !== "answer") return true;
  return performance.now() - shown.at >= SETTLE_MS;
}

// The page lists draw; plays are the cells and cards, buzz and answers the quiz, and the
// discards are short buttons by the hand (their cards' names).
const DRAWN = new Set(["play", "buzz", "answer", "discard"]);
export function buttons(legal) {
  return legal.filter((item) => !DRAWN.has(item.action.type));
}

function cellName(row, column, layer) {
  return `${ROWS[row]}${COLUMNS[column]}${layer + 1}`;
}

function markSvg(symbol) {
  const node = document.createElementNS(NS, "svg");
  node.setAttribute("viewBox", "0 0 20 20");
  node.setAttribute("class", `mark mark-${symbol}`);
  node.setAttribute("aria-hidden", "true");
  const shape = symbol === "X"
    ? '<path d="M4,4 L16,16 M16,4 L4,16" stroke-width="3.2" stroke-linecap="round"/>'
    : '<circle cx="10" cy="10" r="6.2" stroke-width="3" fill="none"/>';
  node.innerHTML = shape;
  return node;
}

export function render(root, obs, ctx) {
  const { el, clear, cards } = ctx;
  clear(root);
  const redraw = () => render(root, obs, ctx);
  const hand = obs.hand || [];
  const key = `${obs.turns}|${obs.phase}|${hand.join()}`;
  if (picked.key !== key) picked = { key, card: null, cell: null, focus: false };
  const symbolOf = (seat) => (seat === obs.x ? "X" : "O");
  const mine = ctx.seat !== null && obs.to_act.includes(ctx.seat);

  // the players, X first
  const players = el("div", { class: "players" });
  for (const seat of [obs.x, 1 - obs.x]) {
    const symbol = symbolOf(seat);
    players.append(playerBox(ctx, seat, { acting: obs.to_act.includes(seat) },
      el("div", { class: "toe-who" }, markSvg(symbol), ` plays ${symbol} · ${plural(obs.marks[seat], "mark")}`),
      el("div", { class: "muted" }, `${plural(obs.hand_sizes[seat], "card")} in hand · ${obs.discard_counts[seat]} face down`)));
  }
  root.append(players);

  // what is going on
  const threats = (ctx.hints && ctx.hints.threats) || [];
  const status = el("div", { class: "status-line" });
  if (obs.result) {
    const winners = obs.result.winners || [];
    status.append(winners.length
      ? `${ctx.names[winners[0]]} (${symbolOf(winners[0])}) won: ${whyEnded(obs)}.`
      : `A draw: ${whyEnded(obs)}.`);
  } else {
    status.append(`Turn ${obs.turns + 1} of ${obs.max_turns}. `);
    if (mine && obs.phase === "turn") status.append("Draw a card (click the stock) or discard 2 or 3 cards face down.");
    if (mine && obs.phase === "play") status.append("Play a card: pick it, then a highlighted cell.");
  }
  if (obs.last) {
    const { seat, card, cell } = obs.last;
    const face = cards.card(card, "small");
    face.setAttribute("aria-hidden", "true");
    status.append(el("span", { class: "toe-last" }, ` Last mark: ${ctx.names[seat]} (${symbolOf(seat)}) played ${card} `,
      face, ` on ${cell}.`));
  }
  if (threats.length) {
    status.append(el("div", { class: "threats" }, "Threats: ",
      threats.map((t) => `${t.mark} wins at ${t.cell}`).join(" · ")));
  }
  root.append(status);
  const number = obs.quiz && obs.quiz.question ? obs.quiz.question.number : null;
  if (number !== shown.number) {
    shown.at = shown.number !== null && number !== null ? performance.now() : -Infinity;
    shown.number = number;
  }
  if (obs.quiz) root.append(quiz(obs.quiz, ctx));

  // the cube
  const plays = ctx.legal.filter((item) => item.action.type === "play");
  const targets = new Map();
  for (const item of plays) {
    if (item.action.cell === null || (picked.card && item.action.card !== picked.card)) continue;
    if (!targets.has(item.action.cell)) targets.set(item.action.cell, []);
    targets.get(item.action.cell).push(item);
  }
  const pickCell = (name) => {
    const items = targets.get(name);
    if (!items) return;
    if (items.length === 1) ctx.act(items[0].action);
    else { picked.cell = name; redraw(); }
  };
  const line = new Set(obs.line || []);
  const last = obs.last ? obs.last.cell : null;
  const danger = new Map();  // threat cell -> marks that win there
  const threatLines = new Set();
  for (const t of threats) {
    danger.set(t.cell, [...(danger.get(t.cell) || []), t.mark]);
    for (const cell of t.line) threatLines.add(cell);
  }
  const firstTarget = picked.card ? [...targets.keys()][0] : null;
  const home = picked.cell || (picked.focus && firstTarget) || cursor || firstTarget || "RC1";
  const cube = el("div", { class: "toe-cube", role: "group", "aria-label": "The board: four layers, one per number" });
  for (let layer = 0; layer < 4; layer++) {
    const grid = el("div", { class: "toe-layer", "data-layer": layer + 1, role: "grid", "aria-label": `Layer ${layer + 1} (number ${layer + 1})` },
      el("div", { role: "row", class: "toe-row" }, el("div", { class: "toe-corner", role: "columnheader", title: `layer ${layer + 1}`, "aria-label": "row" }, `${layer + 1}`),
        COLUMNS.split("").map((c, i) => el("div", { class: "toe-head", role: "columnheader", title: COLUMN_WORDS[i], "aria-label": COLUMN_WORDS[i] },
          c, icon(COLUMN_ICONS[i], "toe-shape")))));
    for (let row = 0; row < 4; row++) {
      const cells = [el("div", { class: `toe-head toe-row-${ROWS[row]}`, role: "rowheader", title: ROW_WORDS[row], "aria-label": ROW_WORDS[row] }, ROWS[row])];
      for (let column = 0; column < 4; column++) {
        const name = cellName(row, column, layer);
        const mark = obs.board[layer * 16 + column * 4 + row];
        const words = `${ROW_WORDS[row]} ${COLUMN_WORDS[column]} ${layer + 1}`;
        const state = mark === "." ? "free" : `${mark}${ctx.seat !== null && mark === symbolOf(ctx.seat) ? " (yours)" : ""}`;
        const notes = [state];
        if (danger.has(name)) notes.push(`${danger.get(name).join(" and ")} would win here`);
        if (line.has(name)) notes.push("in the winning line");
        if (targets.has(name)) notes.push(picked.card ? `mark it with ${picked.card}` : "a card of yours fits");
        const classes = ["toe-cell"];
        if (line.has(name)) classes.push("win");
        if (name === last) classes.push("last");
        if (picked.cell === name) classes.push("picked");
        if (danger.has(name)) classes.push("threat", ...danger.get(name).map((m) => `threat-${m}`));
        else if (threatLines.has(name)) classes.push("threat-line");
        if (targets.has(name)) classes.push("target", "clickable", picked.card ? "strong" : "weak");
        const cell = el("div", {
          class: classes.join(" "), role: "gridcell", tabindex: name === home ? "0" : "-1",
          "data-cell": name, "data-mark": mark, "data-row": row, "data-column": column, "data-layer": layer,
          title: `${name}: ${words}, ${notes.join(", ")}`, "aria-label": `${name}, ${words}: ${notes.join(", ")}`,
          "aria-disabled": targets.has(name) ? null : "true",
        }, mark === "." ? null : markSvg(mark));
        cell.addEventListener("click", () => pickCell(name));
        cell.addEventListener("focus", () => { cursor = name; });
        cells.push(cell);
      }
      grid.append(el("div", { role: "row", class: "toe-row" }, cells));
    }
    cube.append(grid);
  }
  cube.addEventListener("keydown", (event) => walk(event, cube, pickCell));
  root.append(cube);

  // several cards fit the cell clicked: which one?
  if (picked.cell && targets.has(picked.cell)) {
    const which = el("div", { class: "cards toe-which", role: "group", "aria-label": `cards that fit ${picked.cell}` },
      el("span", {}, `Mark ${picked.cell} with: `));
    for (const item of targets.get(picked.cell)) which.append(clickable(cards.card(item.action.card, "small"), item, ctx));
    root.append(which);
  }

  // the stock and the played cards, then your hand
  const draw = ctx.legal.find((item) => item.action.type === "draw");
  const stock = cards.back("", `stock of ${obs.stock_size} cards`);
  stock.dataset.key = "stock";
  if (draw) clickable(stock, draw, ctx, "draw a card from the stock");
  const played = obs.played;
  const playedSpot = spot(ctx, `Played: ${played.length}`, played.length ? cards.card(played[played.length - 1]) : el("span", { class: "muted" }, "(none)"));
  playedSpot.classList.add("played-spot");
  const middle = el("div", { class: "middle" }, el("div", { class: "center" },
    spot(ctx, `Stock: ${obs.stock_size}`, stock),
    playedSpot,
    el("div", { class: "muted" }, [
      obs.wasted ? `${plural(obs.wasted, "wasted play")}` : "",
      obs.reshuffles ? `reshuffled ${plural(obs.reshuffles, "time")}` : "",
    ].filter(Boolean).join(" · "))));
  root.append(middle);
  if (obs.hand) {
    middle.append(yourHand(obs, ctx, plays, redraw));
    const discards = ctx.legal.filter((item) => item.action.type === "discard");
    if (discards.length) {
      root.append(el("div", { class: "actions-inline toe-discards", role: "group", "aria-label": "discard face down" },
        el("span", { class: "pile-label" }, "Or discard face down:"),
        discards.map((item) => {
          const button = actButton(ctx, item, item.action.cards.join(" + "), true);
          button.setAttribute("aria-label", item.label);
          return button;
        })));
    }
  }

  // after picking a card, the keyboard goes to the first cell it may mark
  if (picked.focus) {
    picked.focus = false;
    const first = cube.querySelector(".toe-cell[tabindex='0']");
    if (first) first.focus();
  }
}

// Arrow keys on the cube: along a row or column, on into the next layer; Page Up/Down: the
// layer before or after; Home/End: the layer's first or last cell; Enter or Space: mark.
function walk(event, cube, pickCell) {
  const cell = event.target.closest(".toe-cell");
  if (!cell) return;
  let row = Number(cell.dataset.row);
  let column = Number(cell.dataset.column);
  let layer = Number(cell.dataset.layer);
  switch (event.key) {
    case "ArrowLeft": column -= 1; if (column < 0) { column = 3; layer = (layer + 3) % 4; } break;
    case "ArrowRight": column += 1; if (column > 3) { column = 0; layer = (layer + 1) % 4; } break;
    case "ArrowUp": row = (row + 3) % 4; break;
    case "ArrowDown": row = (row + 1) % 4; break;
    case "PageUp": layer = (layer + 3) % 4; break;
    case "PageDown": layer = (layer + 1) % 4; break;
    case "Home": row = 0; column = 0; break;
    case "End": row = 3; column = 3; break;
    case "Enter": case " ": event.preventDefault(); pickCell(cell.dataset.cell); return;
    default: return;
  }
  event.preventDefault();
  const next = cube.querySelector(`[data-cell='${cellName(row, column, layer)}']`);
  cell.setAttribute("tabindex", "-1");
  next.setAttribute("tabindex", "0");
  next.focus();
}

function yourHand(obs, ctx, plays, redraw) {
  const { el, cards } = ctx;
  const row = handRow(ctx);
  row.classList.add("toe-hand");
  for (const code of obs.hand) {
    const face = cards.card(code, "large");
    const items = plays.filter((item) => item.action.card === code);
    let note = "";
    if (items.length === 1) {
      note = items[0].action.cell === null ? "fits no free cell" : `plays at ${items[0].action.cell}`;
      clickable(face, items[0], ctx, `${items[0].label} (${cards.longName(code)})`);
    } else if (items.length) {
      note = `${items.length} free cells`;
      pressable(face, () => {
        picked.card = picked.card === code ? null : code;
        picked.cell = null;
        picked.focus = picked.card !== null;
        redraw();
      }, `${cards.longName(code)}: pick it to mark one of ${items.length} free cells`);
      if (picked.card === code) { face.classList.add("picked"); face.setAttribute("aria-pressed", "true"); }
    }
    row.append(handCard(ctx, face, code === obs.drawn ? badge(ctx, "new", "the card you drew") : null, note));
  }
  const box = el("div", { class: "your-hand" }, el("div", { class: "score" }, "Your hand"), row);
  if (obs.my_discards.length) {
    box.append(el("details", { class: "muted" }, el("summary", {}, `Your face-down discards (${obs.my_discards.length})`),
      cards.row(obs.my_discards, "small")));
  }
  return box;
}

function quiz(q, ctx) {
  const { el } = ctx;
  const box = el("div", { class: "quiz" });
  const name = (seat) => ctx.names[seat];
  const answered = q.last_answer;
  if (answered) {
    box.append(el("div", { class: "muted" },
      `Last question: ${name(answered.seat)} answered ${answered.choice || "nothing"}, ${answered.correct ? "right" : "wrong"} `
      + `(it was ${answered.answer}: ${answered.answer_text}); ${name(answered.earned_by)} earned the turn.`));
  }
  const question = q.question;
  if (question) {
    const about = [question.category, question.difficulty].filter(Boolean).join(", ");
    box.append(el("div", { class: "quiz-question" },
      el("strong", {}, `${question.tiebreak ? "Tiebreaker question" : `Question ${question.number}`}${about ? ` (${about})` : ""}: `),
      question.text));
    const answers = new Map(ctx.legal.filter((i) => i.action.type === "answer").map((i) => [i.action.choice, i]));
    box.append(el("ol", { class: "quiz-choices", type: "A" }, question.choices.map((text, i) => {
      const letter = String.fromCharCode(65 + i);
      const item = answers.get(letter);
      return el("li", {}, item ? actButton(ctx, item, text, true) : text);
    })));
    const buzz = ctx.legal.find((i) => i.action.type === "buzz");
    box.append(el("div", { class: "score" }, q.buzzer === null ? "Buzz in to answer! " : q.buzzer === ctx.seat ? "You buzzed in: answer!" : `${name(q.buzzer)} buzzed in and answers.`,
      buzz ? actButton(ctx, buzz, "Buzz in") : null));
  } else if (q.tiebreak) {
    box.append(el("div", { class: "score" }, "Tiebreak!"));
  }
  box.append(el("div", { class: "muted" }, `Questions read: ${q.questions_read} of at most ${q.max_questions}`));
  return box;
}

// Why a game ended, in words (the result's reason: "line", or "full" / "max_turns" /
// "max_questions" and what settled it after: "more marks", "tiebreaker"...).
const ENDINGS = {
  full: "the board is full", max_turns: "the turn limit was reached", max_questions: "the question limit was reached",
};
const SETTLED = {
  "more marks": "more marks win", tiebreaker: "a tiebreaker question decided", "tiebreak unanswered": "nobody answered the tiebreaker",
};
function whyEnded(obs) {
  const reason = (obs.result && obs.result.reason) || "";
  if (reason === "line" && obs.line) return `four in a line, ${obs.line.join(" ")}`;
  const [first, then] = reason.split(", ");
  const text = ENDINGS[first] || first;
  return then ? `${text}; ${SETTLED[then] || then}` : text;
}

// The end: the winning line, named and marked on the cube (the cube is drawn below the
// results), or why nobody made one.
export function ending(obs, ctx) {
  const { el } = ctx;
  const winner = obs.result.winners.length ? obs.result.winners[0] : null;
  const byLine = obs.result.reason === "line" && obs.line;
  const moment = byLine
    ? el("div", { class: "toe-line-shown" }, el("h3", {}, "The winning line"),
      el("div", { class: "row" }, obs.line.map((cell) => el("span", { class: "cell-chip" }, cell)),
        el("span", { class: "muted" }, "(green on the cube below)")))
    : null;
  return {
    reason: whyEnded(obs),
    moment,
    unit: "A line of four marks wins; the marks on the cube decide only a game that ends without one.",
    score: (seat, value) => (byLine && seat === winner ? `four in a line (${plural(value, "mark")})` : plural(value, "mark")),
  };
}
