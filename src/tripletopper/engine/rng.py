"""The one seeded random generator every game draws its chance from.

A 64-bit linear congruential generator (Knuth's MMIX constants) whose high 32
bits are used.  It is pure Python on purpose: its whole state is one int, so
cloning a game state for search copies a number instead of the 625-word
Mersenne Twister state, and its output is the same on every platform and
Python version.  Quality is ample for shuffling cards; it is not for crypto.

>>> rng = Rng(1)
>>> [rng.below(10) for _ in range(5)]
[6, 4, 1, 0, 5]
>>> Rng(1).below(10) == Rng(1).below(10)
True
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK64 = (1 << 64) - 1
_MULT = 6364136223846793005
_INC = 1442695040888963407


def mix64(value: int) -> int:
    """SplitMix64's finalizer: spreads any int's bits over 64 bits."""
    z = (value + 0x9E3779B97F4A7C15) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return z ^ (z >> 31)


def derive_seed(*parts: int) -> int:
    """A 63-bit seed derived from several ints (game ``i`` of run ``seed``, a bot's seat...)."""
    h = 0x7A3B_1F2C
    for part in parts:
        h = mix64(h ^ (part & _MASK64) ^ ((part >> 64) & _MASK64))
    return h >> 1


class Rng:
    """Deterministic generator; ``Rng(seed)`` for any int seed."""

    __slots__ = ("state",)

    def __init__(self, seed: int = 0) -> None:
        self.state = mix64(seed & _MASK64 ^ (seed >> 64) & _MASK64)

    def below(self, n: int) -> int:
        """A uniform int in ``range(n)`` (``n`` up to 2**32)."""
        self.state = s = (self.state * _MULT + _INC) & _MASK64
        return ((s >> 32) * n) >> 32

    def bits(self) -> int:
        """A uniform 63-bit int (for seeding another generator)."""
        self.state = s = (self.state * _MULT + _INC) & _MASK64
        self.state = t = (s * _MULT + _INC) & _MASK64
        return ((s >> 32) << 31) | (t >> 33)

    def random(self) -> float:
        """A float in [0, 1)."""
        return self.below(1 << 32) / 4294967296.0

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates shuffle in place."""
        below = self.below
        for i in range(len(items) - 1, 0, -1):
            j = below(i + 1)
            items[i], items[j] = items[j], items[i]

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        """``k`` distinct items in random order: ``j = below(len(pool))`` swapped to the
        end and popped, ``k`` times (:meth:`below` inlined, as bots sample in loops)."""
        pool = list(items)
        size = n = len(pool)
        if k > n:
            raise IndexError(f"a sample of {k} from {n} items")
        s = self.state
        for _ in range(k):  # the end of the pool is the sample, its last item drawn first
            s = (s * _MULT + _INC) & _MASK64
            j = ((s >> 32) * n) >> 32
            n -= 1
            pool[j], pool[n] = pool[n], pool[j]
        self.state = s
        return pool[size - 1 : n - 1 : -1] if n else pool[::-1]

    def advance(self, steps: int) -> None:
        """Move on as ``steps`` calls of :meth:`below` would, in ``log2(steps)`` squarings
        of the generator's step (an affine map: twice is ``x -> m*m*x + (m+1)*i``)."""
        mult, inc, state = _MULT, _INC, self.state
        while steps > 0:
            if steps & 1:
                state = (state * mult + inc) & _MASK64
            inc = (inc * (mult + 1)) & _MASK64
            mult = (mult * mult) & _MASK64
            steps >>= 1
        self.state = state

    def fork(self) -> Rng:
        """An independent generator seeded from this one."""
        return Rng(self.bits())

    def clone(self) -> Rng:
        twin = Rng.__new__(Rng)
        twin.state = self.state
        return twin
