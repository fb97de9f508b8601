"""Triple Topper Toe in the terminal: the four layers side by side, your hand, the quiz.

Rows are colors (R Y G B), columns shapes (C H T S), layers numbers (1-4); a
cell is named row letter + column letter + layer, like the card that marks it
(``GS1``).  The last mark is shown in reverse video and a winning line on green.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from tripletopper.cards import TRIPLE_TOPPER
from tripletopper.cli.cards import SHAPE_SYMBOLS, card_text, cards_text
from tripletopper.engine import Action, phrase
from tripletopper.games.toe import CELL_NAMES, FITS, WASTED, Toe, cell_of
from tripletopper.games.toe.questions import LETTERS

ROWS = "RYGB"
COLUMNS = "CHTS"
MARK_STYLES = {"X": "bold cyan", "O": "bold magenta", ".": "dim"}
WILD_GROUP = 5
"""A card fitting more free cells than this gets one menu line, not one per cell."""


class ToeView:
    def __init__(self, game: Toe) -> None:
        self.game = game

    # --- the table --------------------------------------------------------------------
    def table(self, obs: dict[str, Any], names: Sequence[str]) -> RenderableType:
        seat = obs["seat"]
        x = obs["x"]
        symbol = ["X", "O"] if x == 0 else ["O", "X"]
        head = Text()
        for s in (x, 1 - x):
            head.append(f"{names[s]} ", style="bold" if s == seat else "")
            head.append(symbol[s], style=MARK_STYLES[symbol[s]])
            head.append(f" {obs['marks'][s]} marks   ")
        if obs["result"] is None:
            head.append(f"turn {obs['turns'] + 1}/{obs['max_turns']}", style="dim")
        else:
            head.append("game over", style="bold")
        counts = obs["discard_counts"]
        pile = Text(
            f"Stock {obs['stock_size']}, face-down discards {counts[x]} ({symbol[x]}) / "
            f"{counts[1 - x]} ({symbol[1 - x]}), played {len(obs['played'])}",
            style="dim",
        )
        if obs["reshuffles"]:
            pile.append(f", reshuffled {obs['reshuffles']}x", style="dim")
        parts: list[RenderableType] = [head, self.board(obs), pile]
        last = obs["last"]
        if last is not None:
            line = Text(f"Last mark: {names[last['seat']]} played ")
            line.append_text(card_text(last["card"]))
            line.append(f" on {last['cell']}.")
            parts.append(line)
        if obs["line"]:
            parts.append(Text("Winning line: " + " ".join(obs["line"]), style="bold green"))
        quiz = obs.get("quiz")
        if quiz is not None:
            parts.extend(self.quiz_lines(quiz, names))
        if "hand" in obs:
            parts.append(self.hand(obs))
        return Group(*parts)

    def board(self, obs: dict[str, Any]) -> Table:
        """Four 4x4 layers side by side, with row and column labels."""
        board = obs["board"]
        last = cell_of(obs["last"]["cell"]) if obs["last"] else -1
        line = {cell_of(name) for name in obs["line"] or ()}
        grid = Table.grid(padding=(0, 3))
        layers = []
        for layer in range(4):
            text = Text(f"   layer {layer + 1}\n", style="bold")
            text.append("   " + " ".join(f"{c}{SHAPE_SYMBOLS[c]}" for c in COLUMNS) + "\n")
            for row in range(4):
                text.append(f" {ROWS[row]} ", style=_ROW_STYLES[row])
                for column in range(4):
                    cell = layer * 16 + column * 4 + row
                    mark = board[cell]
                    style = MARK_STYLES[mark]
                    if cell in line:
                        style += " on green"
                    elif cell == last:
                        style += " reverse"
                    text.append(f" {mark}", style=style)
                    text.append(" ")
                if row < 3:
                    text.append("\n")
            layers.append(text)
        grid.add_row(*layers)
        return grid

    def quiz_lines(self, quiz: dict[str, Any], names: Sequence[str]) -> list[RenderableType]:
        out: list[RenderableType] = []
        answered = quiz["last_answer"]
        if answered is not None:
            verdict = "right" if answered["correct"] else "wrong"
            said = answered["choice"] or "nothing"
            out.append(
                Text(
                    f"Last question: {names[answered['seat']]} answered {said}, {verdict} "
                    f"(it was {answered['answer']}) {answered['answer_text']}); "
                    f"{names[answered['earned_by']]} earned the turn.",
                    style="dim",
                )
            )
        question = quiz["question"]
        if question is not None:
            title = (
                "Tiebreaker question" if question["tiebreak"] else f"Question {question['number']}"
            )
            about = ", ".join(v for v in (question["category"], question["difficulty"]) if v)
            text = Text(f"{title}" + (f" ({about})" if about else "") + ": ", style="bold")
            text.append(question["text"], style="bold yellow")
            for i, choice in enumerate(question["choices"]):
                text.append(f"\n   {LETTERS[i]}) {choice}")
            out.append(text)
            if quiz["buzzer"] is not None:
                buzzer = names[quiz["buzzer"]]
                out.append(
                    Text(
                        f"{phrase(buzzer, 'buzzed in and answers', 'buzzed in: answer')}.",
                        style="bold",
                    )
                )
        return out

    def hand(self, obs: dict[str, Any]) -> Text:
        board = obs["board"]
        mine = Text("Your hand: ", style="bold")
        for i, name in enumerate(obs["hand"]):
            if i:
                mine.append("   ")
            mine.append_text(card_text(name))
            free = [c for c in FITS[TRIPLE_TOPPER.parse(name)] if board[c] == "."]
            if len(free) == 1:
                mine.append(f" -> {CELL_NAMES[free[0]]}", style="dim")
            else:
                mine.append(f" ({len(free)} free)" if free else " (taken)", style="dim")
            if name == obs.get("drawn"):
                mine.append(" new", style="bold green")
        return mine

    # --- the menu ---------------------------------------------------------------------
    def action_label(self, action: Action, obs: dict[str, Any]) -> RenderableType:
        kind = action[0]
        if kind == "play":
            text = Text("play ")
            text.append_text(card_text(TRIPLE_TOPPER.format(action[1])))
            if action[2] == WASTED:
                text.append("  (fits no free cell: wasted turn)", style="dim")
            else:
                text.append(f" at {CELL_NAMES[action[2]]}")
            return text
        if kind == "discard":
            text = Text("discard ")
            text.append_text(cards_text(TRIPLE_TOPPER.format_many(action[1])))
            text.append(f" face down, draw {len(action[1])}")
            return text
        if kind == "answer":
            question = obs["quiz"]["question"]
            return Text(f"answer {LETTERS[action[1]]}) {question['choices'][action[1]]}")
        labels = {
            "draw": "draw a card, then play one of your four",
            "buzz": "buzz in",
            "timeout": "time is up",
        }
        return Text(labels[kind], style="bold" if kind == "buzz" else "")

    def menu(
        self, legal: list[Action], obs: dict[str, Any]
    ) -> list[tuple[Action | None, RenderableType]]:
        """One line per action, but a wild card fitting many free cells gets one line
        (unnumbered: its plays are typed)."""
        lines: list[tuple[Action | None, RenderableType]] = []
        grouped: dict[int, list[int]] = {}
        for action in legal:
            if action[0] == "play" and action[2] != WASTED:
                grouped.setdefault(action[1], []).append(action[2])
        for action in legal:
            cells = grouped.get(action[1], []) if action[0] == "play" else []
            if len(cells) > WILD_GROUP:
                if action[2] == cells[0]:
                    name = TRIPLE_TOPPER.format(action[1])
                    text = Text("play ")
                    text.append_text(card_text(name))
                    text.append(
                        f" at one of {len(cells)} free cells: type e.g. 'play {name} at "
                        f"{CELL_NAMES[cells[0]]}'"
                    )
                    lines.append((None, text))
                continue
            lines.append((action, self.action_label(action, obs)))
        return lines


_ROW_STYLES = ("bold red", "bold yellow", "bold green", "bold blue")
