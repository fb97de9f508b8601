// The lobby's words for the games: a one-line pitch for each, and each option in plain words
// (its label, its choices, how a table that changed it is summed up in the lists).  The
// option schema from GET /api/games stays the truth (names, types, ranges, defaults); a game
// or an option missing here is shown from the schema's own help text.

export const INTRO = "Triple Topper is a family of card games around one deck of 125 cards, "
  + "each a color, a shape and a number. Play them here in your browser: against bots in one "
  + "click, or with friends by sending a link. No account needed.";

export const PITCHES = {
  "thirty-two": "Three cards, wild values and counters: build the best hand and knock before anyone beats you.",
  "thirty-one": "The classic knock game with a standard deck, played for your life: every lost hand costs an organ.",
  toe: "Tic-tac-toe on a 4x4x4 cube, where the cards in your hand decide which cells you may claim.",
  "memo-match": "Concentration where two cards pair up when they share two of color, shape and number.",
  "three-up-three-down": "Shed every card: your hand, then three face up, then three face down nobody has seen.",
};

// label: what the form says; choices: value -> words; short(value): the lists' summary of a
// table that set it otherwise than the default; hidden: not offered by the room's form.
export const OPTIONS = {
  "thirty-two": {
    counters: { label: "Counters each player starts with", short: (v) => `${v} counters each` },
    no_wilds: { label: "No wild cards (black, blob and ? count as plain values, worth 5)", short: () => "no wilds" },
    cap_at_32: { label: "Scores above 32 count as 32", short: (v) => (v ? "scores capped at 32" : "scores not capped") },
    end: {
      label: "The game ends",
      choices: { first_elimination: "when the first player runs out of counters", open: "when one player holds every counter" },
      short: (v) => (v === "open" ? "played to the last counter" : "ends at the first player out"),
    },
  },
  "thirty-one": {
    three_of_a_kind: {
      label: "Three of a kind",
      choices: { none: "counts like any hand (its best suit)", "30.5": "is worth 30½, beaten only by 31" },
      short: (v) => (v === "30.5" ? "three of a kind 30½" : "three of a kind plain"),
    },
    manual_31: { label: "Declare a 31 yourself (an undeclared 31 counts 30)", short: () => "31 declared by hand" },
  },
  toe: {
    quiz: { label: "Quiz Show: earn each turn by answering a trivia question", short: () => "Quiz Show" },
    max_turns: { label: "The game is a draw after this many turns", short: (v) => `draw after ${v} turns` },
    buzz_seconds: { label: "Seconds to buzz in before a question is dropped", short: (v) => `${v} s to buzz` },
    answer_seconds: { label: "Seconds to answer after buzzing in (0: no limit)", short: (v) => `${v} s to answer` },
    max_questions: { label: "The game is a draw after this many questions", short: (v) => `at most ${v} questions` },
    questions: { hidden: true, short: (v) => `questions: ${v}` },
  },
  "memo-match": {
    wilds: { label: "Black, blob and ? are wild (each matches any value of its kind)", short: (v) => (v ? "wilds" : "no wilds") },
    reveal: {
      label: "A flipped card is seen by",
      choices: { public: "everyone", private: "only the player who flips it" },
      short: (v) => (v === "private" ? "flips seen by the flipper only" : "flips seen by all"),
    },
    swap_on_miss: { label: "Hard mode: two cards that do not match swap places when turned back", short: () => "hard mode (swaps)" },
    spot_seconds: { label: "Seconds to spot a pair after someone says \u201cno matches\u201d", short: (v) => `${v} s to spot` },
    max_turns: { label: "Safety limit: the game ends after this many turns", short: (v) => `at most ${v} turns` },
  },
  "three-up-three-down": {
    colors: {
      label: "Cards in the deck (fewer for a quicker game)",
      choices: {
        RGB: "all 84 (red, green and blue)", RG: "60: red and green", RB: "59: red and blue", GB: "49: green and blue",
        R: "35: red only", G: "25: green only", B: "24: blue only",
      },
      short: (v) => `${v} deck`,
    },
    rank_all: { label: "Play on until everyone is ranked (the last player left loses)", short: () => "play to the last" },
    max_turns: { label: "Safety limit: the game ends after this many turns (0: none)", short: (v) => `at most ${v} turns` },
  },
};

export function optionWords(game, option) {
  const words = (OPTIONS[game] || {})[option.name] || {};
  return {
    label: words.label || option.help,
    choice: (value) => (words.choices && words.choices[value]) || String(value).replaceAll("_", " "),
    short: (value) => (words.short ? words.short(value) : `${option.name.replaceAll("_", " ")}: ${value}`),
    hidden: Boolean(words.hidden),
  };
}
