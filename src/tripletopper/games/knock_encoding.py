"""What Thirty-Two and Thirty-One share in their encodings (``engine/encoding.py``).

Both are knock games with a squared discard pile: the action space is their
argument-less actions, then ``discard`` of every card of the deck without and with
``declare``; the observation blocks below are the same keys of both observations.
"""

from __future__ import annotations

from collections.abc import Iterable, MutableSequence
from typing import ClassVar, Protocol

from tripletopper.cards.deck import Deck
from tripletopper.engine.actions import Action
from tripletopper.engine.encoding import Block, Encoding, Features, Observation, card_lookup


def knock_blocks(deck: Deck, players: int, phases: tuple[str, ...]) -> list[Block]:
    """The blocks of the shared observation keys, for a deck and a largest table."""
    cards, name = deck.size, deck.name
    return [
        Block("hand", cards, f"own hand, one-hot per card ({name} deck, {cards} cards)"),
        Block("discard_top", cards, "the face-up top of the discard pile, one-hot"),
        Block("taken", cards, "the discard this seat just took (must keep it), one-hot"),
        Block("known", players * cards, "per relative seat: its cards everyone saw it take"),
        Block("phase", len(phases), "phase one-hot: " + ", ".join(phases)),
        Block("turn", players, "relative seat whose turn it is, one-hot"),
        Block("dealer", players, "relative seat of the dealer, one-hot"),
        Block("knocker", players, "relative seat that knocked, one-hot (none: all 0)"),
        Block("in_hand", players, "relative seats dealt into this hand"),
        Block("out", players, "relative seats out of the game"),
        Block("hand_sizes", players, "cards held per relative seat / 4"),
        Block("piles", 2, f"stock size / {cards}, discard pile size / {cards}"),
    ]


class KnockEncoding(Encoding):
    """Thirty-Two's and Thirty-One's shared encoding; a game lists its own parts."""

    deck: ClassVar[Deck]
    phases: ClassVar[tuple[str, ...]]
    plain: ClassVar[tuple[str, ...]]
    """The kinds without arguments, indices 0.. in this order; discards follow."""

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        cls.lookup = card_lookup(cls.deck)
        cls.actions = len(cls.plain) + 2 * cls.deck.size
        cls._plain_index = {kind: i for i, kind in enumerate(cls.plain)}
        cls._at = cls.layout.offset

    lookup: ClassVar[dict[str, int]]
    _plain_index: ClassVar[dict[str, int]]
    _at: ClassVar[dict[str, int]]

    def action_to_index(self, action: Action, obs: Observation | None) -> int:
        if action[0] == "discard" and len(action) == 3 and 0 <= action[1] < self.deck.size:
            return len(self.plain) + 2 * int(action[1]) + bool(action[2])
        index = self._plain_index.get(action[0])
        if index is None or len(action) != 1:
            raise self._outside(action)
        return index

    def index_to_action(self, index: int, obs: Observation | None) -> Action:
        if not 0 <= index < self.actions:
            raise self._outside(index)
        if index < len(self.plain):
            return (self.plain[index],)
        card, declare = divmod(index - len(self.plain), 2)
        return ("discard", card, bool(declare))

    def write_shared(self, obs: Observation, f: Features) -> None:
        lookup = self.lookup
        f.cards("hand", obs.get("hand", ()), lookup)
        f.cards("discard_top", (obs["discard_top"],), lookup)
        f.cards("taken", (obs["taken"],), lookup)
        size = self.deck.size
        for seat, cards in enumerate(obs["known"]):
            f.cards("known", cards, lookup, f.rel(seat) * size)
        f.choice("phase", obs["phase"], self.phases)
        f.seat("turn", obs["turn"])
        f.seat("dealer", obs["dealer"])
        f.seat("knocker", obs["knocker"])
        f.seats("in_hand", obs["in_hand"])
        f.seats("out", obs["out"])
        f.per_seat("hand_sizes", obs["hand_sizes"], 4)
        f.put("piles", 0, obs["stock_size"] / size)
        f.put("piles", 1, obs["discard_size"] / size)

    def fast_shared(
        self,
        out: MutableSequence[float],
        state: KnockState,
        me: int,
        holds: bool,
        turn: int | None,
        gone: Iterable[int],
        stock_size: int,
    ) -> None:
        """What :meth:`write_shared` writes, from the state's fields that the observation
        is built of; the game says whether ``me`` ``holds`` a hand in its observation,
        whose turn its observation names, the seats ``gone`` (out of the game) and the
        stock's size."""
        at = self._at
        size = self.deck.size
        players = len(state.hands)
        hands = state.hands
        if holds:
            base = at["hand"]
            for card in hands[me]:
                out[base + card] = 1.0
        pile = state.pile
        if pile:
            out[at["discard_top"] + pile[-1]] = 1.0
        if state.taken >= 0:
            out[at["taken"] + state.taken] = 1.0
        public = state.public
        known = at["known"]
        sizes = at["hand_sizes"]
        for seat, cards in enumerate(hands):
            rel = (seat - me) % players
            if cards:
                out[sizes + rel] = len(cards) / 4
            base = known + rel * size
            for card in cards:
                if card in public:
                    out[base + card] = 1.0
        out[at["phase"] + state.phase] = 1.0
        if turn is not None:
            out[at["turn"] + (turn - me) % players] = 1.0
        out[at["dealer"] + (state.dealer - me) % players] = 1.0
        if state.knocker >= 0:
            out[at["knocker"] + (state.knocker - me) % players] = 1.0
        base = at["in_hand"]
        for seat in state.seats_in:
            out[base + (seat - me) % players] = 1.0
        base = at["out"]
        for seat in gone:
            out[base + (seat - me) % players] = 1.0
        out[at["piles"]] = stock_size / size
        out[at["piles"] + 1] = len(pile) / size


class KnockState(Protocol):
    """The fields of a knock game's state that :meth:`KnockEncoding.fast_shared` reads."""

    hands: list[list[int]]
    public: set[int]
    pile: list[int]
    taken: int
    phase: int
    dealer: int
    knocker: int
    seats_in: list[int]
