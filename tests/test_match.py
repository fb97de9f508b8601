"""Matches: duplicate deals, pairwise scores, Elo and LOS, the SPRT, the command."""

from __future__ import annotations

import json
import math
from collections import Counter

import pytest
from click.testing import CliRunner

from tripletopper.analysis.intervals import Z95
from tripletopper.cli import cli
from tripletopper.match import (
    A,
    B,
    Sprt,
    Summary,
    deal_jobs,
    deal_seatings,
    elo,
    los,
    pair_score,
    run_match,
    score_of,
)
from tripletopper.question_banks import make_game
from tripletopper.runner import game_seed
from tripletopper.tournament import play_seated

SPRT = Sprt.from_elo(0, 50)


@pytest.mark.parametrize(("players", "games"), [(2, 2), (3, 6), (4, 2), (5, 10), (6, 2)])
def test_every_deal_seats_each_bot_in_every_seat_equally_often(players, games):
    seatings = deal_seatings(players)
    assert len(seatings) == len(set(seatings)) == games
    by_seat = Counter((seat, who) for seating in seatings for seat, who in enumerate(seating))
    assert set(by_seat.values()) == {games // 2}  # A and B: each seat, half the games
    assert len(by_seat) == 2 * players
    seats = Counter(who for seating in seatings for who in seating)
    assert seats[A] == seats[B] == games * players // 2
    for seating in seatings:  # alternating A, B round the table (odd tables: one pair meets)
        neighbours = sum(seating[s] == seating[(s + 1) % players] for s in range(players))
        assert neighbours == players % 2


def test_seatings_spelled_out():
    assert deal_seatings(2) == [(A, B), (B, A)]
    assert deal_seatings(3) == [(A, B, A), (B, A, A), (A, A, B), (B, A, B), (A, B, B), (B, B, A)]
    assert deal_seatings(4) == [(A, B, A, B), (B, A, B, A)]
    with pytest.raises(ValueError, match="at least 2 players"):
        deal_seatings(1)


def test_a_deal_is_the_same_deal_from_every_seat():
    """Every game of a deal starts from the same shuffled deck (stock order included), and
    with the same bot on both sides its games are one game played over (bots' seeds too)."""
    for name, players in [("thirty-one", 2), ("thirty-two", 3), ("three-up-three-down", 4)]:
        game = make_game(name, players)
        jobs = deal_jobs(game, ("medium", "random"), 5, 7)
        starts = [game.new_state(game_seed(seed, deal)).dump() for *_, seed, deal in jobs]
        assert all(start == starts[0] for start in starts), name
        other = deal_jobs(game, ("medium", "random"), 5, 8)[0]
        assert game.new_state(game_seed(other[4], other[5])).dump() != starts[0]
        same = [play_seated(job) for job in deal_jobs(game, ("easy", "easy"), 5, 7)]
        assert len({(tuple(o.places), tuple(o.scores), o.actions) for o in same}) == 1, name


def test_pairwise_score():
    assert pair_score([1, 2], [A, B]) == (1, 0, 0)
    assert pair_score([1.5, 1.5], [B, A]) == (0, 1, 0)  # a draw: shared place
    # A at seats 0 and 2 placed 1st and 4th, B at 1 and 3 placed 2nd and 3rd
    assert pair_score([1, 2, 4, 3], [A, B, A, B]) == (2, 0, 2)
    assert pair_score([1, 2, 3], [A, B, A]) == (1, 0, 1)
    assert pair_score([2, 1, 3], [A, B, A]) == (0, 0, 2)


@pytest.mark.parametrize(
    ("name", "players"), [("thirty-one", 2), ("thirty-two", 3), ("memo-match", 4)]
)
def test_a_bot_against_itself_scores_exactly_half(name, players):
    result = run_match(make_game(name, players), "easy", "easy", SPRT, 40, seed=1, workers=1)
    assert result.deal_scores and set(result.deal_scores) == {0.5}
    data = result.to_json()
    assert data["score"] == 0.5 and data["elo"] == 0.0 and data["los"] == 0.5
    assert data["pairs"]["a_better"] == data["pairs"]["b_better"]
    assert data["sprt"]["llr"] < 0  # towards H0: level, not 50 Elo stronger
    assert data["games"] == 40 // len(deal_seatings(players)) * len(deal_seatings(players))


@pytest.mark.parametrize("name", ["thirty-one", "three-up-three-down"])
def test_the_sprt_finds_a_clearly_stronger_bot_in_a_few_dozen_games(name):
    game = make_game(name, 2)
    stronger = run_match(game, "medium", "random", SPRT, 200, seed=2026, workers=1)
    assert stronger.verdict == "H1" and stronger.games <= 36
    assert stronger.llr >= SPRT.upper and stronger.summary().low > 0.5
    weaker = run_match(game, "random", "medium", SPRT, 200, seed=2026, workers=1)
    assert weaker.verdict == "H0" and weaker.games <= 36
    assert weaker.llr <= SPRT.lower and weaker.summary().high < 0.5


def test_a_fixed_match_plays_every_deal_and_keeps_the_sprts_deals():
    """``--fixed`` plays all the games the SPRT would have spared (a score read where an SPRT
    stops is biased towards the winner); its first deals are the SPRT's, its verdict the
    last LLR's."""
    game = make_game("thirty-one", 2)
    early = run_match(game, "medium", "random", SPRT, 60, seed=2026, workers=1)
    fixed = run_match(game, "medium", "random", SPRT, 60, seed=2026, workers=1, fixed=True)
    assert early.verdict == "H1" and early.games < 60 and not early.fixed
    assert fixed.games == 60 and fixed.fixed and fixed.to_json()["fixed"]
    assert fixed.deal_scores[: len(early.deal_scores)] == early.deal_scores
    assert fixed.llr == SPRT.llr(30, sum(fixed.deal_scores), sum(s * s for s in fixed.deal_scores))
    assert fixed.verdict == SPRT.verdict(fixed.llr) == "H1"
    args = ["match", "thirty-one", "medium", "random", "-p", "2", "--seed", "2026", "-w", "1"]
    text = CliRunner().invoke(cli, [*args, "--games", "60", "--fixed"])
    said = " ".join(text.output.split())
    assert "H1 accepted: A is stronger, after all 60 games (--fixed)" in said, said


def strip(data):
    return {k: v for k, v in data.items() if k not in ("seconds", "decision_seconds")}


def test_the_same_match_whatever_the_number_of_workers():
    """Two workers submit deals in bigger batches; the SPRT stops at the same deal."""
    game = make_game("thirty-two", 4)
    one = run_match(game, "medium", "easy", SPRT, 400, seed=3, workers=1).to_json()
    two = run_match(game, "medium", "easy", SPRT, 400, seed=3, workers=2).to_json()
    assert strip(one) == strip(two)
    # two workers submit deals 0-3, 4-11, 12-27: the decision falls inside a batch
    assert one["sprt"]["verdict"] == "H1" and one["deals"] == 19


def test_elo_and_los_known_values():
    assert elo(0.75) == pytest.approx(190.848, abs=1e-3)  # 400 log10(3)
    assert elo(0.5) == 0.0 and elo(0.25) == pytest.approx(-190.848, abs=1e-3)
    assert elo(1.0) == math.inf and elo(0.0) == -math.inf
    assert score_of(elo(0.6)) == pytest.approx(0.6)
    assert score_of(100) == pytest.approx(0.640065, abs=1e-6)
    assert los(0.5, 0.1) == 0.5
    assert los(0.6, 0.1) == pytest.approx(0.841345, abs=1e-6)  # Phi(1)
    # the standard formula 1/2 (1 + erf((W - L) / sqrt(2 (W + L)))): 60 wins, 40 losses
    wins, losses = 60, 40
    standard = 0.5 * (1 + math.erf((wins - losses) / math.sqrt(2 * (wins + losses))))
    assert standard == pytest.approx(0.977250, abs=1e-6)  # Phi(2)
    assert los(wins / 100, 0.5 / math.sqrt(100)) == pytest.approx(standard)


def test_the_interval_and_the_sprt_statistic():
    scores = [1.0, 0.0, 1.0, 1.0]  # mean 3/4; spread 3/4, virtual 1 and 0: (3/4 + 5/8) / 5
    summary = Summary.of(scores)
    variance = (0.75 + 0.25**2 + 0.75**2) / 5
    stderr = math.sqrt(variance / 4)
    assert summary.score == 0.75
    assert summary.low == pytest.approx(0.75 - 1.959964 * stderr)
    assert summary.high == 1.0  # clamped
    sprt = Sprt(0.5, 0.6)
    assert sprt.lower == pytest.approx(math.log(0.05 / 0.95))
    assert sprt.upper == pytest.approx(math.log(0.95 / 0.05))
    assert sprt.llr(4, 3.0, 3.0) == pytest.approx(4 * 0.1 * (1.5 - 1.1) / (2 * variance))
    assert sprt.verdict(3.0) == "H1" and sprt.verdict(-3.0) == "H0" and sprt.verdict(0) is None
    # every deal won: no sample spread, the virtual deals still give one (1/6)
    assert Sprt.from_elo(0, 50).llr(5, 5.0, 5.0) == pytest.approx(
        5 * (score_of(50) - 0.5) * (2 - 0.5 - score_of(50)) / (2 / 6)
    )
    # every deal drawn: the bots are level, and H0 (not 50 Elo stronger) is accepted
    level = Sprt.from_elo(0, 50)
    assert level.verdict(level.llr(23, 11.5, 23 * 0.25)) is None
    assert level.verdict(level.llr(24, 12.0, 24 * 0.25)) == "H0"
    assert Summary.of([0.5] * 100).high - 0.5 == pytest.approx(Z95 * math.sqrt(0.5 / 101 / 100))


def test_match_command_json_and_text():
    args = ["match", "thirty-one", "medium", "random", "-p", "2", "--seed", "2026", "-w", "1"]
    result = CliRunner().invoke(cli, [*args, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["bots"] == {"A": "medium", "B": "random"} and data["seatings"] == ["AB", "BA"]
    assert data["sprt"]["verdict"] == "H1" and data["games"] == 2 * data["deals"]
    assert data["sprt"]["elo0"] == 0.0 and data["sprt"]["elo1"] == 50.0
    text = CliRunner().invoke(cli, args)
    assert text.exit_code == 0 and "H1 accepted: A is stronger" in text.output
    scored = CliRunner().invoke(cli, [*args, "--score0", "0.55", "--score1", "0.65", "--json"])
    assert json.loads(scored.output)["sprt"]["score1"] == 0.65


def test_a_time_limit_stops_the_match_after_the_deal_that_passes_it():
    args = ["match", "thirty-one", "medium", "random", "-p", "2", "--seed", "2026", "-w", "1"]
    result = CliRunner().invoke(cli, [*args, "--seconds", "0", "--json"])
    data = json.loads(result.output)
    assert data["deals"] == 1 and data["games"] == 2 and data["timed_out"]
    assert data["sprt"]["verdict"] == "inconclusive" and data["time_limit"] == 0
    text = CliRunner().invoke(cli, [*args, "--seconds", "0"])
    assert "inconclusive (the time limit came first)" in text.output
    untimed = json.loads(CliRunner().invoke(cli, [*args, "--json"]).output)
    assert untimed["deal_scores"][0] == data["deal_scores"][0] and not untimed["timed_out"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["toe", "medium", "nobody"], "nobody"),
        (["toe", "medium", "random", "-p", "3"], "toe is played by exactly 2 players"),
        (["memo-match", "medium", "random", "-p", "1"], "a match needs at least 2 players"),
        (["toe", "medium", "random", "--elo0", "50", "--elo1", "0"], "score0 < score1"),
        (["toe", "medium", "random", "--elo0", "0", "--score1", "0.6"], "--elo0/--elo1 or"),
        (["toe", "medium", "random", "--score1", "1.5"], "score0 < score1 < 1"),
        (["toe", "medium", "random", "--alpha", "0"], "alpha and beta are error rates"),
        (["toe", "medium", "random", "--games", "0"], "--games"),
        (["toe", "medium", "random", "--seconds", "-1"], "--seconds"),
        (["nogame", "medium", "random"], "nogame"),
    ],
)
def test_bad_input_is_a_usage_error(args, message):
    result = CliRunner().invoke(cli, ["match", *args])
    assert result.exit_code == 2 and message in result.output, result.output


def test_the_sprt_errs_about_as_often_as_alpha_and_beta():
    """Simulated deal scores (two-player deals score 0, 1/4, 1/2, 3/4 or 1): under H0 the
    test accepts H1 about alpha = 5% of the time, under H1 it accepts H0 about beta = 5%."""
    import random

    rng = random.Random(15)
    values = [0.0, 0.25, 0.5, 0.75, 1.0]

    def accepted(weights, runs=500):
        verdicts = Counter()
        for _ in range(runs):
            n, total, squares, verdict = 0, 0.0, 0.0, None
            while verdict is None:
                x = rng.choices(values, weights)[0]
                n, total, squares = n + 1, total + x, squares + x * x
                verdict = SPRT.verdict(SPRT.llr(n, total, squares))
            verdicts[verdict] += 1
        return {k: v / runs for k, v in verdicts.items()}

    level = accepted([0.1, 0.2, 0.4, 0.2, 0.1])  # mean 1/2: H0
    assert 0.02 <= level.get("H1", 0) <= 0.08, level
    stronger = accepted([0.06, 0.14, 0.4, 0.25, 0.15])  # mean 0.5725: H1 (57.1%)
    assert 0.02 <= stronger.get("H0", 0) <= 0.08, stronger
