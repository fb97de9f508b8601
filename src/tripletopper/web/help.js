// The table page's help panel, "How to play this table": what you click and what the
// symbols mean for this game (written per game, served at /api/games/<game>/help as HTML
// rendered from Markdown by the server, raw HTML off), keyboard shortcuts, and the link to
// the game's whole rules page at /rules/<game>.
import { api } from "/static/common.js";

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
