"""Head-to-head matches of two bots, measured like chess engines: duplicate deals and SPRT.

**Duplicate deals.**  Deal ``d`` is one game seed, ``runner.game_seed(seed, d)``:
the game's chance (the deck, reshuffles) comes from it, and the bot at seat ``s``
is seeded ``runner.bot_seed(game seed, s)`` whoever sits there.  Each deal is
played once per seating of :func:`deal_seatings`: the seats alternate A, B, A,
B, ... and that lineup is played in every rotation, and so is the lineup with A
and B swapped; a rotation that repeats a seating is played once.  So with an
even number of players a deal is two games (ABAB..., BABA...); with an odd
number it is ``2 x players`` games (three players: ABA, BAA, AAB, BAB, ABB,
BBA).  Over one deal each bot holds every seat equally often and A and B hold
the same number of seats: the luck of the deal cancels as far as the games run
alike, and a bot against itself scores exactly 50% on every deal.

**Score.**  In each game every (A seat, B seat) pair is compared by finishing
place: a better place scores 1 for A, the same place 1/2, a worse one 0; with
two players this is win 1, draw 1/2, loss 0.  A game's score is the mean over
its pairs, a deal's score the mean over its games.  The deal is the unit of the
statistics (the games of a deal are not independent): the score's 95% interval
is the normal interval of the mean of the deal scores (their variance as in the
SPRT below), the Elo difference is the logistic one, ``400 log10(score / (1 -
score))``, its interval from the score's, and the likelihood of superiority is
``Phi((mean - 1/2) / standard error)``.

**SPRT.**  Fishtest-style, a generalized SPRT on the deal scores in the normal
approximation (M. Van den Bergh, "A practical introduction to the GSPRT"): with
``n`` deals of mean ``m`` and variance ``v``, ``LLR = n (s1 - s0) (2 m - s0 -
s1) / (2 v)`` for H0: score ``s0`` against H1: score ``s1`` (given as scores or
logistic Elo); H1 is accepted when the LLR reaches ``log((1 - beta) / alpha)``,
H0 when it falls to ``log(beta / (1 - alpha))``.  The variance counts two
virtual deals about the mean, one won and one lost, ``v = (sum((x - m)^2) +
(1 - m)^2 + m^2) / (n + 1)`` (as the Agresti-Coull interval adds a success and
a failure, and fishtest regularises empty pentanomial cells), so that deals
that all scored the same still have a spread: a bot that wins every deal is
accepted as stronger after nine deals (at the default bounds), not after the
first, and two bots that draw every deal are found level (H0); it weighs only
in the first few dozen deals.  The test runs after every deal, in deal order,
and the match stops at the first decision or at the game cap (verdict
``inconclusive``).

Games run on all cores or on a Ray cluster (:mod:`tripletopper.parallel`) in
batches of deals; results are taken in deal order and the decision is made deal
by deal, so a seed gives the same match (and stopping point) whatever the
number of workers.  The games of a batch after the decision are cancelled on
local processes, or dropped if already running (on Ray: always dropped).  A time
limit (``seconds``) stops the match too, after the first deal that ends past it
(verdict ``inconclusive``, ``timed_out``): the deals played are still the first
ones of the seed, but how many depends on the machine.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass, field
from typing import Any

from tripletopper.analysis.intervals import Z95
from tripletopper.bots import bot_factory
from tripletopper.engine import Game
from tripletopper.parallel import connect_ray, default_workers, run_ordered
from tripletopper.tournament import GameOutcome, play_seated, time_summary

A, B = 0, 1
"""Who sits at a seat, in a seating."""


def deal_seatings(players: int) -> list[tuple[int, ...]]:
    """The seatings every deal is played with (:data:`A`/:data:`B` by seat); see the module doc."""
    if players < 2:
        raise ValueError(f"a match needs at least 2 players (got {players})")
    lineup = tuple(seat % 2 for seat in range(players))
    out: list[tuple[int, ...]] = []
    for first in (lineup, tuple(1 - who for who in lineup)):
        for turn in range(players):
            seating = first[turn:] + first[:turn]
            if seating not in out:
                out.append(seating)
    return out


def pair_score(places: Sequence[float], seating: Sequence[int]) -> tuple[int, int, int]:
    """``(A better, same place, B better)`` over the game's (A seat, B seat) pairs."""
    a = [place for place, who in zip(places, seating, strict=True) if who == A]
    b = [place for place, who in zip(places, seating, strict=True) if who == B]
    better = sum(1 for pa in a for pb in b if pa < pb)
    worse = sum(1 for pa in a for pb in b if pa > pb)
    return better, len(a) * len(b) - better - worse, worse


