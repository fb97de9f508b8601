"""Thirty-One in the terminal: everyone's organs, the discard pile's top, your hand, its value."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from tripletopper.cards import STANDARD
from tripletopper.cli.cards import card_text, cards_text, squared_pile_text
from tripletopper.engine import Action
from tripletopper.games.thirty_one import ORGANS, ThirtyOne
from tripletopper.games.thirty_one.scoring import format_value

ORGAN_STYLE = {"liver": "bold dark_orange3", "kidneys": "bold magenta", "heart": "bold red"}


def organs_text(left: Sequence[str], seat: int, obs: dict[str, Any]) -> Text:
    """The organs a player still has and those gone into the kitty (liver goes first),
    or that they are circling the drain, or out: in words, so color is only a help."""
    if seat in obs["out"]:
        return Text("out", style="dim")
    if not left:
        return Text("circling the drain (no organs left)", style="bold yellow")
    text = Text()
    for organ in left:
        if text:
            text.append(" ")
        text.append(organ, style=ORGAN_STYLE[organ])
    gone = [organ for organ in ORGANS if organ not in left]
    if gone:
        text.append(f"  ({' and '.join(gone)} gone)", style="dim")
    return text


class ThirtyOneView:
    def __init__(self, game: ThirtyOne) -> None:
        self.game = game

    def table(self, obs: dict[str, Any], names: Sequence[str]) -> RenderableType:
        head = Text(f"Hand {obs['hand_number']}", style="bold")
        head.append(f"   dealer: {names[obs['dealer']]}   stock: {obs['stock_size']} cards")
        head.append(f"   kitty: {obs['kitty']} organ(s)")
        if obs["knocker"] is not None:
            head.append(f"   {names[obs['knocker']]} knocked", style="bold yellow")
        seats = Table(box=None, pad_edge=False, show_header=True, header_style="dim")
        seats.add_column("")
        seats.add_column("player")
        seats.add_column("organs")
        seats.add_column("cards", justify="right")
        seats.add_column("known cards")
        for seat, name in enumerate(names):
            marker = "▶" if seat in obs["to_act"] else ""
            cards = str(obs["hand_sizes"][seat]) if seat in obs["in_hand"] else ""
            known = cards_text(obs["known"][seat]) if seat != obs["seat"] else Text("")
            seats.add_row(marker, name, organs_text(obs["organs"][seat], seat, obs), cards, known)
        discards = squared_pile_text("Discard pile", obs["discard_top"], obs["discard_size"])
        parts: list[RenderableType] = [head, seats, discards]
        if obs["phase"] == "check" and obs["declared"]:
            declared = ", ".join(names[s] for s in obs["declared"])
            parts.append(Text(f"Declared a dealt 31: {declared}", style="bold green"))
        if "hand" in obs:
            mine = Text("Your hand: ", style="bold")
            mine.append_text(cards_text(obs["hand"]))
            if "value" in obs:
                mine.append(f"   worth {format_value(obs['value'])}")
                if obs["counts"] != obs["value"]:
                    mine.append(
                        f"   (an undeclared 31: counts {format_value(obs['counts'])})",
                        style="yellow",
                    )
                elif obs["value"] == 31:
                    mine.append("   THIRTY-ONE!", style="bold green")
            parts.append(mine)
        return Group(*parts)

    def action_label(self, action: Action, obs: dict[str, Any]) -> RenderableType:
        kind = action[0]
        if kind == "discard":
            card = STANDARD.format(action[1])
            kept = [STANDARD.parse(c) for c in obs["hand"] if c != card]
            text = Text("discard ")
            text.append_text(card_text(card))
            text.append(f"  ({self.game.describe_kept(kept, action[2])})")
            if action[2]:
                text.append("  and declare 31", style="bold green")
            return text
        if kind == "take":
            text = Text("take ")
            text.append_text(card_text(obs["discard_top"]))
            text.append(" from the discard pile")
            return text
        labels = {
            "draw": "draw from the stock",
            "knock": "knock",
            "stop": "stop: the stock is empty, show the hands",
            "play": "play the hand",
            "declare": "declare your dealt 31",
        }
        return Text(labels[kind], style="bold green" if kind == "declare" else "")
