"""Thirty-Two events in words: turns, knocks, declarations and who pays whom.

Narration is built from an event as one seat sees it (``Event.view``), so it can
only tell that seat what the seat may know; a seat named ``YOU`` is spoken to.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tripletopper.engine import YOU, counted, named, phrase
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
            text = f"Tied for the lead: {_and([named(n) for n in leaders])}"
        else:
            text = phrase(leaders[0], "leads", "lead")
        if chasers:
            verb = "was" if len(chasers) == 1 and chasers[0] != YOU else "were"
            text += (
                f", but {_and([named(n) for n in chasers])} {verb} left owed enough counters "
                "to catch up"
            )
        return text + ". They play on until one player has the most."
    if kind == "closed":
        return "The table is closed."
    if kind == "game_over":
        if len(event["winners"]) > 1:
            return f"Game over: {_and([named(names[s]) for s in event['winners']])} share the win."
        return f"Game over: {phrase(names[event['winners'][0]], 'wins', 'win')}."
    return str(kind)


def payment(p: Mapping[str, Any], names: Sequence[str]) -> str:
    """``"Medium bot 1 pays 3 counters to Medium bot 3"``: the amount before the payee, so a
    name ending in a number never runs into the amount."""
    payer = names[p["from"]]
    to = named(names[p["to"]])
    if p["paid"] < p["due"]:
        all_of = "all you had" if payer == YOU else "all they had"
        return (
            f"{phrase(payer, 'pays', 'pay')} {p['paid']} of the {counted(p['due'], 'counter')} "
            f"due to {to} ({all_of}; the rest is lost)"
        )
    return f"{phrase(payer, 'pays', 'pay')} {counted(p['paid'], 'counter')} to {to}"


def _and(names: Sequence[str]) -> str:
    return ", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1 else names[0]


def _describe_settlement(event: Mapping[str, Any], names: Sequence[str]) -> str:
    lines = []
    for info in event["shown"]:
        lines.append(
            f"  {phrase(names[info['seat']], 'shows', 'show')} {' '.join(info['cards'])}: "
            f"{counted(info['score'], 'point')}, {counted(info['wilds'], 'wild')}."
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
            lines.insert(0, f"Showdown: {named(knocker)} (the knocker) beat everyone.")
            lines.append(
                f"  Each opponent pays {KNOCK_BASE}, plus {KNOCK_PER_WILD} for each wild they "
                "hold beyond the knocker's."
            )
        else:
            lines.insert(0, f"Showdown: {named(knocker)} (the knocker) tied or lost.")
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
        mucked = ", ".join(named(names[s]) for s in event["mucked"])
        lines.append(f"  Mucked (not shown): {mucked}.")
    if "own_cards" in event:
        lines.append(
            f"  (Your mucked hand: {' '.join(event['own_cards'])}, "
            f"{counted(event['own_score'], 'point')}.)"
        )
    for p in event["payments"]:
        lines.append(f"  {payment(p, names)}.")
    for seat in event["eliminated"]:
        out = phrase(names[seat], "has no counters left and is out", "have no counters left: out")
        lines.append(f"  {out}.")
    return "\n".join(lines)
