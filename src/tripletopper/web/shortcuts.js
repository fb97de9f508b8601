// Keyboard shortcuts of the table page: the one list of them (shown by shortcutList(game),
// for any help panel) and the key handler that obeys that same list.
//
// A game's letter keys play its legal actions by type (D draws wherever "draw" is legal);
// digits pick a card of your hand, arrows move between the things you can click, Enter or
// Space plays or picks what has focus (every clickable thing of the drawing is a button).
// The Toe cube and the Memo Match grid move cell by cell with the arrows themselves.

const COMMON = [
  { show: "1 – 9", what: "pick the 1st … 9th card of your hand that you can play", run: "pick" },
  { show: "← → ↑ ↓", what: "move between the things you can click (on the Toe cube and the Memo Match grid, cell by cell)", run: "move" },
  { show: "Enter or Space", what: "play or pick the thing in focus; answer the question the page asks" },
  { show: "Esc", what: "close a question without playing anything" },
  { show: "?", what: "show or hide these shortcuts", keys: ["?"], run: "help" },
];

const DRAW = { keys: ["d"], what: "draw from the stock", type: "draw" };
const TAKE = { keys: ["t"], what: "take the face-up card of the discard pile", type: "take" };
const KNOCK = { keys: ["k"], what: "knock", type: "knock" };

export const SHORTCUTS = {
  "thirty-two": [DRAW, TAKE, KNOCK, { keys: ["x"], what: "declare your Thirty-two", type: "declare" }],
  "thirty-one": [
    DRAW, TAKE, KNOCK,
    { keys: ["s"], what: "stop (the stock is empty)", type: "stop" },
    { keys: ["x"], what: "declare a dealt 31", type: "declare" },
    { keys: ["p"], what: "play the hand without declaring (after the deal)", type: "play" },
  ],
  toe: [
    { keys: [..."abcdef"], show: "A – F", what: "Quiz Show: answer A, B, C …", type: "answer",
      match: (action, key) => action.choice === key.toUpperCase() },
    { keys: ["b"], what: "Quiz Show: buzz in", type: "buzz" },
    DRAW,
    { show: "Page Up / Page Down", what: "on the cube: the layer before or after" },
  ],
  "memo-match": [
    { keys: ["n"], what: "declare \"no matches\" (you are asked to confirm)", type: "declare" },
    { keys: ["p"], what: "pass while spotting", type: "pass" },
  ],
  "three-up-three-down": [
    { keys: ["u"], what: "pick up the pile", type: "pickup" },
    DRAW,
    { keys: ["f"], what: "flip your next 3DOWN card", type: "flip" },
    { keys: ["l"], what: "lay the three cards you picked face up", click: "[data-key='lay']" },
  ],
};

// The shortcuts of a game, common ones first, as {show, what}.
export function shortcutsFor(game) {
  return [...COMMON, ...(SHORTCUTS[game] || [])].map((s) => ({
    show: s.show || s.keys.map((k) => k.toUpperCase()).join(", "), what: s.what,
  }));
}

// The shortcuts of a game as a list element (a <dl> of <kbd> and what they do).
export function shortcutList(game) {
  const list = document.createElement("dl");
  list.className = "shortcuts";
  for (const { show, what } of shortcutsFor(game)) {
    const key = document.createElement("dt");
    const kbd = document.createElement("kbd");
    kbd.textContent = show;
    key.append(kbd);
    const text = document.createElement("dd");
    text.textContent = what;
    list.append(key, text);
  }
  return list;
}

const PLAYABLE = "#game .clickable, #game button:not(:disabled), #actions button:not(:disabled)";
const TYPING = new Set(["INPUT", "SELECT", "TEXTAREA"]);

// Listen to the keyboard for the table page.  `table` gives: game() (its registry name),
// legal() (the viewer's legal entries now), act(action), help() (show the shortcuts), and
// quiet() (true while nothing may be played: a question or a showdown is up).
export function listen(table) {
  document.addEventListener("keydown", (event) => {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    if (TYPING.has(event.target.tagName) || event.target.isContentEditable) return;
    if (event.key === "?") { event.preventDefault(); table.help(); return; }
    if (table.quiet()) return;
    const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
    if (/^[1-9]$/.test(key)) {
      const cards = [...document.querySelectorAll("#game [data-keys='hand'] .clickable")];
      const card = cards[Number(key) - 1];
      if (card) { event.preventDefault(); card.focus(); }
      return;
    }
    if (key.startsWith("Arrow")) {
      const things = [...document.querySelectorAll(PLAYABLE)].filter((n) => n.offsetParent !== null);
      if (!things.length) return;
      const at = things.indexOf(document.activeElement);
      const back = key === "ArrowLeft" || key === "ArrowUp";
      const next = at < 0 ? (back ? things.length - 1 : 0) : (at + (back ? -1 : 1) + things.length) % things.length;
      event.preventDefault();
      things[next].focus();
      return;
    }
    for (const shortcut of SHORTCUTS[table.game()] || []) {
      if (!shortcut.keys || !shortcut.keys.includes(key)) continue;
      if (shortcut.click) {
        const target = document.querySelector(shortcut.click);
        if (target && !target.disabled) { event.preventDefault(); target.click(); return; }
        continue;
      }
      const item = table.legal().find((entry) => entry.action && entry.action.type === shortcut.type
        && (!shortcut.match || shortcut.match(entry.action, key)));
      if (item) { event.preventDefault(); table.act(item.action); return; }
    }
  });
}
