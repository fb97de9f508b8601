// Calling a player when the table waits for them (their turn, or a timed phase that asks
// them): the tab's title and favicon change, an optional chime plays (sound.js: WebAudio, no
// sound file), and a browser notification is shown when the tab is hidden, if they allowed
// it.  The header's controls: Sound (the chime and the table's sounds) with its volume, and
// Alerts; the choices are remembered in localStorage.
import { icon } from "/static/icons.js";
import { play, setSound, setVolume, soundOn, volume } from "/static/sound.js";

const NOTIFY = "tt-notify";
const BADGE = '<circle cx="25" cy="7" r="6.5" fill="#e63946" stroke="#fff" stroke-width="1.5"/>'
  + '<path d="M25 3.6v4.2" stroke="#fff" stroke-width="2" stroke-linecap="round"/><circle cx="25" cy="10.2" r="1.1" fill="#fff"/>';
const FALLBACK = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect x="7" y="4" width="18" height="24" rx="3" fill="#1b4332"/></svg>';

export class Attention {
  constructor() {
    this.calling = false;
    this.title = document.title;
    this.link = document.querySelector("link[rel~='icon']");
    this.plain = this.link ? this.link.href : "/favicon.ico";
    this.alert = null;
    this.chimes = 0;
    fetch("/favicon.ico").then((r) => r.text()).catch(() => FALLBACK).then((svg) => {
      const text = svg.includes("</svg>") ? svg : FALLBACK;
      this.alert = `data:image/svg+xml,${encodeURIComponent(text.replace("</svg>", `${BADGE}</svg>`))}`;
      if (this.calling) this.setIcon();
    });
  }

  get sound() { return soundOn(); }
  get notify() { return localStorage.getItem(NOTIFY) === "on" && "Notification" in window && Notification.permission === "granted"; }

  // The page's title when nobody is called (the table's name).
  setTitle(title) {
    this.title = title;
    this.show();
  }

  // Whether the table waits for this viewer now; `what` says for what ("Your turn").
  update(waiting, what = "Your turn") {
    const was = this.calling;
    this.calling = waiting;
    this.what = what;
    this.show();
    if (waiting && !was) this.call();
  }

  show() {
    document.title = this.calling ? `${this.what}! · ${this.title}` : this.title;
    this.setIcon();
  }

  setIcon() {
    if (!this.link) return;
    const href = this.calling && this.alert ? this.alert : this.plain;
    if (this.link.href !== href) this.link.href = href;
  }

  call() {
    if (this.sound) {
      play("chime");
      this.chimes += 1;
      this.soundButton?.setAttribute("data-chimes", String(this.chimes));
    }
    if (this.notify && document.hidden) {
      const note = new Notification(`${this.what}!`, { body: this.title, tag: location.pathname });
      note.onclick = () => { window.focus(); note.close(); };
    }
  }

  // The sound and notification toggles, for the page's header.
  controls(el) {
    const sound = el("button", { type: "button", class: "toggle", id: "sound-toggle", "aria-pressed": String(this.sound),
      "aria-label": "Sound", title: "Sounds of the table, and a chime when it is your turn" });
    const paintSound = () => {
      sound.replaceChildren(icon(this.sound ? "sound" : "mute"), el("span", { class: "toggle-text" }, this.sound ? "Sound on" : "Sound off"));
      sound.setAttribute("aria-pressed", String(this.sound));
    };
    const level = el("input", { type: "range", id: "volume", class: "volume", min: 0, max: 100, step: 5,
      value: Math.round(volume() * 100), "aria-label": "Volume", title: "Volume of the table's sounds" });
    sound.addEventListener("click", () => {
      setSound(!this.sound);
      paintSound();
      level.hidden = !this.sound;
      if (this.sound) play("chime");  // a click may start audio: this is the moment to
    });
    level.addEventListener("change", () => { setVolume(Number(level.value) / 100); play("discard", true); });
    level.hidden = !this.sound;
    paintSound();
    this.soundButton = sound;
    const buttons = [sound, level];
    if ("Notification" in window) {
      const bell = el("button", { type: "button", class: "toggle", id: "notify-toggle", "aria-label": "Alerts",
        title: "Show a notification when it is your turn and this tab is hidden" });
      const paintBell = () => {
        bell.replaceChildren(icon("bell"), el("span", { class: "toggle-text" }, this.notify ? "Alerts on" : "Alerts off"));
        bell.setAttribute("aria-pressed", String(this.notify));
      };
      bell.addEventListener("click", async () => {
        if (this.notify) localStorage.setItem(NOTIFY, "off");
        else if ((await Notification.requestPermission()) === "granted") localStorage.setItem(NOTIFY, "on");
        paintBell();
      });
      paintBell();
      buttons.push(bell);
    }
    return buttons;
  }
}
