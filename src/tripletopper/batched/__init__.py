"""Batched engines: N games of Thirty-One or Toe stepped together as NumPy arrays.

A second implementation of two games' rules, for learning agents that need millions of
steps: :class:`ThirtyOneBatch` and :class:`ToeBatch` hold a structure of arrays, apply
one action index per game, give legal masks, and draw chance from the scalar engine's
own generator, so that game ``i`` is the scalar game with the same seed and actions
(tests/test_batched.py proves it step by step).  See docs/batched.md.
"""

from tripletopper.batched.thirty_one import ThirtyOneBatch
from tripletopper.batched.toe import ToeBatch

__all__ = ["ThirtyOneBatch", "ToeBatch"]
