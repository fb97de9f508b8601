"""The terminal view of Toe: the four layers, highlights, the quiz panel and the menu."""

from __future__ import annotations

from rich.console import Console

from tripletopper.cli.views.toe import ToeView
from tripletopper.engine import Option
from tripletopper.errors import InvalidOptionError

from .helpers import act, preset, stacked

NAMES = ["Ann", "Ben"]


def render(renderable) -> str:
    console = Console(width=100, record=True, force_terminal=True, color_system="truecolor")
    console.print(renderable)
    return console.export_text(styles=False), console.export_html(inline_styles=True)


def test_the_board_shows_four_labelled_layers_the_last_mark_and_the_winning_line():
    state = stacked({0: "YC3 YC4 YH3", 1: "GC3 GC4 GH3"}, stock="RS1")
    preset(state, {"RC1": 0, "RH1": 0, "RT1": 0, "BS4": 1})
    act(state, "draw", "play RS1")
    text, html = render(ToeView(state.game).table(state.observation(1), NAMES))
    for label in ("layer 1", "layer 4", "C● H♥ T▲ S■", " R ", " B "):
        assert label in text
    assert "Winning line: RC1 RH1 RT1 RS1" in text
    assert "Last mark: Ann played" in text
    assert "background-color" in html  # the winning cells are highlighted
    assert "game over" in text and "Your hand:" not in text  # hands stay hidden at the end


def test_the_quiz_panel_shows_the_question_but_not_the_answer():
    state = stacked({0: "YC3 YC4 YH3", 1: "GC3 GC4 GH3"}, quiz=True, questions=[2])
    view = ToeView(state.game)
    text, _ = render(view.table(state.public_observation(), NAMES))
    assert "Question 1 (Test, easy): Question 2?" in text and "A) right 2" in text
    act(state, "buzz", seat=1)
    text, _ = render(view.table(state.observation(0), NAMES))
    assert "Ben buzzed in and answers." in text
    act(state, "answer B", seat=1)
    text, _ = render(view.table(state.observation(0), NAMES))
    assert "Ben answered B, wrong (it was A) right 2); Ann earned the turn." in text


def test_a_wild_card_with_many_cells_gets_one_menu_line():
    state = stacked({0: "KB? RC1 YH2", 1: "GC3 GC4 GH3"}, stock="GT3")
    state.apply(("draw",))
    legal = state.legal_actions()
    lines = ToeView(state.game).menu(legal, state.observation(0))
    numbered = [action for action, _ in lines if action is not None]
    assert len(legal) == 67 and len(numbered) == 3
    assert all(action[1] != state.game.deck.parse("KB?") for action in numbered)
    texts = [render(label)[0] for _, label in lines]
    assert any("one of 64 free cells" in t for t in texts)


def test_text_options():
    option = Option("questions", "text", "builtin", "")
    assert option.validate("family@0123456789ab") == "family@0123456789ab"
    for bad in ("", "two words", " padded", "x" * 101, 5):
        try:
            option.validate(bad)
        except InvalidOptionError as exc:
            assert "a name without spaces" in str(exc)
        else:  # pragma: no cover
            raise AssertionError(bad)
