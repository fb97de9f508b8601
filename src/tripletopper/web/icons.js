// Icons drawn as inline SVG (never font glyphs, which show as empty boxes where a font lacks
// them).  Each is a 16x16 drawing in the current text color; icon(name) returns a new <svg>,
// hidden from screen readers: the button or text next to it says what it means.

const NS = "http://www.w3.org/2000/svg";
const PATHS = {
  back: '<path d="M10 3 5 8l5 5" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/>',
  first: '<path d="M3 3v10M13 3 6 8l7 5z" fill="currentColor" stroke="currentColor" stroke-width="1.6" stroke-linejoin="round"/>',
  prev: '<path d="M11 3 4 8l7 5z" fill="currentColor" stroke="currentColor" stroke-width="1.6" stroke-linejoin="round"/>',
  next: '<path d="M5 3l7 5-7 5z" fill="currentColor" stroke="currentColor" stroke-width="1.6" stroke-linejoin="round"/>',
  last: '<path d="M13 3v10M3 3l7 5-7 5z" fill="currentColor" stroke="currentColor" stroke-width="1.6" stroke-linejoin="round"/>',
  clock: '<circle cx="8" cy="9" r="5.6" fill="none" stroke="currentColor" stroke-width="1.8"/><path d="M8 6v3.2l2 1.3M6.2 1.6h3.6" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round"/>',
  sound: '<path d="M2 6h3l4-3v10L5 10H2z" fill="currentColor"/><path d="M11 5.5a3.5 3.5 0 0 1 0 5M12.8 3.5a6 6 0 0 1 0 9" fill="none" stroke="currentColor" stroke-width="1.5" stroke-linecap="round"/>',
  mute: '<path d="M2 6h3l4-3v10L5 10H2z" fill="currentColor"/><path d="M11 6l4 4M15 6l-4 4" fill="none" stroke="currentColor" stroke-width="1.6" stroke-linecap="round"/>',
  bell: '<path d="M8 2a4 4 0 0 0-4 4v3L2.5 11.5h11L12 9V6a4 4 0 0 0-4-4zM6.5 13a1.5 1.5 0 0 0 3 0" fill="currentColor"/>',
  keyboard: '<rect x="1" y="4" width="14" height="9" rx="1.5" fill="none" stroke="currentColor" stroke-width="1.4"/><path d="M3.5 6.5h1M6 6.5h1M8.5 6.5h1M11 6.5h1.5M3.5 9h1M6 9h1M8.5 9h1M11 9h1.5M5 11.3h6" stroke="currentColor" stroke-width="1.3" stroke-linecap="round"/>',
  check: '<path d="M3 8.5 6.5 12 13 4.5" fill="none" stroke="currentColor" stroke-width="2.2" stroke-linecap="round" stroke-linejoin="round"/>',
  arrow: '<path d="M2 8h11M9 4l4 4-4 4" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round"/>',
  circle: '<circle cx="8" cy="8" r="5.5" fill="currentColor"/>',
  heart: '<path d="M8 14C2.5 10 1.5 6.5 3.5 4.5 5 3 7 3.6 8 5.3 9 3.6 11 3 12.5 4.5 14.5 6.5 13.5 10 8 14z" fill="currentColor"/>',
  triangle: '<path d="M8 2.5 14 13.5H2z" fill="currentColor"/>',
  square: '<rect x="2.5" y="2.5" width="11" height="11" fill="currentColor"/>',
};

export function icon(name, extra = "") {
  const node = document.createElementNS(NS, "svg");
  node.setAttribute("viewBox", "0 0 16 16");
  node.setAttribute("class", `icon ${extra}`.trim());
  node.setAttribute("aria-hidden", "true");
  node.setAttribute("focusable", "false");
  node.innerHTML = PATHS[name];
  return node;
}

// Fill every <span data-icon="name"> of a static page with its icon.
export function fillIcons(root = document) {
  for (const holder of root.querySelectorAll("[data-icon]")) {
    if (!holder.firstChild) holder.append(icon(holder.dataset.icon));
  }
}
