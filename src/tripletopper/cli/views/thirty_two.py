"""Thirty-Two in the terminal: counters, the discard pile's top card, your hand and its score."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from tripletopper.cards import TRIPLE_TOPPER
from tripletopper.cli.cards import card_text, cards_text, squared_pile_text
from tripletopper.engine import Action
from tripletopper.games.thirty_two import ThirtyTwo


class ThirtyTwoView:
    def __init__(self, game: ThirtyTwo) -> None:
        self.game = game

    def table(self, obs: dict[str, Any], names: Sequence[str]) -> RenderableType:
        head = Text(f"Hand {obs['hand_number']}", style="bold")
        if obs["playoff"]:
            head.append("  (playoff)", style="bold magenta")
        head.append(f"   dealer: {names[obs['dealer']]}   stock: {obs['stock_size']} cards")
        if obs["knocker"] is not None:
            head.append(f"   {names[obs['knocker']]} knocked", style="bold yellow")
        seats = Table(box=None, pad_edge=False, show_header=True, header_style="dim")
        seats.add_column("")
        seats.add_column("player")
        seats.add_column("counters", justify="right")
        seats.add_column("cards", justify="right")
        seats.add_column("known cards")
        for seat, name in enumerate(names):
            marker = "▶" if seat in obs["to_act"] else ""
            if seat in obs["out"]:
                status = Text("out", style="dim")
            elif seat not in obs["in_hand"]:
                status = Text("sits out", style="dim")
            else:
                status = Text(str(obs["hand_sizes"][seat]))
            known = cards_text(obs["known"][seat]) if seat != obs["seat"] else Text("")
            seats.add_row(marker, name, str(obs["counters"][seat]), status, known)
        discards = squared_pile_text("Discard pile", obs["discard_top"], obs["discard_size"])
        parts: list[RenderableType] = [head, seats, discards]
        if "hand" in obs:
            mine = Text("Your hand: ", style="bold")
            mine.append_text(cards_text(obs["hand"]))
            if "score" in obs:
                mine.append(f"   score {obs['score']}, {obs['wilds']} wild(s)")
                if obs["thirty_two"]:
                    mine.append("   THIRTY-TWO!", style="bold green")
            parts.append(mine)
        return Group(*parts)

    def action_label(self, action: Action, obs: dict[str, Any]) -> RenderableType:
        kind = action[0]
        if kind == "discard":
            card = TRIPLE_TOPPER.format(action[1])
            kept = [TRIPLE_TOPPER.parse(c) for c in obs["hand"] if c != card]
            text = Text("discard ")
            text.append_text(card_text(card))
            text.append(f"  ({self.game.describe_kept(kept)})")
            if action[2]:
                text.append("  and declare Thirty-two", style="bold green")
            return text
        if kind == "take":
            text = Text("take ")
            text.append_text(card_text(obs["discard_top"]))
            return text
        labels = {
            "draw": "draw from the stock",
            "knock": "knock",
            "declare": "declare Thirty-two",
            "close": "close the table",
        }
        return Text(labels[kind], style="bold green" if kind == "declare" else "")
