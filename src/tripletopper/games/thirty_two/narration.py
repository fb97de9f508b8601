"""Thirty-Two events in words: turns, knocks, declarations and who pays whom.

Narration is built from an event as one seat sees it (``Event.view``), so it can
only tell that seat what the seat may know; a seat named ``YOU`` is spoken to.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tripletopper.engine import YOU, phrase
from tripletopper.games.thirty_two.scoring import (
    DECLARE_BASE,
    DECLARE_PER_WILD,
    KNOCK_BASE,
    KNOCK_PER_WILD,
)


def describe_event(event: Mapping[str, Any], names: Sequence[str]) -> str:
    """A Thirty-Two event as a sentence (or a few lines, for a settlement)."""
    kind = event.get("type")
    who = names[event["seat"]] if "seat" in event else ""
    if kind == "hand_started":
        dealer = names[event["dealer"]]
        deals = phrase(dealer, "deals", "deal")
        text = f"Hand {event['hand']}: {deals}; {event['face_up']} is face up."
        if event.get("playoff"):
            text = "Playoff. " + text
        if "cards" in event:
            text += f" You hold {' '.join(event['cards'])}."
        return text
    if kind == "drew":
        what = event.get("card", "a card")
        return f"{phrase(who, 'draws', 'draw')} {what}."
    if kind == "took":
        return f"{phrase(who, 'takes', 'take')} {event['card']} from the discard pile."
    if kind == "discarded":
        return f"{phrase(who, 'discards', 'discard')} {event['card']}."
    if kind == "knocked":
        return f"{phrase(who, 'knocks', 'knock')}! Everyone else has one more turn."
    if kind == "reshuffled":
        size = event["stock_size"]
        return f"The stock ran out: the discards are shuffled into a new stock of {size}."
    if kind == "hand_over":
        return _describe_settlement(event, names)
    if kind == "playoff":
        leaders = [names[s] for s in event["leaders"]]
        chasers = [names[s] for s in event["seats"] if s not in event["leaders"]]
        if len(leaders) > 1:
            text = f"Tied for the lead: {_and(leaders)}"
        else:
            text = phrase(leaders[0], "leads", "lead")
        if chasers:
            verb = "was" if len(chasers) == 1 and chasers[0] != YOU else "were"
            text += f", but {_and(chasers)} {verb} left owed enough counters to catch up"
        return text + ". They play on until one player has the most."
    if kind == "closed":
        return "The table is closed."
    if kind == "game_over":
        winners = " and ".join(names[s] for s in event["winners"])
        if len(event["winners"]) > 1:
            return f"Game over: {winners} share the win."
        return f"Game over: {phrase(winners, 'wins', 'win')}."
    return str(kind)


def _and(names: Sequence[str]) -> str:
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]


def _describe_settlement(event: Mapping[str, Any], names: Sequence[str]) -> str:
    lines = []
    for info in event["shown"]:
        lines.append(
            f"  {phrase(names[info['seat']], 'shows', 'show')} {' '.join(info['cards'])}: "
            f"{info['score']} points, {info['wilds']} wild(s)."
        )
    if event["ended_by"] == "thirty-two":
        lines.insert(0, f"{phrase(names[event['declarer']], 'declares', 'declare')} Thirty-two!")
        lines.append(
            f"  Everyone else pays {DECLARE_BASE}, plus {DECLARE_PER_WILD} for each wild they "
            "hold beyond the declarer's."
        )
    else:
        knocker = names[event["knocker"]]
        if event["knocker_won"]:
            lines.insert(0, f"Showdown: {knocker} (the knocker) beat everyone.")
            lines.append(
                f"  Each opponent pays {KNOCK_BASE}, plus {KNOCK_PER_WILD} for each wild they "
                "hold beyond the knocker's."
            )
        else:
            lines.insert(0, f"Showdown: {knocker} (the knocker) tied or lost.")
            lines.append(
                f"  The knocker pays {KNOCK_BASE} to each who tied or beat the knocker, plus "
                f"{KNOCK_PER_WILD} for each wild "
                "the knocker holds beyond theirs; the others neither pay nor collect."
            )
        for cut in event["cuts"]:
            lines.append(
                f"  {phrase(names[cut['seat']], 'cuts', 'cut')} {cut['card']} for the order "
                "of payment."
            )
    if event["mucked"]:
        lines.append("  Mucked (not shown): " + ", ".join(names[s] for s in event["mucked"]) + ".")
    if "own_cards" in event:
        lines.append(
            f"  (Your mucked hand: {' '.join(event['own_cards'])}, {event['own_score']} points.)"
        )
    for p in event["payments"]:
        line = f"  {phrase(names[p['from']], 'pays', 'pay')} {names[p['to']]} {p['paid']}"
        if p["paid"] < p["due"]:
            line += f" of the {p['due']} due (all they had; the rest is lost)"
        lines.append(line + ".")
    for seat in event["eliminated"]:
        out = phrase(names[seat], "has no counters left and is out", "have no counters left: out")
        lines.append(f"  {out}.")
    return "\n".join(lines)
