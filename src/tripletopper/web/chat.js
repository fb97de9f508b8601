// A table's chat, on the table page and in replays.  Lines come from the server, which
// names who said them (a seat's name or "Spectator N": never a name the sender chose),
// and are drawn as text, never as markup.  Anyone may be muted: their lines are hidden
// in this browser, and the mute is remembered (a seated person by name; a spectator at
// this table only, since spectator numbers are per table).
import { clear, el } from "/static/common.js";

const MUTED = "tt-muted";
const KEEP = 300;

function loadMuted() {
  try { return new Set(JSON.parse(localStorage.getItem(MUTED) || "[]")); } catch (e) { return new Set(); }
}

export class Chat {
  // `box`: where the lines go; `tableId`: this table; `mySeat()`: the viewer's seat (its
  // own lines get no mute button); `send(text)`: say a line (omit it for a replay).
  constructor(box, tableId, { mySeat = () => null, send = null } = {}) {
    this.box = box;
    this.tableId = tableId;
    this.mySeat = mySeat;
    this.send = send;
    this.lines = [];
    this.seen = new Set();
    this.muted = loadMuted();
  }

  key(line) { return line.seat === null ? `${this.tableId}:${line.name}` : line.name; }

  // New lines from a `chat` message (a reconnect sends some again: kept once).
  receive(lines) {
    for (const line of lines) {
      if (this.seen.has(line.n)) continue;
      this.seen.add(line.n);
      this.lines.push(line);
    }
    this.lines.sort((a, b) => a.n - b.n);
    if (this.lines.length > KEEP) this.lines.splice(0, this.lines.length - KEEP);
    this.render();
  }

  setMuted(line, muted) {
    const key = this.key(line);
    if (muted) this.muted.add(key); else this.muted.delete(key);
    localStorage.setItem(MUTED, JSON.stringify([...this.muted]));
    this.render();
  }

  // The lines said up to `version` (all of them without it: replays pass the step's).
  render(version = Infinity) {
    const box = clear(this.box);
    const hidden = new Map();
    for (const line of this.lines) {
      if (line.version > version) continue;
      if (this.muted.has(this.key(line))) { hidden.set(this.key(line), line); continue; }
      const mine = line.seat !== null && line.seat === this.mySeat();
      box.append(el("div", { class: `chat-line${line.seat === null ? " spectator" : ""}`, "data-n": line.n },
        el("span", { class: "who" }, line.name), " ",
        el("span", { class: "said" }, line.text),
        mine ? null : el("button", { type: "button", class: "link mute", "aria-label": `Mute ${line.name}`,
          title: `Hide what ${line.name} says`, onclick: () => this.setMuted(line, true) }, "mute")));
    }
    if (hidden.size) {
      box.append(el("div", { class: "muted chat-muted" }, "Muted: ",
        [...hidden.values()].map((line) => el("button", { type: "button", class: "link unmute",
          "aria-label": `Unmute ${line.name}`, onclick: () => this.setMuted(line, false) }, `${line.name} (unmute)`))));
    }
    if (!box.children.length) box.append(el("p", { class: "muted" }, this.send ? "Nobody has said anything yet." : "Nothing was said."));
    box.scrollTop = box.scrollHeight;
  }
}

// The form under the lines: says what is typed; a refusal (too long, too fast...) is shown
// under it and what was typed comes back, to be sent again.
export function chatForm(form, input, error, chat) {
  let pending = "";
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text || !chat.send) return;
    error.textContent = "";
    pending = text;
    chat.send(text);
    input.value = "";
  });
  return {
    refused(message) {
      error.textContent = message;
      if (!input.value) input.value = pending;
    },
  };
}
