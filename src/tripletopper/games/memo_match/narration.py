"""Memo Match events in words.

A flip or a miss is told by position, never by the faces of cards that are
turned back (remembering them is the game); pairs taken and bonus cards may be
named.  A seat named ``YOU`` is spoken to.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tripletopper.engine import counted, named, phrase


def describe_event(event: Mapping[str, Any], names: Sequence[str]) -> str:
    """A Memo Match event as a sentence."""
    kind = event.get("type")
    who = names[event["seat"]] if "seat" in event else ""
    if kind == "flipped":  # the face is drawn while the card is up, never narrated
        return f"{phrase(who, 'flips', 'flip')} {event['pos']}."
    if kind == "matched":
        where = " and ".join(event["positions"])
        cards = f" ({' + '.join(event['cards'])})" if "cards" in event else ""
        if event["triple"]:
            return (
                f"A triple match at {where}{cards}! {phrase(who, 'takes', 'take')} both, "
                "then 3 more face-down cards, and turns again."
            ).replace("and turns", "and turn" if who == "You" else "and turns")
        return f"A match at {where}{cards}: {phrase(who, 'takes', 'take')} both and " + (
            "turn again." if who == "You" else "turns again."
        )
    if kind == "missed":  # positions only: remembering the faces is the game
        where = " and ".join(event["positions"])
        if event["swapped"]:
            return f"No match: the cards at {where} are turned back and trade places."
        return f"No match: the cards at {where} are turned face down again."
    if kind == "bonus_taken":
        return f"{phrase(who, 'takes', 'take')} {event['card']} from {event['pos']} as a bonus."
    if kind == "declared":
        left = len(event["table"])
        shown = "The last card is" if left == 1 else f"All {left} cards are"
        return f'{phrase(who, "declares", "declare")} "no matches"! {shown} turned face up.'

    if kind == "nobody_to_spot":
        return "Nobody is left who may spot a pair."
    if kind == "pair_left":
        return (
            f"But {' and '.join(event['positions'])} ({' + '.join(event['cards'])}) match: "
            "the table is not cleared."
        )
    if kind == "wrong_claim":
        return (
            f"{phrase(who, 'claims', 'claim')} {' and '.join(event['positions'])} "
            f"({' + '.join(event['cards'])}): not a pair! "
            f"{phrase(who, 'may', 'may')} not spot again this game."
        )
    if kind == "spotted":
        declarer = names[event["declarer"]]
        return (
            f"{phrase(who, 'spots', 'spot')} {' and '.join(event['positions'])} "
            f"({' + '.join(event['cards'])}) and {'take' if who == 'You' else 'takes'} them. "
            f"{phrase(declarer, 'is', 'are')} out of the game."
        )
    if kind == "relaid":
        if event["cards"] == 1:
            return "The last card is laid out face down again."
        return f"The {event['cards']} cards left are shuffled and laid out face down again."
    if kind == "passed":
        return f"{phrase(who, 'sees', 'see')} no pair."
    if kind == "time_up":
        return "Time is up: nobody found a pair."
    if kind == "took_all":
        left = len(event["cards"])
        what = "the last card" if left == 1 else f"all {left} remaining cards"
        return f"{phrase(who, 'takes', 'take')} {what}."
    if kind == "turn_limit":
        left = event["left_on_table"]
        stay = "stays" if left == 1 else "stay"
        return (
            f"The turn limit is reached after {counted(event['turns'], 'turn')}; "
            f"{counted(left, 'card')} {stay} on the table."
        )
    if kind == "playoff":
        leaders = " and ".join(named(names[s]) for s in event["leaders"])
        text = (
            f"{leaders[0].upper()}{leaders[1:]} share the lead: they play off on the other "
            f"players' {counted(event['cards'], 'card')}, laid out face down."
        )
        out = event.get("out")
        if out:
            who_out = " and ".join(named(names[s]) for s in out)
            verb = phrase(names[out[0]], "is", "are") if len(out) == 1 else f"{who_out} are"
            text += f" {verb[0].upper()}{verb[1:]} out of the game: no playoff turns."
        return text
    if kind == "no_playoff":
        leaders = " and ".join(named(names[s]) for s in event["leaders"])
        return (
            f"{leaders[0].upper()}{leaders[1:]} share the lead, but all are out of the game: "
            "no playoff is played."
        )
    if kind == "game_over":
        if "cleared" in event:
            if event["cleared"]:
                return f"Table cleared in {counted(event['turns'], 'turn')}!"
            return f"Game over after {counted(event['turns'], 'turn')}: the table was not cleared."
        if len(event["winners"]) > 1:
            winners = " and ".join(named(names[s]) for s in event["winners"])
            return f"Game over: {winners} share the win."
        return f"Game over: {phrase(names[event['winners'][0]], 'wins', 'win')}."
    return str(kind)
