"""The process pool of `toolwire check` and `toolwire migrate`, with its fallbacks.

Items go to `jobs` worker processes in chunks, and come back in their order. A worker
dies with its parent (`writes.guard_parent`), so a killed run leaves no writer behind;
it ignores Ctrl-C and reads the parent's stop flag (`writes.request_stop`) instead, so a
write in progress completes and none begins after it. A chunk whose worker died (or
could not be pickled) is redone in this process, and where no process pool can be made
at all, everything is.
"""

from __future__ import annotations

import math
import os
import sys
from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, TypeVar

from toolwire.lint.engine import batch_gc

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor
    from multiprocessing.context import BaseContext

_T = TypeVar("_T")
_R = TypeVar("_R")

CHUNKS_PER_JOB = 4  # small enough to balance, large enough to amortise the pickling
COST_CHUNKS_PER_JOB = 12  # with costs known, the last chunks are the cheap ones


def _no_progress(done: int) -> None:
    pass


def _init_worker(parent: int, stop: object) -> None:
    from toolwire.lint import writes  # only workers need it

    writes.guard_parent(parent, stop)
    batch_gc()


def _run_chunk(fn: Callable[[_T], _R], chunk: Sequence[_T]) -> list[_R]:
    return [fn(item) for item in chunk]


def _chunks(count: int, jobs: int, cost: Sequence[float] | None) -> list[list[int]]:
    """The item indices of each chunk, in the order they are handed out.

    Without `cost`, `CHUNKS_PER_JOB` runs of neighbours (neighbours often share work, such
    as the modules one imports); each chunk of migrate's pass one carries the plan across
    files, so more, smaller chunks cost more than they balance. With it, the costliest
    items first and each chunk about the same cost, `COST_CHUNKS_PER_JOB` of them a
    worker: the run then ends on a few cheap items, not on one slow file handed out last.
    """
    share = sum(cost) / (jobs * COST_CHUNKS_PER_JOB) if cost is not None else 0.0
    if cost is None or share <= 0:  # no cost known (or all nil): runs of neighbours
        size = max(1, math.ceil(count / (jobs * CHUNKS_PER_JOB)))
        return [list(range(i, min(i + size, count))) for i in range(0, count, size)]
    order = sorted(range(count), key=lambda i: cost[i], reverse=True)
    chunks: list[list[int]] = []
    current: list[int] = []
    weight = 0.0
    for index in order:
        current.append(index)
        weight += cost[index]
        if weight >= share:
            chunks.append(current)
            current, weight = [], 0.0
    return [*chunks, current] if current else chunks


def parallel_map(
    fn: Callable[[_T], _R],
    items: Sequence[_T],
    jobs: int,
    advance: Callable[[int], None] = _no_progress,
    each: Callable[[int, _R], None] | None = None,
    cost: Sequence[float] | None = None,
) -> list[_R]:
    """`Pool.map` in a pool of its own: for a run with one parallel step."""
    with Pool(jobs) as pool:
        return pool.map(fn, items, advance, each, cost)


class Pool:
    """Up to `jobs` worker processes shared by every `map` of a run (migrate maps four
    to six steps over the same files): the workers fork once, at the first map that needs
    them, and keep what they loaded. What varies between maps travels in the items.

    A map whose pool broke (a worker died) redoes the lost chunks here, and the next map
    starts a new pool; where no pool can be made at all, every map runs here.
    """

    def __init__(self, jobs: int) -> None:
        self.jobs = jobs
        self.started = 0  # process pools started so far
        self._executor: ProcessPoolExecutor | None = None
        self._unavailable = False

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None

    def _pool(self) -> ProcessPoolExecutor | None:
        if self._executor is None and not self._unavailable:
            import multiprocessing
            from concurrent.futures import ProcessPoolExecutor  # only when parallel

            from toolwire.lint import writes

            try:
                stop = multiprocessing.RawValue("b", 0)
                writes.share_stop(stop)
                self._executor = ProcessPoolExecutor(
                    max_workers=self.jobs,
                    mp_context=_context(),
                    initializer=_init_worker,
                    initargs=(os.getpid(), stop),
                )
            except (OSError, ImportError):  # no process pool on this platform
                self._unavailable = True
                return None
            self.started += 1
        return self._executor

    def map(
        self,
        fn: Callable[[_T], _R],
        items: Sequence[_T],
        advance: Callable[[int], None] = _no_progress,
        each: Callable[[int, _R], None] | None = None,
        cost: Sequence[float] | None = None,
    ) -> list[_R]:
        """`[fn(item) for item in items]` in the workers; `advance(n)` as items finish,
        and `each(index, result)` in this process as each result arrives (in any order).
        `cost` (one number an item, such as its size) hands out the costliest items first.

        `fn` and the items must pickle (a module-level function and plain data).
        """
        jobs = min(self.jobs, len(items))
        if jobs <= 1:
            results = []
            for index, item in enumerate(items):
                results.append(fn(item))
                if each is not None:
                    each(index, results[-1])
                advance(1)
            return results
        chunks = _chunks(len(items), jobs, cost)
        work = partial(_run_chunk, fn)
        out: dict[int, _R] = {}

        def arrived(chunk: list[int], results: list[_R]) -> None:
            for index, result in zip(chunk, results, strict=True):
                out[index] = result
                if each is not None:
                    each(index, result)
            advance(len(chunk))

        pool = self._pool()
        if pool is not None:
            self._run(pool, work, items, chunks, arrived)
        for chunk in chunks:
            if chunk and chunk[0] not in out:
                arrived(chunk, work([items[i] for i in chunk]))
        return [out[index] for index in range(len(items))]

    def _run(
        self,
        pool: ProcessPoolExecutor,
        work: Callable[[list[_T]], list[_R]],
        items: Sequence[_T],
        chunks: list[list[int]],
        arrived: Callable[[list[int], list[_R]], None],
    ) -> None:
        """The chunks through `pool`; a chunk lost to a dead worker (or a pickling
        failure) is redone here, and a broken pool is let go for the next map."""
        from concurrent.futures import as_completed
        from concurrent.futures.process import BrokenProcessPool

        broken = False
        try:
            futures: dict[Future[list[_R]], list[int]] = {
                pool.submit(work, [items[i] for i in chunk]): chunk for chunk in chunks
            }
            for future in as_completed(futures):
                chunk = futures.pop(future)
                try:
                    results = future.result()
                except Exception as exc:  # a dead worker or a pickling failure: redo it here
                    broken = broken or isinstance(exc, BrokenProcessPool)
                    results = work([items[i] for i in chunk])
                arrived(chunk, results)
        except BrokenProcessPool:  # died before every chunk was handed out
            broken = True
        except OSError:  # the workers cannot start (fork refused)
            self._unavailable = broken = True
        if broken:
            self.close()


def _context() -> BaseContext | None:
    """fork where the platform has it: a worker starts with what the parent loaded and
    the state it set (`engine.linked`, `engine.cached`), instead of importing it all
    again (Python 3.14 makes forkserver the default on Linux)."""
    import multiprocessing

    if sys.platform == "linux":
        return multiprocessing.get_context("fork")
    return None
