"""3UP 3DOWN events told in English, by value (colors play no part, so narration omits them)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tripletopper.cards.three_up import RANK, RANK_NAMES, THREE_UP
from tripletopper.engine import YOU, named, phrase


def values(names: Sequence[str]) -> str:
    """``["7R1", "7G2"]`` -> ``"7 7"``: cards by value, as players name them."""
    return " ".join(RANK_NAMES[RANK[THREE_UP.parse(name)]] for name in names)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def describe_event(event: Mapping[str, Any], names: Sequence[str]) -> str:
    """A 3UP 3DOWN event (as one seat sees it) as a sentence."""
    kind = event.get("type")
    who = names[event["seat"]] if "seat" in event else ""
    if kind == "chose":
        if "up" in event:
            return f"You lay {values(event['up'])} face up as your 3UP cards."
        return f"{phrase(who, 'has', 'have')} chosen 3UP cards."
    if kind == "revealed":
        shown = "; ".join(f"{named(names[s])}: {values(up)}" for s, up in enumerate(event["up"]))
        first = phrase(names[event["first"]], "leads", "lead")
        return f"Everyone has chosen their 3UP cards ({shown}). {first}."
    if kind == "played":
        cards = values(event["cards"])
        extra = " (extra play)" if event.get("extra") else ""
        if event["from"] == "3DOWN":
            return f"{phrase(who, 'flips', 'flip')} a 3DOWN card: {cards}, played{extra}."
        source = " from 3UP" if event["from"] == "3UP" else ""
        return f"{phrase(who, 'plays', 'play')} {cards}{source}{extra}."
    if kind == "cleared":
        size = _count(event["cards"], "card")
        if event["by"] == "run":
            text = f"Three or more of a value in a row: the pile ({size}) is cleared."
        else:
            kind = {"C": "Clear", "C+1": "Clear+1", "C+2": "Clear+2"}[event["by"]]
            text = f"The {kind} clears the pile ({size}) out of the game."
        if event["extra_plays"]:
            owed = _count(event["extra_plays"], "extra play")
            text += f" {phrase(who, 'has', 'have')} {owed} to make."
        return text
    if kind == "picked_up":
        cards = values(event["cards"])
        if event["flipped"]:
            if "flipped_card" in event:
                flipped = values([event["flipped_card"]])
                return (
                    f"You flip {flipped}, below the {event['below']}: you pick it up "
                    f"(unseen by the others) with the pile: {cards}."
                )
            return (
                f"{who} flips a 3DOWN card below the {event['below']} and picks it up unseen, "
                f"with the pile: {cards}."
            )
        picks = "pick" if who == YOU else "picks"
        return f"{who} cannot play and {picks} up the pile: {cards}."
    if kind == "drew":
        if "cards" in event:
            return f"You draw {values(event['cards'])}."
        return f"{phrase(who, 'draws', 'draw')} {_count(event['count'], 'card')}."
    if kind == "out":
        places = {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth"}
        return f"{phrase(who, 'is', 'are')} out of cards: {places[event['place']]} place!"
    if kind == "turn_limit":
        return f"The game stops at the {event['turns']}-turn limit."
    if kind == "game_over":
        if len(event["winners"]) > 1:
            winners = " and ".join(named(names[s]) for s in event["winners"])
            return f"Game over: {winners} share the win."
        return f"Game over: {phrase(names[event['winners'][0]], 'wins', 'win')}."
    return str(kind)
