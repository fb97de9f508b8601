// The table page's help panel, "How to play this table": what you click and what the
// symbols mean for this game (written per game, served at /api/games/<game>/help as HTML
// rendered from Markdown by the server, raw HTML off), keyboard shortcuts, and the link to
// the game's whole rules page at /rules/<game>.
import { api, clear, el } from "/static/common.js";

let shownFor = null;

// Fill the panel for `game` (once per game).
export async function showHelp(game) {
  if (shownFor === game) return;
  shownFor = game;
  const rules = `/rules/${encodeURIComponent(game)}`;
  for (const link of document.querySelectorAll("[data-rules-link]")) link.href = rules;
  try {
    const help = await api("GET", `/api/games/${encodeURIComponent(game)}/help`);
    document.getElementById("help-howto").innerHTML = help.html;  // the server's own page
  } catch (e) {
    shownFor = null;
  }
}

// The keyboard shortcuts of this table, listed in the panel: `rows` of [keys, what they
// do], e.g. [["1-9", "pick a card"], ["Enter", "play it"]]; an empty list hides them.
export function setShortcuts(rows) {
  const box = clear(document.getElementById("help-keys"));
  box.hidden = !rows.length;
  if (!rows.length) return;
  box.append(el("h3", {}, "Keyboard"),
    el("dl", { class: "keys" }, rows.flatMap(([keys, what]) => [el("dt", {}, el("kbd", {}, keys)), el("dd", {}, what)])));
}
