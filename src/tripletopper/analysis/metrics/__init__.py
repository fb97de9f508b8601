"""Each game's metrics: a :class:`~.base.Collector` per game, found by the game's name."""

from __future__ import annotations

from tripletopper.analysis.metrics.base import Collector, Metric, all_metrics
from tripletopper.analysis.metrics.memo_match import MemoMatchCollector
from tripletopper.analysis.metrics.thirty_one import ThirtyOneCollector
from tripletopper.analysis.metrics.thirty_two import ThirtyTwoCollector
from tripletopper.analysis.metrics.three_up_three_down import ThreeUpCollector
from tripletopper.analysis.metrics.toe import ToeCollector

COLLECTORS: dict[str, type[Collector]] = {
    "thirty-two": ThirtyTwoCollector,
    "thirty-one": ThirtyOneCollector,
    "toe": ToeCollector,
    "memo-match": MemoMatchCollector,
    "three-up-three-down": ThreeUpCollector,
}
"""The collector of each game in the registry (``tests/analysis`` checks every game has one)."""


def collector_for(name: str) -> type[Collector]:
    """The game's collector; a game without its own counts only what every game shares."""
    return COLLECTORS.get(name, Collector)


__all__ = ["COLLECTORS", "Collector", "Metric", "all_metrics", "collector_for"]
