"""Thirty-One events in words: every settlement says who loses what, and why.

Narration is built from an event as one seat sees it (``Event.view``), so it can
only tell that seat what the seat may know.  When a seat is named ``YOU`` the
sentences speak to that player.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tripletopper.engine import YOU, counted, named, phrase
from tripletopper.games.thirty_one.scoring import (
    DEALT_31,
    DECLARED_31,
    KNOCKER_LOWEST,
    LOWEST,
    TIED_LOWEST,
    TIED_WITH_KNOCKER,
    format_value,
    organs_left,
)


def describe_event(event: Mapping[str, Any], names: Sequence[str]) -> str:
    """A Thirty-One event as a sentence (or a few lines, for a settlement)."""
    kind = event.get("type")
    who = names[event["seat"]] if "seat" in event else ""
    if kind == "hand_started":
        dealer = names[event["dealer"]]
        deals = phrase(dealer, "deals", "deal")
        text = f"Hand {event['hand']}: {deals}; {event['face_up']} is face up."
        if "cards" in event:
            text += f" You hold {' '.join(event['cards'])}."
        for holder in event.get("dealt_31", []):
            dealt = phrase(names[holder["seat"]], "was", "were")
            text += f" {dealt} dealt 31 ({' '.join(holder['cards'])})!"
        return text
    if kind == "played":
        return f"{phrase(who, 'plays', 'play')} the hand."
    if kind == "declared":
        what = "a dealt 31" if event["dealt"] else "31"
        return f"{phrase(who, 'declares', 'declare')} {what}: {' '.join(event['cards'])}!"
    if kind == "drew":
        if "card" in event:
            return f"{phrase(who, 'draws', 'draw')} {event['card']}."
        return f"{phrase(who, 'draws', 'draw')} from the stock."
    if kind == "took":
        return f"{phrase(who, 'takes', 'take')} {event['card']} from the discard pile."
    if kind == "discarded":
        return f"{phrase(who, 'discards', 'discard')} {event['card']}."
    if kind == "knocked":
        return f"{phrase(who, 'knocks', 'knock')}! Everyone else has one more turn."
    if kind == "stopped":
        return f"{phrase(who, 'stops', 'stop')}: the stock is empty, so the hands are shown."
    if kind == "hand_over":
        return describe_settlement(event, names)
    if kind == "game_over":
        winner = names[event["winners"][0]]
        return f"Game over: {phrase(winner, 'wins', 'win')}, the last player standing."
    return str(kind)


def _join(items: Sequence[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def _possessive(name: str) -> str:
    return "your" if name == YOU else "the"


def _reason(loss: Mapping[str, Any], event: Mapping[str, Any], names: Sequence[str]) -> str:
    reason = loss["reason"]
    lowest = format_value(event.get("lowest", 0))
    if reason == LOWEST:
        return f"the lowest hand, {lowest}"
    if reason == TIED_LOWEST:
        return f"tied for the lowest hand, {lowest}"
    if reason == TIED_WITH_KNOCKER:
        return f"tied for the lowest hand, {lowest}, with the knocker, who is saved"
    if reason == KNOCKER_LOWEST:
        return f"knocked and had the lowest hand alone, {lowest}"
    seats = event.get("declarers", [])
    declarers = _join([named(names[s]) for s in seats])
    if reason == DEALT_31:
        plural = len(seats) > 1 or names[seats[0]] == YOU
        return f"{declarers} {'were' if plural else 'was'} dealt 31"
    assert reason == DECLARED_31
    text = f"{declarers} declared 31"
    if loss["seat"] == event.get("knocker"):
        text += "; the knocker loses just one"
    return text


def _loss_line(loss: Mapping[str, Any], event: Mapping[str, Any], names: Sequence[str]) -> str:
    seat = loss["seat"]
    name = names[seat]
    amount = "a life" if loss["lives"] == 1 else counted(loss["lives"], "life", "lives")
    reason = _reason(loss, event, names)
    if event["void"]:
        return f"  {name} would lose {amount} ({reason})."
    line = f"  {phrase(name, 'loses', 'lose')} {amount} ({reason})"
    organs = loss["organs"]
    if organs:
        plural = len(organs) > 1 or organs == ["kidneys"]
        line += f": {_possessive(name)} {_join(organs)} {'go' if plural else 'goes'} into the kitty"
        if loss["out"]:
            line += f", and {'you are' if name == YOU else name + ' is'} out"
        elif loss["circling_the_drain"]:
            line += f"; {'you are' if name == YOU else name + ' is'} now circling the drain"
        else:
            line += f" ({_join(organs_left(event['lives'][seat]))} left)"
    elif loss["out"]:
        line += f": {'you were' if name == YOU else name + ' was'} circling the drain, and "
        line += "you are out" if name == YOU else "is out"
    return line + "."


def describe_settlement(event: Mapping[str, Any], names: Sequence[str]) -> str:
    """A settlement: the hands shown, then each loss with its reason and the organs it costs."""
    ended_by = event["ended_by"]
    knocker = event.get("knocker")
    lines = []
    if ended_by in ("31", "dealt_31"):
        declarers = _join([named(names[s]) for s in event["declarers"]])
        what = "Dealt 31" if ended_by == "dealt_31" else "31"
        lines.append(f"{what}! Everyone but {declarers} loses a life.")
    else:
        head = "Showdown"
        if ended_by == "stop":
            head += " (the stock ran out"
            head += (
                f"; {phrase(names[knocker], 'has', 'have')} knocked)"
                if knocker is not None
                else ")"
            )
        elif knocker is not None:
            whose = "your" if names[knocker] == YOU else f"{names[knocker]}'s"
            head += f" after {whose} knock"
        lines.append(head + ":")
    for shown in event["shown"]:
        line = (
            f"  {phrase(names[shown['seat']], 'shows', 'show')} {' '.join(shown['cards'])}: "
            f"{format_value(shown['value'])}"
        )
        if shown["counts"] != shown["value"]:
            line += f", an undeclared 31, so it counts {format_value(shown['counts'])}"
        lines.append(line + ".")
    for seat in event["saved"]:
        saved = phrase(names[seat], "is", "are")
        lines.append(f"  {saved} the knocker and tied for the lowest hand: saved.")
    for loss in event["losses"]:
        lines.append(_loss_line(loss, event, names))
    if event["void"]:
        lines.append(
            "  That would leave nobody in the game, so the hand is void: nobody loses "
            "anything and the same dealer deals again."
        )
    return "\n".join(lines)
