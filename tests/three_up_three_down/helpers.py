"""Stacked deals for 3UP 3DOWN scenarios, written by value ("7 7 C") instead of card names."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tripletopper.cards.three_up import RANK, THREE_UP, rank_of
from tripletopper.games.three_up_three_down import ThreeUpThreeDown, ThreeUpThreeDownState


class Copies:
    """Hands out unused physical cards of each value, lowest copy first."""

    def __init__(self, cards: Sequence[int] = range(84)) -> None:
        self.cards = cards
        self.used: set[int] = set()

    def __call__(self, text: str) -> list[str]:
        out = []
        for word in text.split():
            rank = rank_of(word)
            card = next(c for c in self.cards if RANK[c] == rank and c not in self.used)
            self.used.add(card)
            out.append(THREE_UP.format(card))
        return out


def deal(
    players: int, dealer: int, down: Mapping[int, str], six: Mapping[int, str], stock: str = ""
) -> list[str]:
    """The stacked deck order dealing these 3DOWN and six cards (values) from the dealer's left."""
    copies = Copies()
    seats = [(dealer + 1 + i) % players for i in range(players)]
    downs = {s: copies(down[s]) for s in seats}
    sixes = {s: copies(six[s]) for s in seats}
    order = [downs[s][r] for r in range(3) for s in seats]
    order += [sixes[s][r] for r in range(6) for s in seats]
    return order + copies(stock)


def stacked(
    players: int,
    down: Mapping[int, str],
    six: Mapping[int, str],
    stock: str = "",
    up: Mapping[int, str] | None = None,
    dealer: int | None = None,
    seed: int = 0,
    **options: Any,
) -> ThreeUpThreeDownState:
    """A game dealt as given (dealer defaults to the last seat, so seat 0 leads); with ``up``
    every seat has chosen those 3UP values."""
    dealer = players - 1 if dealer is None else dealer
    game = ThreeUpThreeDown(players, **options)
    state = game.new_state(seed, decks=[deal(players, dealer, down, six, stock)], dealer=dealer)
    if up is not None:
        for seat in range(players):
            state.apply_text(f"choose {up[seat]}", seat)
    return state


def arranged(
    players: int,
    hands: Mapping[int, str],
    up: Mapping[int, str] | None = None,
    down: Mapping[int, str] | None = None,
    pile: str = "",
    stock: str = "",
    turn: int = 0,
    **options: Any,
) -> ThreeUpThreeDownState:
    """A mid-game position set by hand: these hands, 3UP and 3DOWN cards, pile (bottom
    first) and stock (top first, drawn in this order); every other card of the deck is
    out of the game (cleared), so all cards stay accounted for."""
    game = ThreeUpThreeDown(players, **options)
    state = game.new_state(0)
    for seat in range(players):
        state.apply(state.legal_actions(seat)[0], seat)
    copies = Copies(game.cards)

    def cards(text: str) -> list[int]:
        return [THREE_UP.parse(name) for name in copies(text)]

    state.hands = [cards(hands.get(s, "")) for s in range(players)]
    state.up = [cards((up or {}).get(s, "")) for s in range(players)]
    state.down = [cards((down or {}).get(s, "")) for s in range(players)]
    state.known = [set() for _ in range(players)]
    state.bounds = [[] for _ in range(players)]
    state.pile = cards(pile)
    state.run_rank = RANK[state.pile[-1]] if state.pile else 0
    state.run_len = 0
    for card in reversed(state.pile):
        if RANK[card] != state.run_rank:
            break
        state.run_len += 1
    top = cards(stock)
    state.stock.fill(top, stacked=top)
    state.cleared = [c for c in game.cards if c not in copies.used]
    state.turn = turn
    state.history = []
    state.recount()
    return state


def vals(cards: list[int]) -> str:
    """Cards by value, sorted: ``"3 7 7 C"``."""
    return " ".join(THREE_UP.format(c)[:-2] for c in sorted(cards))


def play(state: ThreeUpThreeDownState, *texts: str) -> list[dict[str, Any]]:
    """Apply text actions for whoever is to act; the public views of all events."""
    views = []
    for text in texts:
        for event in state.apply_text(text):
            views.append(event.view(None))
    return views


def legal(state: ThreeUpThreeDownState, seat: int | None = None) -> list[str]:
    return [state.game.action_to_text(a) for a in state.legal_actions(seat)]
