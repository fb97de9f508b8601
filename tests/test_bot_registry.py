"""The bots each game offers, by name, from its GameBots record."""

from __future__ import annotations

import pytest

from tripletopper.bots import (
    GAME_BOTS,
    RandomBot,
    bot_class,
    bot_names,
    check_spec,
    default_bot,
    make_bot,
)
from tripletopper.bots.base import bot_parameters
from tripletopper.bots.ismcts import ISMCTSBot
from tripletopper.bots.memo_match import ForgetfulBot, PerfectBot
from tripletopper.bots.thirty_two import ThirtyTwoHeuristic
from tripletopper.bots.toe import ToeHeuristic, ToeRandom
from tripletopper.errors import InvalidOptionError
from tripletopper.games import GAMES
from tripletopper.question_banks import make_game


def test_every_game_has_its_bots_and_levels_by_name():
    assert set(GAME_BOTS) == set(GAMES)
    for name, bots in GAME_BOTS.items():
        assert list(bots.levels) == ["easy", "medium", "hard", "expert"]
        for bot, cls in bots.by_name().items():
            assert bot_class(bot, name) is cls
        assert default_bot(name) == "medium"
    assert bot_class("heuristic", "thirty-two") is ThirtyTwoHeuristic
    assert bot_class("random", "toe") is ToeRandom and bot_class("heuristic", "toe") is ToeHeuristic
    assert bot_class("random", "thirty-one") is RandomBot
    assert bot_class("perfect", "memo-match") is PerfectBot
    assert bot_class("forgetful", "memo-match") is ForgetfulBot
    assert bot_names("no-such-game") == ["ismcts", "random"]
    assert bot_class("ismcts", "no-such-game") is ISMCTSBot
    with pytest.raises(InvalidOptionError, match="no bot 'heuristic' for memo-match"):
        bot_class("heuristic", "memo-match")


def test_each_games_ismcts_searches_its_way_and_falls_back_on_its_bot():
    for name, bots in GAME_BOTS.items():
        bot = make_bot("ismcts:iterations=5", make_game(name), 0, 1)
        assert isinstance(bot, ISMCTSBot) and bot.iterations == 5
        assert bot.spec is bots.search and type(bot.fallback) is bots.search_fallback()
    game = make_game("toe")
    with pytest.raises(InvalidOptionError, match="iterations=5000 is more than the card room"):
        check_spec("hard:iterations=5000", game, bounded=True)
    assert check_spec("hard:iterations=5000", game)(0, 0).iterations == 5000  # type: ignore[attr-defined]


def test_a_searching_bots_paired_parameter_is_a_count_of_moves():
    game = make_game("thirty-one")
    assert make_bot("ismcts:paired=3", game, 0, 0).spec.paired == 3  # type: ignore[attr-defined]
    for spec, says in (("hard:paired=-1", "paired=-1: give 0"), ("hard:paired=x", "whole number")):
        with pytest.raises(InvalidOptionError, match=says):
            check_spec(spec, game, bounded=True)


BELOW = {
    "iterations": ("0", "-5", "2.5"),
    "depth": ("0", "-1", "1.5"),
    "paired": ("-1", "0.5"),
    "samples": ("0", "-3", "2.5"),
    "seconds": ("-1",),
    "exploration": ("-0.1",),
    "confidence": ("-1",),
    "mistakes": ("-0.1", "1.5"),
    "accuracy": ("1.5",),
    "guess": ("-1",),
    "buzz": ("-1",),
    "spot_delay": ("-1",),
    "capacity": ("-1", "2.5"),
    "big": ("0",),
}
"""Values each parameter must refuse: a count below its floor or not whole, a time, weight
or chance out of its range (samples=0 divided by zero; iterations=-5 searched nothing)."""


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_bot_parameter_out_of_range_or_not_a_number_is_refused(name: str):
    game = make_game(name)
    accepted = []
    for bot in bot_names(name):
        for key in bot_parameters(bot_class(bot, name)):
            for value in (*BELOW.get(key, ()), "nan", "inf", "-inf"):
                try:
                    make_bot(f"{bot}:{key}={value}", game, 0, 0)
                except InvalidOptionError as refusal:
                    assert str(refusal).startswith(f"bad parameters for bot {bot!r}: {key}")
                else:
                    accepted.append(f"{bot}:{key}={value}")
    assert not accepted
