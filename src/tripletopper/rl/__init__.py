"""The games as research environments (``pip install tripletopper[rl]``).

- :mod:`tripletopper.rl.encoding`: fixed action spaces, observation tensors and
  legal-action masks (:class:`~tripletopper.rl.encoding.Encoder`);
- :mod:`tripletopper.rl.pettingzoo`: PettingZoo AEC environments (``env(game, ...)``);
- :mod:`tripletopper.rl.gym`: Gymnasium environments, one learner against bots
  (``tripletopper/ThirtyOne-v0``, ...);
- :mod:`tripletopper.rl.openspiel`: the games as OpenSpiel Python games.

See ``docs/research.md``.  Importing this package imports none of those libraries.
"""
