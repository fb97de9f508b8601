// Safety nets between a click and the move it sends.
//
// 1. The game's own questions: a renderer may export guard(action, ctx) returning
//    {text, choices: [{label, action}]} for a click that is probably a mistake (Thirty-Two: a
//    discard that throws away a declarable 32; Memo Match: declaring "no matches").  The page
//    asks; Esc or Cancel plays nothing.
// 2. The player's setting (remembered in localStorage): send at once, ask to confirm every
//    move, or hold every move for a few seconds with an Undo button.  A held move has not
//    left the browser, so nobody else has seen it: undoing it takes nothing back that the
//    rules would not.  Timed phases (Memo Match's spotting, the Quiz Show) never wait.

const SETTING = "tt-move-check";
export const HOLD_SECONDS = 3;
const CHOICES = [
  ["off", "Send each move at once"],
  ["confirm", "Ask me to confirm each move"],
  ["undo", `Wait ${HOLD_SECONDS} s before sending, so I can undo`],
];

export class Moves {
  constructor(el) {
    this.el = el;
    this.busy = false;
    this.dialog = el("dialog", { id: "ask", class: "ask", "aria-labelledby": "ask-text" });
    document.body.append(this.dialog);
  }

  get check() { return localStorage.getItem(SETTING) || "off"; }

  // The setting as a labelled select.
  setting() {
    const select = this.el("select", { id: "move-check", onchange: (e) => localStorage.setItem(SETTING, e.target.value) },
      CHOICES.map(([value, text]) => this.el("option", { value, selected: value === this.check }, text)));
    return this.el("label", { class: "setting" }, "Before a move is sent", select);
  }

  // The action to send for a click on `item` (a legal entry), or null if the player
  // cancelled.  `guard` is the renderer's question (or null); `timed`: a timed phase runs;
  // `soon`: the player's turn clock runs out within a few seconds.
  async decide(item, { guard, timed, soon }) {
    if (this.busy) return null;
    this.busy = true;
    try {
      let action = item.action;
      let label = item.label;
      if (guard) {
        const picked = await this.ask(guard.text, [...guard.choices, { label: "Cancel", action: null }]);
        if (!picked) return null;
        ({ action, label } = picked);
      }
      if (timed) return action;
      if (this.check === "confirm" && !guard) {
        const ok = await this.ask(`Play: ${label}?`, [{ label: "Play", action }, { label: "Cancel", action: null }]);
        return ok ? action : null;
      }
      if (this.check === "undo" && !soon) return (await this.hold(label)) ? action : null;
      return action;
    } finally {
      this.busy = false;
    }
  }

  // A modal question; resolves with the chosen choice (null for Cancel or Esc).
  ask(text, choices) {
    const { el, dialog } = this;
    return new Promise((resolve) => {
      const done = (choice) => { dialog.close(); resolve(choice && choice.action ? choice : null); };
      dialog.replaceChildren(
        el("p", { id: "ask-text" }, text),
        el("div", { class: "row" }, choices.map((choice, i) => el("button", {
          type: "button", class: i === choices.length - 1 ? "secondary" : null, "data-choice": i,
          onclick: () => done(choice),
        }, choice.label))));
      dialog.oncancel = (e) => { e.preventDefault(); done(null); };
      dialog.showModal();
      dialog.querySelector("button").focus();
    });
  }

  // Hold a move with an Undo button; resolves true to send it, false if undone.
  hold(label) {
    const { el } = this;
    const bar = document.getElementById("pending");
    return new Promise((resolve) => {
      let left = HOLD_SECONDS;
      const undo = el("button", { type: "button", class: "secondary", "data-key": "undo" }, "Undo");
      const text = el("span", {}, "");
      const paint = () => { text.textContent = `Playing ${label} in ${left} s`; };
      const finish = (send) => {
        clearInterval(timer);
        bar.hidden = true;
        bar.replaceChildren();
        resolve(send);
      };
      const timer = setInterval(() => { left -= 1; if (left <= 0) finish(true); else paint(); }, 1000);
      undo.addEventListener("click", () => finish(false));
      paint();
      bar.replaceChildren(text, undo);
      bar.hidden = false;
      undo.focus();
    });
  }
}
