// The fallback renderer for a game without its own module: the observation as a list,
// with every card name drawn as a card.  Each game should have a module like thirty-two.js.
const CARD = /^([RYGBK][CHTSB][1-4?]|(10|[2-9TJQKA])[CDHS])$/;

function value(v, ctx) {
  const { el, cards } = ctx;
  if (Array.isArray(v) && v.length && v.every((x) => typeof x === "string" && CARD.test(x))) return cards.row(v, "small");
  if (typeof v === "string" && CARD.test(v)) return cards.card(v, "small");
  if (v && typeof v === "object") return el("code", {}, JSON.stringify(v));
  return el("span", {}, String(v));
}

export function render(root, obs, ctx) {
  const { el, clear } = ctx;
  clear(root);
  const list = el("dl", {});
  for (const [key, v] of Object.entries(obs)) list.append(el("dt", {}, key.replaceAll("_", " ")), el("dd", {}, value(v, ctx)));
  root.append(list);
}
