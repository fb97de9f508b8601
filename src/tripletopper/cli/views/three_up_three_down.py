"""3UP 3DOWN in the terminal: every player's hand size, 3UP cards and 3DOWN count, the pile
and the stock, your hand.  Cards are shown by value (colors play no part; they only tint)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from tripletopper.cards.three_up import RANK, RANK_NAMES, THREE_UP
from tripletopper.engine import Action, counted
from tripletopper.games.three_up_three_down import ThreeUpThreeDown

TINTS = {"R": "red", "G": "green", "B": "blue"}
COUNT_WORDS = {1: "", 2: "two ", 3: "three ", 4: "four ", 5: "five ", 6: "six ", 7: "seven "}


def card_text(name: str) -> Text:
    """A card by its value, tinted by its color; Clears in bold."""
    rank = RANK[THREE_UP.parse(name)]
    style = TINTS[name[-2]] + (" bold reverse" if rank > 10 else " bold")
    return Text(RANK_NAMES[rank], style=style)


def cards_text(names: Sequence[str], empty: str = "-") -> Text:
    if not names:
        return Text(empty, style="dim")
    out = Text()
    for i, name in enumerate(names):
        if i:
            out.append(" ")
        out.append_text(card_text(name))
    return out


def by_value(names: Sequence[str]) -> list[str]:
    return sorted(names, key=THREE_UP.parse)


class ThreeUpView:
    def __init__(self, game: ThreeUpThreeDown) -> None:
        self.game = game

    def table(self, obs: dict[str, Any], names: Sequence[str]) -> RenderableType:
        choosing = obs["phase"] == "choose"
        head = Text(f"Turn {obs['turns'] + 1}" if not choosing else "Choosing 3UP cards", "bold")
        head.append(f"   stock: {obs['stock_size']}   out of the game: {len(obs['cleared'])}")
        seats = Table(box=None, pad_edge=False, show_header=True, header_style="dim")
        for column in ("", "player", "hand", "3UP", "3DOWN", "known in hand"):
            seats.add_column(column, justify="right" if column in ("hand", "3DOWN") else "left")
        for seat, name in enumerate(names):
            info = obs["seats"][seat]
            marker = "▶" if seat in obs["to_act"] else ""
            if info["up"] is None:
                up = Text("chosen" if info.get("chosen") else "choosing...", style="dim")
            else:
                up = cards_text(info["up"])
            known = Text("")
            if seat != obs["seat"]:
                known = cards_text(info["known"], empty="")
                if info["hidden_at_most"]:
                    limits = " ".join(info["hidden_at_most"])
                    gap = "  " if info["known"] else ""
                    known.append(f"{gap}(hidden, at most: {limits})", style="dim")
            player = Text(name)
            if info["out"]:
                place = obs["finished"].index(seat) + 1 if seat in obs["finished"] else None
                player.append(f"  out, place {place}" if place else "  out", style="bold green")
            seats.add_row(marker, player, str(info["hand_size"]), up, str(info["down"]), known)
        parts: list[RenderableType] = [head, seats]
        if not choosing:
            pile = Text("Pile: ")
            if obs["pile"]:
                if len(obs["pile"]) > 1:
                    pile.append_text(cards_text(obs["pile"][-9:-1]))
                    pile.append("  top ")
                pile.append_text(card_text(obs["pile"][-1]))
                run = f", {obs['run']} in a row on top" if obs["run"] > 1 else ""
                pile.append(f"   ({counted(obs['pile_size'], 'card')}{run})")
            else:
                pile.append("empty: lead anything", style="dim")
            parts.append(pile)
            if obs["extra_plays"]:
                owed = counted(obs["extra_plays"], "extra play")
                extra = Text(f"{owed} to make", style="bold yellow")
                if obs["may_draw"]:
                    extra.append(" (you may draw a card first)")
                parts.append(extra)
        if "hand" in obs:
            mine = Text("Your hand: " if not choosing else "Your cards: ", style="bold")
            mine.append_text(cards_text(by_value(obs["hand"])))
            source = obs.get("playing_from")
            if source and source != "hand" and not choosing:
                mine.append(f"   you play from your {source} cards", style="bold")
            parts.append(mine)
        return Group(*parts)

    def action_label(self, action: Action, obs: dict[str, Any]) -> RenderableType:
        kind = action[0]
        if kind == "play":
            ranks = action[1]
            text = Text("play ")
            text.append(COUNT_WORDS.get(len(ranks), f"{len(ranks)} "))
            text.append(RANK_NAMES[ranks[0]], style="bold")
            if len(ranks) > 1:
                text.append("s")
            source = obs.get("playing_from")
            if source == "3UP":
                text.append(" from your 3UP cards")
            if ranks[0] > 10:
                text.append("  (clears the pile)", style="bold green")
            elif obs["top"] == RANK_NAMES[ranks[0]] and obs["run"] + len(ranks) >= 3:
                text.append("  (three in a row: clears the pile)", style="bold green")
            return text
        if kind == "choose":
            text = Text("lay ")
            text.append(" ".join(RANK_NAMES[r] for r in action[1]), style="bold")
            text.append(" face up")
            return text
        if kind == "pickup":
            return Text(f"pick up the pile ({obs['pile_size']} cards)", style="bold red")
        if kind == "flip":
            return Text("flip a 3DOWN card (blind)")
        return Text("draw a card first")
