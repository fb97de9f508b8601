"""Independent jobs on all cores or on a Ray cluster, their results in job order.

The one pool of the project's batch commands (``tournament``, ``match``, ``analyze``): a
job's result may depend only on the job, so the same jobs give the same results
whatever the number of workers or machines.

- ``workers``: processes on this machine (default: one per core); with one, the
  jobs run in this process with the cyclic garbage collector paused.
- ``ray``: a Ray cluster instead: ``auto`` (the cluster this machine belongs to,
  or ``RAY_ADDRESS``), ``local`` (start one on this machine), or an address
  (``ray://head:10001``, ``head:6379``).  Ray is the optional extra
  ``tripletopper[cluster]``; every machine of the cluster needs tripletopper
  installed at the same version.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

from tripletopper.runner import gc_paused

J = TypeVar("J")
R = TypeVar("R")


def default_workers() -> int:
    return os.cpu_count() or 1


def run_ordered(
    func: Callable[[J], R],
    jobs: Sequence[J],
    *,
    workers: int | None = None,
    ray: str | None = None,
    chunk: int | None = None,
) -> Generator[R, None, None]:
    """``func(job)`` for every job, yielded in job order (``func`` must be a module-level
    function: it is sent to other processes by name).  Closing the generator early
    cancels the jobs not yet started (on Ray, drops their results).

    ``chunk``: jobs sent to a worker at once (default: up to 16, fewer for few jobs).
    A closed generator still waits for the chunks already handed out (a few per worker),
    so a caller that stops early on long jobs passes 1."""
    if ray is not None:
        yield from _ray_map(func, jobs, ray)
        return
    count = workers if workers is not None else default_workers()
    if count <= 1 or len(jobs) < 2:
        with gc_paused():
            for job in jobs:
                yield func(job)
        return
    if chunk is None:
        chunk = max(1, min(16, len(jobs) // (count * 8)))
    with ProcessPoolExecutor(max_workers=count) as pool:
        yield from pool.map(func, jobs, chunksize=chunk)


class RayUnavailable(RuntimeError):
    """Ray is not installed, or the cluster could not be reached."""


def connect_ray(address: str) -> Any:
    """The ``ray`` module, connected to ``address`` (see the module doc); reused if connected."""
    try:
        import ray
    except ImportError:
        raise RayUnavailable("Ray is not installed: pip install 'tripletopper[cluster]'") from None
    if address not in ("auto", "local"):
        _check_reachable(address)  # Ray itself retries an unreachable head for minutes
    if not ray.is_initialized():
        settings: dict[str, Any] = {"log_to_driver": False, "configure_logging": False}
        try:
            if address == "local":
                ray.init(include_dashboard=False, **settings)
            else:
                ray.init(address=address, **settings)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise RayUnavailable(f"cannot reach the Ray cluster at {address!r}: {exc}") from None
    return ray


def _check_reachable(address: str, seconds: float = 5.0) -> None:
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not host or not port.isdigit():
        raise RayUnavailable(
            f"a Ray address is auto, local, HOST:PORT or ray://HOST:PORT (got {address!r})"
        )
    try:
        socket.create_connection((host, int(port)), timeout=seconds).close()
    except OSError as exc:
        raise RayUnavailable(f"cannot reach the Ray cluster at {address!r}: {exc}") from None


def _ray_map(func: Callable[[J], R], jobs: Sequence[J], address: str) -> Iterator[R]:
    ray = connect_ray(address)
    remote = ray.remote(func)
    # Closed early, the jobs left run on and their results are dropped: ``ray.cancel``
    # racing a task's completion crashed the driver (Ray 2.60's task_manager check,
    # "Tried to complete task that was not pending"), and a match sends small batches.
    for ref in [remote.remote(job) for job in jobs]:
        yield ray.get(ref)
