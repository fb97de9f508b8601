"""Triple Topper Toe events in words: plays, wasted plays, reshuffles and the Quiz Show.

Narration is built from an event as one seat sees it (``Event.view``); a seat
named ``YOU`` is spoken to.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tripletopper.engine import YOU, counted, phrase
from tripletopper.games.toe.questions import LETTERS

ENDINGS = {
    "line": "four in a line",
    "full": "the board is full",
    "max_turns": "the turn limit is reached",
    "max_questions": "the question limit is reached",
}
AFTER_A_DRAW = {
    "more marks": "more marks win",
    "tiebreaker": "a tiebreaker question decided",
    "tiebreak unanswered": "nobody answered the tiebreaker",
}


def why_ended(reason: str) -> str:
    """A game's ``reason`` in words: ``"full, more marks"`` -> ``"the board is full; more
    marks win"``."""
    first, _, then = reason.partition(", ")
    text = ENDINGS.get(first, first)
    return f"{text}; {AFTER_A_DRAW.get(then, then)}" if then else text


def describe_event(event: Mapping[str, Any], names: Sequence[str]) -> str:
    """A Toe event as a sentence."""
    kind = event.get("type")
    who = names[event["seat"]] if event.get("seat") is not None else ""
    if kind == "drew":
        return f"{phrase(who, 'draws', 'draw')} {event.get('card', 'a card')}."
    if kind == "discarded":
        if "cards" in event:
            draws = "draw" if who == YOU else "draws"
            return (
                f"{phrase(who, 'discards', 'discard')} {' '.join(event['cards'])} face down "
                f"and {draws} {' '.join(event['drew'])}."
            )
        return f"{phrase(who, 'discards', 'discard')} {event['count']} cards face down and refills."
    if kind == "played":
        card = event["card"]
        if event["cell"] is None:
            return (
                f"{phrase(who, 'plays', 'play')} {card}: it fits no free cell, the turn is wasted."
            )
        where = f" on {event['cell']}" if event["cell"] != card else ""
        return f"{phrase(who, 'plays', 'play')} {card}{where} ({event['mark']})."
    if kind == "reshuffled":
        return (
            f"The stock ran out: discards and played cards are shuffled into a new stock of "
            f"{event['stock_size']}."
        )
    if kind == "question":
        head = "Tiebreaker question" if event.get("tiebreak") else f"Question {event['number']}"
        category = f" ({event['category']})" if event.get("category") else ""
        choices = "  ".join(f"{LETTERS[i]}) {c}" for i, c in enumerate(event["choices"]))
        return f"{head}{category}: {event['text']}\n  {choices}"
    if kind == "buzzed":
        return f"{phrase(who, 'buzzes', 'buzz')} in!"
    if kind == "timed_out":
        if event["phase"] == "buzz":
            return "Nobody buzzed in time: the question is discarded."
        return f"{phrase(who, 'does', 'do')} not answer in time."
    if kind == "answered":
        earner = names[event["earned_by"]]
        verdict = "right" if event["correct"] else "wrong"
        said = f"{phrase(who, 'answers', 'answer')} {event['choice']}: " if event["choice"] else ""
        if not said:
            said = f"{phrase(who, 'gives', 'give')} no answer: "
        reveal = f"{event['answer']}) {event['answer_text']}"
        if event.get("tiebreak"):
            wins = phrase(earner, "wins", "win")
            return f"{said}{verdict} (the answer is {reveal}). {wins} the tiebreaker."
        return (
            f"{said}{verdict} (the answer is {reveal}). {phrase(earner, 'earns', 'earn')} a turn."
        )
    if kind == "tiebreak":
        marks = event["marks"]
        return f"A draw with {counted(marks[0], 'mark')} each: one tiebreaker question decides."
    if kind == "game_over":
        reason = event.get("reason", "")
        if not event["winners"]:
            return f"Game over: a draw ({why_ended(reason)})."
        winner = names[event["winners"][0]]
        if event.get("line"):
            line = " ".join(event["line"])
            return f"Game over: {phrase(winner, 'wins', 'win')} with the line {line}."
        marks = event.get("marks", [0, 0])
        mine, theirs = marks[event["winners"][0]], marks[1 - event["winners"][0]]
        return (
            f"Game over: {why_ended(reason)}. {phrase(winner, 'wins', 'win')} with "
            f"{counted(mine, 'mark')} to {theirs}."
        )
    return str(kind)