def elo(score: float) -> float:
    """The logistic Elo difference of a score (``+-inf`` at 1 and 0)."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return 400.0 * math.log10(score / (1.0 - score))


def elo_text(score: float) -> str:
    """The Elo difference of a score, signed, to the point (``+inf``, ``-inf`` at the ends)."""
    return f"{elo(score):+.0f}"


def score_of(elo_difference: float) -> float:
    """The expected score of an Elo difference."""
    return 1.0 / (1.0 + math.pow(10.0, -elo_difference / 400.0))


def los(mean: float, stderr: float) -> float:
    """Likelihood of superiority: the chance that A's true score exceeds 1/2."""
    if stderr <= 0.0:
        return 0.5 if mean == 0.5 else float(mean > 0.5)
    return 0.5 * (1.0 + math.erf((mean - 0.5) / (stderr * math.sqrt(2.0))))


def deal_variance(n: int, total: float, squares: float) -> float:
    """The variance of one deal's score, from ``n`` deal scores (their sum and the sum of
    their squares) and two virtual deals, one won and one lost (see the module doc)."""
    if n == 0:
        return math.nan
    mean = total / n
    spread = max(0.0, squares - n * mean * mean) + (1.0 - mean) ** 2 + mean**2
    return spread / (n + 1)


@dataclass(frozen=True)
class Sprt:
    """H0: A's score is ``score0``; H1: it is ``score1``; error rates ``alpha``, ``beta``."""

    score0: float
    score1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not 0.0 < self.score0 < self.score1 < 1.0:
            raise ValueError(
                f"SPRT bounds need 0 < score0 < score1 < 1 (got {self.score0:g} and "
                f"{self.score1:g}; in Elo: elo0 < elo1)"
            )
        if not (0.0 < self.alpha < 1.0 and 0.0 < self.beta < 1.0 and self.alpha + self.beta < 1):
            raise ValueError(
                f"alpha and beta are error rates between 0 and 1 with a sum below 1 "
                f"(got {self.alpha:g} and {self.beta:g})"
            )

    @classmethod
    def from_elo(cls, elo0: float, elo1: float, alpha: float = 0.05, beta: float = 0.05) -> Sprt:
        if not elo0 < elo1:
            raise ValueError(f"SPRT bounds need elo0 < elo1 (got {elo0:g} and {elo1:g})")
        return cls(score_of(elo0), score_of(elo1), alpha, beta)

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1.0 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1.0 - self.beta) / self.alpha)

    def llr(self, n: int, total: float, squares: float) -> float:
        """The log-likelihood ratio after ``n`` deals whose scores sum to ``total``
        (their squares to ``squares``); see the module doc."""
        if n == 0:
            return 0.0
        variance = deal_variance(n, total, squares)
        s0, s1 = self.score0, self.score1
        return n * (s1 - s0) * (2.0 * total / n - s0 - s1) / (2.0 * variance)

    def verdict(self, llr: float) -> str | None:
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return None

    def to_json(self) -> dict[str, Any]:
        return {
            "score0": round(self.score0, 6),
            "score1": round(self.score1, 6),
            "elo0": round(elo(self.score0), 2),
            "elo1": round(elo(self.score1), 2),
            "alpha": self.alpha,
            "beta": self.beta,
            "lower": round(self.lower, 4),
            "upper": round(self.upper, 4),
        }


@dataclass(frozen=True)
class Summary:
    """A's score over the deals with its 95% interval, the Elo difference, the LOS."""

    deals: int
    score: float
    low: float
    high: float
    los: float

    @classmethod
    def of(cls, scores: Sequence[float]) -> Summary:
        n = len(scores)
        if n == 0:
            return cls(0, 0.5, 0.0, 1.0, 0.5)
        total = math.fsum(scores)
        mean = total / n
        stderr = math.sqrt(deal_variance(n, total, math.fsum(s * s for s in scores)) / n)
        half = Z95 * stderr
        return cls(n, mean, max(0.0, mean - half), min(1.0, mean + half), los(mean, stderr))

    def to_json(self) -> dict[str, Any]:
        def rounded(x: float) -> float | None:  # JSON has no infinity: null
            return None if math.isinf(x) else round(x, 1)

        return {
            "deals": self.deals,
            "score": round(self.score, 6),
            "score_95": [round(self.low, 6), round(self.high, 6)],
            "elo": rounded(elo(self.score)),
            "elo_95": [rounded(elo(self.low)), rounded(elo(self.high))],
            "los": round(self.los, 6),
        }


