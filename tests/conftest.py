"""Shared test settings: Hypothesis profiles (``HYPOTHESIS_PROFILE=thorough`` for more examples).

``print_blob`` makes a failure print an ``@reproduce_failure`` line that replays it: under
pytest, Hypothesis's own "Failing test case" note shows the arguments empty."""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "default",
    max_examples=60,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "thorough",
    max_examples=1000,
    deadline=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

# The room's settings may come from TRIPLETOPPER_* variables (`serve`, `db`): a room's
# environment where the tests run must not reach the servers they start.
for _name in [name for name in os.environ if name.startswith("TRIPLETOPPER_")]:
    del os.environ[_name]
