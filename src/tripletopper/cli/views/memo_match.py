"""Memo Match in the terminal: the grid with coordinates, face-up cards and the piles.

Only what is face up *now* is drawn: a face-down card shows as ``░░░`` even
when your seat has seen it, because remembering it is the game.  The two cards
of a miss are up only for a moment: :meth:`MemoMatchView.moment` draws them,
and a real terminal then wipes the screen (narration names their positions
only).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from tripletopper.cli.cards import card_text
from tripletopper.engine import Action
from tripletopper.errors import MalformedActionError
from tripletopper.games.memo_match import MemoMatch
from tripletopper.games.memo_match.layout import COLUMNS, WIDTH, parse_position, rows_of

FACE_DOWN = "░░░"


class MemoMatchView:
    def __init__(self, game: MemoMatch) -> None:
        self.game = game

    def table(self, obs: dict[str, Any], names: Sequence[str]) -> RenderableType:
        head = Text("Memo Match", style="bold")
        if obs["playoff"]:
            head.append("  (playoff)", style="bold magenta")
        head.append(f"   {len(obs['table'])} cards on the table   turn {obs['turns']}")
        if obs["phase"] == "spot":
            declarer = names[obs["declarer"]]
            head.append(f"   {declarer} declared NO MATCHES: spot a pair!", style="bold yellow")
        return Group(head, self.grid(obs), self.players(obs, names))

    def grid(self, obs: dict[str, Any]) -> Text:
        on_table = set(obs["table"])
        face_up = obs["face_up"]
        size = obs["size"]
        out = Text("    " + " ".join(f"{c:^3}" for c in COLUMNS[: min(size, WIDTH)]) + "\n")
        for row in range(rows_of(size)):
            out.append(f"{row + 1:>3} ")
            for col in range(WIDTH):
                p = row * WIDTH + col
                if p >= size:
                    break
                name = f"{COLUMNS[col]}{row + 1}"
                if name in face_up:
                    card = face_up[name]
                    out.append_text(card_text(card) if card else Text("▓▓▓", style="bold"))
                elif name in on_table:
                    out.append(FACE_DOWN, style="dim")
                else:
                    out.append("   ")
                out.append(" ")
            out.append("\n")
        return out

    def moment(self, events: Sequence[Mapping[str, Any]]) -> RenderableType | None:
        """The faces of a miss, as the viewer saw them before they were turned back."""
        for event in events:
            if event["type"] == "missed" and "cards" in event:
                line = Text("No match: ", style="bold")
                for position, card in zip(event["positions"], event["cards"], strict=True):
                    line.append(f"{position} ").append_text(card_text(card)).append("  ")
                return line.append("(turned face down in a moment)", style="dim")
        return None

    def players(self, obs: dict[str, Any], names: Sequence[str]) -> Table:
        seats = Table(box=None, pad_edge=False, show_header=True, header_style="dim")
        seats.add_column("")
        seats.add_column("player")
        seats.add_column("taken", justify="right")
        if obs["playoff"]:
            seats.add_column("playoff", justify="right")
        seats.add_column("")
        order = obs["order"]
        for seat in order:
            marker = "▶" if seat in obs["to_act"] else ""
            notes = []
            if seat in obs["out"]:
                notes.append("out")
            if seat in obs["barred"]:
                notes.append("may not spot")
            if obs["playoff"] and seat not in obs["leaders"]:
                notes.append("watches the playoff")
            row = [marker, names[seat], str(obs["captured"][seat])]
            if obs["playoff"]:
                row.append(str(obs["playoff_captured"][seat]))
            row.append(Text(", ".join(notes), style="dim"))
            seats.add_row(*row)
        return seats

    def action_label(self, action: Action, obs: dict[str, Any]) -> RenderableType:
        text = self.game.describe_action(action)
        return Text(text, style="bold yellow" if action[0] == "declare" else "")

    def menu(
        self, legal: list[Action], obs: dict[str, Any]
    ) -> list[tuple[Action | None, RenderableType]]:
        """The actions worth a number: not the hundred flips or the thousands of claims."""
        return [(a, self.action_label(a, obs)) for a in legal if a[0] in ("declare", "pass")]

    def hint(self, obs: dict[str, Any]) -> str:
        phase = obs["phase"]
        if phase == "spot":
            return "Type two positions to claim a pair (e.g. 'A1 C7'), or 'pass'."
        if phase == "bonus":
            return f"Type a position to take it as a bonus ({obs['bonus_left']} left)."
        return "Type a position to flip its card (e.g. 'C7')."

    def read(self, answer: str, obs: dict[str, Any]) -> Action | None:
        """Positions typed alone: 'C7' flips (or takes a bonus card), 'A1 C7' claims."""
        words = answer.split()
        try:
            positions = [parse_position(w) for w in words]
        except MalformedActionError:
            return None
        if len(positions) == 1 and obs["phase"] in ("flip", "second"):
            return ("flip", positions[0])
        if len(positions) == 1 and obs["phase"] == "bonus":
            return ("take", positions[0])
        if len(positions) == 2 and positions[0] != positions[1]:
            p, q = sorted(positions)
            return ("claim", (p, q))
        return None