@dataclass
class Match:
    """What :func:`run_match` measured; ``to_json`` is the ``--json`` output."""

    game: Game
    bots: tuple[str, str]
    seed: int
    sprt: Sprt
    max_games: int
    seatings: list[tuple[int, ...]]
    deal_scores: list[float] = field(default_factory=list)
    pairs: list[int] = field(default_factory=lambda: [0, 0, 0])
    llr: float = 0.0
    verdict: str = "inconclusive"
    seconds: float = 0.0
    time_limit: float | None = None
    timed_out: bool = False
    fixed: bool = False
    """Every deal up to ``max_games`` was played, whatever the SPRT said on the way: the
    score is unbiased (read where an SPRT stops, it overstates the winner)."""
    decision_times: dict[str, list[float]] = field(default_factory=dict)

    @property
    def games(self) -> int:
        return len(self.deal_scores) * len(self.seatings)

    def summary(self) -> Summary:
        return Summary.of(self.deal_scores)

    def to_json(self) -> dict[str, Any]:
        return {
            **self.game.config(),
            "bots": {"A": self.bots[0], "B": self.bots[1]},
            "seed": self.seed,
            "seatings": ["".join("AB"[who] for who in s) for s in self.seatings],
            "games": self.games,
            "max_games": self.max_games,
            **self.summary().to_json(),
            "pairs": dict(zip(("a_better", "same", "b_better"), self.pairs, strict=True)),
            "sprt": {**self.sprt.to_json(), "llr": round(self.llr, 4), "verdict": self.verdict},
            "deal_scores": [round(s, 6) for s in self.deal_scores],
            "seconds": round(self.seconds, 2),
            "time_limit": self.time_limit,
            "timed_out": self.timed_out,
            "fixed": self.fixed,
            "decision_seconds": {
                name: time_summary(times) for name, times in self.decision_times.items()
            },
        }


Job = tuple[str, int, dict[str, Any], list[str], int, int]
"""One game, as :func:`tripletopper.tournament.play_seated` takes it (the deal is the index)."""


def deal_jobs(game: Game, bots: tuple[str, str], seed: int, deal: int) -> list[Job]:
    """The games of deal ``deal``, one per seating, all seeded ``game_seed(seed, deal)``."""
    return [
        (game.name, game.players, dict(game.options), [bots[who] for who in seating], seed, deal)
        for seating in deal_seatings(game.players)
    ]


def _batches(deals: int, per_batch: int) -> Iterator[range]:
    """Deal ranges to submit at once: small first (an early decision wastes little),
    then doubling up to 16 times the first."""
    start, size = 0, per_batch
    while start < deals:
        yield range(start, min(deals, start + size))
        start += size
        size = min(2 * size, 16 * per_batch)


def run_match(
    game: Game,
    a: str,
    b: str,
    sprt: Sprt,
    max_games: int = 1000,
    seed: int = 0,
    *,
    workers: int | None = None,
    ray: str | None = None,
    seconds: float | None = None,
    fixed: bool = False,
    on_game: Callable[[int], None] | None = None,
) -> Match:
    """Play deals of A against B until the SPRT decides, ``max_games`` (whole deals,
    at least one) are played or ``seconds`` have passed (at least one deal); see the
    module doc.  ``fixed``: the SPRT stops nothing, its verdict is the last LLR's.
    ``on_game(games played)``."""
    for spec in {a, b}:
        bot_factory(spec, game)  # refuse bad specs before starting workers
    seatings = deal_seatings(game.players)
    match = Match(game, (a, b), seed, sprt, max_games, seatings, time_limit=seconds, fixed=fixed)
    per_deal = len(seatings)
    deals = max(1, max_games // per_deal)
    if ray is not None:
        cores = int(connect_ray(ray).cluster_resources().get("CPU", 1))
    else:
        cores = workers if workers is not None else default_workers()
    total = squares = 0.0
    started = time.perf_counter()
    for batch in _batches(deals, max(1, math.ceil(4 * cores / per_deal))):
        jobs = [job for deal in batch for job in deal_jobs(game, (a, b), seed, deal)]
        # one game a chunk: a time limit then waits for a few games, not a few chunks
        pending = run_ordered(play_seated, jobs, workers=workers, ray=ray, chunk=1)
        with closing(pending) as outcomes:
            for _ in batch:
                score = _add_deal(match, [next(outcomes) for _ in seatings])
                total += score
                squares += score * score
                match.llr = sprt.llr(len(match.deal_scores), total, squares)
                if on_game is not None:
                    on_game(match.games)
                decided = sprt.verdict(match.llr)
                if fixed:
                    match.verdict = decided or "inconclusive"
                elif decided is not None:
                    match.verdict = decided
                    break
                if seconds is not None and time.perf_counter() - started >= seconds:
                    match.timed_out = True
                    break
        if (match.verdict != "inconclusive" and not fixed) or match.timed_out:
            break
    match.seconds = time.perf_counter() - started
    return match


def _add_deal(match: Match, outcomes: list[GameOutcome]) -> float:
    """Count one deal's games; its score."""
    scores = []
    for outcome, seating in zip(outcomes, match.seatings, strict=True):
        counts = pair_score(outcome.places, seating)
        match.pairs = [x + y for x, y in zip(match.pairs, counts, strict=True)]
        better, same, _ = counts
        scores.append((better + same / 2) / sum(counts))
        for name, times in outcome.decision_times.items():
            match.decision_times.setdefault(name, []).extend(times)
    score = math.fsum(scores) / len(scores)
    match.deal_scores.append(score)
    return score
