// Short sounds for what happens at the table, synthesized with the Web Audio API (no sound
// file, no network): a draw (a soft swish of noise), a discard or play (a wooden tock), a
// knock, a clear or a declaration (two knocks), a win (a rising arpeggio), a loss (two falling
// notes), and the turn chime.  Played only with the header's Sound on, at the volume its
// slider sets (both remembered in localStorage: tt-sound, tt-volume).
// document.body.dataset.sounds lists the sounds played, newest last (tests read it).

const SOUND = "tt-sound";
const VOLUME = "tt-volume";
let audio = null;

export function soundOn() { return localStorage.getItem(SOUND) === "on"; }
export function setSound(on) { localStorage.setItem(SOUND, on ? "on" : "off"); }
export function volume() {
  const stored = Number(localStorage.getItem(VOLUME));
  return localStorage.getItem(VOLUME) === null || !Number.isFinite(stored) ? 0.6 : Math.max(0, Math.min(1, stored));
}
export function setVolume(value) { localStorage.setItem(VOLUME, String(value)); }

function context() {
  audio = audio || new AudioContext();
  if (audio.state === "suspended") audio.resume();
  return audio;
}

function tone(ctx, out, hz, at, length, type = "sine", peak = 0.3) {
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = type;
  osc.frequency.value = hz;
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(peak, at + 0.012);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(gain).connect(out);
  osc.start(at);
  osc.stop(at + length + 0.02);
}

function noise(ctx, out, at, length, hz, peak = 0.35) {
  const samples = Math.ceil(ctx.sampleRate * length);
  const buffer = ctx.createBuffer(1, samples, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  let seed = 12345;  // the same swish each time: a tiny generator, not Math.random
  for (let i = 0; i < samples; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    data[i] = (seed / 0x3fffffff - 1) * (1 - i / samples);
  }
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  const filter = ctx.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = hz;
  filter.Q.value = 0.9;
  const gain = ctx.createGain();
  gain.gain.setValueAtTime(peak, at);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  source.connect(filter).connect(gain).connect(out);
  source.start(at);
}

const SOUNDS = {
  draw: (ctx, out, t) => noise(ctx, out, t, 0.12, 2800, 0.4),
  discard: (ctx, out, t) => { tone(ctx, out, 190, t, 0.09, "triangle", 0.45); noise(ctx, out, t, 0.04, 1200, 0.2); },
  knock: (ctx, out, t) => {
    for (const at of [0, 0.12]) { tone(ctx, out, 130, t + at, 0.07, "sine", 0.6); noise(ctx, out, t + at, 0.03, 700, 0.3); }
  },
  win: (ctx, out, t) => [523, 659, 784, 1047].forEach((hz, i) => tone(ctx, out, hz, t + i * 0.09, 0.16, "triangle", 0.3)),
  loss: (ctx, out, t) => { tone(ctx, out, 392, t, 0.2, "triangle", 0.3); tone(ctx, out, 294, t + 0.2, 0.32, "triangle", 0.3); },
  chime: (ctx, out, t) => { tone(ctx, out, 660, t, 0.13, "sine", 0.25); tone(ctx, out, 880, t + 0.14, 0.13, "sine", 0.25); },
};

// Play one of SOUNDS (if Sound is on; `always`: a preview the listener asked for).
export function play(name, always = false) {
  if (!SOUNDS[name] || (!always && !soundOn()) || volume() <= 0) return;
  const played = (document.body.dataset.sounds || "").split(" ").filter(Boolean);
  document.body.dataset.sounds = [...played.slice(-30), name].join(" ");
  try {
    const ctx = context();
    const out = ctx.createGain();
    out.gain.value = volume();
    out.connect(ctx.destination);
    SOUNDS[name](ctx, out, ctx.currentTime + 0.01);
  } catch (e) { /* no audio here: the table still shows everything */ }
}

// The sound of an update's events, the most telling one: the end of the game (a win for the
// viewer's seat, else a loss; a spectator hears a win), a knock or a clear, a discard or a
// play, a draw.
const KNOCKS = new Set(["knocked", "cleared", "declared", "matched", "spotted", "buzzed", "stopped"]);
const PLAYS = new Set(["discarded", "played", "flipped", "bonus_taken", "chose"]);
const DRAWS = new Set(["drew", "took", "picked_up", "took_all"]);

export function soundOf(events, seat) {
  const types = new Set(events.map((e) => e.type));
  const over = events.find((e) => e.type === "game_over");
  if (over) return seat === null || (over.winners || []).includes(seat) ? "win" : "loss";
  if ([...types].some((t) => KNOCKS.has(t))) return "knock";
  if ([...types].some((t) => PLAYS.has(t))) return "discard";
  if ([...types].some((t) => DRAWS.has(t))) return "draw";
  return null;
}
