// Triple Topper Toe at the table: the cube as four 4x4 layers (rows are the colors R Y G B,
// columns the shapes C H T S, layers the numbers 1-4), X and O drawn as a cross and a ring,
// the last mark and a winning line highlighted; both players, the stock (click it to draw),
// the face-down discards, the played cards; your hand with the card you drew.  To play,
// click a card to see the free cells it may mark, then one of them (a card with a single
// play plays at once), or click a marked-out cell straight away.  The Quiz Show's question,
// who buzzed and the last answer are shown; buzzing and answering are the page's buttons.
// Built only from the observation the server sent to this seat.
import { actButton, badge, clickable, playerBox, plural, pressable, spot } from "/static/games/parts.js";

const ROWS = "RYGB";
const COLUMNS = "CHTS";
const ROW_WORDS = ["red", "yellow", "green", "blue"];
const COLUMN_WORDS = ["circle", "heart", "triangle", "square"];
const COLUMN_SYMBOLS = ["●", "♥", "▲", "■"];
const NS = "http://www.w3.org/2000/svg";

// What this browser has picked toward a play: a hand card, or a cell several cards fit.
let picked = { key: null, card: null, cell: null };

// The page lists draw and discards; plays are the cells and cards, buzz and answers the quiz.
const DRAWN = new Set(["play", "buzz", "answer"]);
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
  if (picked.key !== key) picked = { key, card: null, cell: null };
  const symbolOf = (seat) => (seat === obs.x ? "X" : "O");
  const mine = ctx.seat !== null && obs.to_act.includes(ctx.seat);

  // the players, X first
  const players = el("div", { class: "players" });
  for (const seat of [obs.x, 1 - obs.x]) {
    const symbol = symbolOf(seat);
    players.append(playerBox(ctx, seat, { acting: obs.to_act.includes(seat) },
      el("div", { class: "toe-who" }, markSvg(symbol), ` plays ${symbol} · ${plural(obs.marks[seat], "mark")}`),
      el("div", { class: "muted" }, `${plural(obs.hand_sizes[seat], "card")} in hand · ${obs.discard_counts[seat]} discarded face down`)));
  }
  root.append(players);

  // what is going on
  const status = el("div", { class: "status-line" });
  if (obs.result) {
    const winners = obs.result.winners || [];
    status.append(winners.length
      ? `${ctx.names[winners[0]]} (${symbolOf(winners[0])}) won: ${obs.result.reason === "line" ? "four in a line" : obs.result.reason}.`
      : `A draw (${obs.result.reason}).`);
  } else {
    status.append(`Turn ${obs.turns + 1} of ${obs.max_turns}. `);
    if (mine && obs.phase === "turn") status.append("Draw a card (click the stock) or discard 2 or 3 cards face down.");
    if (mine && obs.phase === "play") status.append("Play a card: pick it, then a highlighted cell.");
  }
  root.append(status);
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
    if (items.length === 1) ctx.act(items[0].action);
    else { picked.cell = name; redraw(); }
  };
  const line = new Set(obs.line || []);
  const last = obs.last ? obs.last.cell : null;
  const cube = el("div", { class: "toe-cube", "aria-label": "The board: four layers" });
  for (let layer = 0; layer < 4; layer++) {
    const grid = el("div", { class: "toe-layer", "data-layer": layer + 1, role: "group", "aria-label": `layer ${layer + 1}` },
      el("div", { class: "toe-corner" }),
      COLUMNS.split("").map((c, i) => el("div", { class: "toe-head", title: COLUMN_WORDS[i] }, `${c}${COLUMN_SYMBOLS[i]}`)));
    for (let row = 0; row < 4; row++) {
      grid.append(el("div", { class: `toe-head toe-row-${ROWS[row]}`, title: ROW_WORDS[row] }, ROWS[row]));
      for (let column = 0; column < 4; column++) {
        const name = cellName(row, column, layer);
        const mark = obs.board[layer * 16 + column * 4 + row];
        const words = `${ROW_WORDS[row]} ${COLUMN_WORDS[column]} ${layer + 1}`;
        const state = mark === "." ? "free" : `${mark}${ctx.seat !== null && mark === symbolOf(ctx.seat) ? " (you)" : ""}`;
        const cell = el("div", {
          class: `toe-cell${line.has(name) ? " win" : ""}${name === last ? " last" : ""}${picked.cell === name ? " picked" : ""}`,
          "data-cell": name, "data-mark": mark, title: `${name}: ${words}, ${state}`, "aria-label": `${name}, ${state}`,
        }, mark === "." ? null : markSvg(mark));
        if (targets.has(name)) {
          cell.classList.add("target", picked.card ? "strong" : "weak");
          pressable(cell, () => pickCell(name), `mark ${name} (${words})`);
        }
        grid.append(cell);
      }
    }
    cube.append(el("div", { class: "toe-layer-box" }, el("div", { class: "pile-label" }, `layer ${layer + 1}`), grid));
  }
  root.append(cube);

  // several cards fit the cell clicked: which one?
  if (picked.cell && targets.has(picked.cell)) {
    const which = el("div", { class: "cards toe-which" }, el("span", {}, `Mark ${picked.cell} with: `));
    for (const item of targets.get(picked.cell)) which.append(clickable(cards.card(item.action.card, "small"), item, ctx));
    root.append(which);
  }

  if (obs.last) {
    const { seat, card, cell } = obs.last;
    root.append(el("div", { class: "toe-last" }, `Last mark: ${ctx.names[seat]} (${symbolOf(seat)}) played `,
      cards.card(card, "small"), ` on ${cell}.`));
  }

  // the stock and the played cards
  const draw = ctx.legal.find((item) => item.action.type === "draw");
  const stock = cards.back("", `stock of ${obs.stock_size} cards`);
  if (draw) clickable(stock, draw, ctx, "draw a card from the stock");
  const played = obs.played;
  root.append(el("div", { class: "center" },
    spot(ctx, `Stock: ${obs.stock_size}`, stock),
    spot(ctx, `Played: ${played.length}`, played.length ? cards.card(played[played.length - 1]) : el("span", { class: "muted" }, "(none)")),
    el("div", { class: "muted" }, [
      obs.wasted ? `${plural(obs.wasted, "wasted play")}` : "",
      obs.reshuffles ? `reshuffled ${plural(obs.reshuffles, "time")}` : "",
    ].filter(Boolean).join(" · "))));

  if (obs.hand) root.append(yourHand(obs, ctx, plays, redraw));
}

function yourHand(obs, ctx, plays, redraw) {
  const { el, cards } = ctx;
  const row = el("div", { class: "cards toe-hand", "aria-label": "Your hand" });
  for (const code of obs.hand) {
    const face = cards.card(code, "large");
    const items = plays.filter((item) => item.action.card === code);
    let note = "";
    if (items.length === 1) {
      note = items[0].action.cell === null ? "fits no free cell" : `→ ${items[0].action.cell}`;
      clickable(face, items[0], ctx);
    } else if (items.length) {
      note = `${items.length} free cells`;
      pressable(face, () => { picked.card = picked.card === code ? null : code; picked.cell = null; redraw(); },
        `${cards.longName(code)}: show the ${items.length} cells it may mark`);
      if (picked.card === code) face.classList.add("picked");
    }
    row.append(el("div", { class: "hand-card" }, face,
      el("div", { class: "caption" }, code === obs.drawn ? badge(ctx, "new", "the card you drew") : null, note)));
  }
  const box = el("div", {}, el("div", { class: "score" }, "Your hand"), row);
  if (obs.my_discards.length) {
    box.append(el("details", { class: "muted" }, el("summary", {}, `Your face-down discards (${obs.my_discards.length})`),
      cards.row(obs.my_discards, "small")));
  }
  return box;
}

function quiz(q, ctx) {
  const { el } = ctx;
  const box = el("div", { class: "quiz", "aria-live": "polite" });
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
