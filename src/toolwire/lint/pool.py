"""The one process pool of `toolwire check` and `toolwire migrate`, with its fallbacks.

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
from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, TypeVar

from toolwire.lint.engine import batch_gc

if TYPE_CHECKING:
    from concurrent.futures import Future

_T = TypeVar("_T")
_R = TypeVar("_R")

CHUNKS_PER_JOB = 4  # small enough to balance, large enough to amortise the pickling


def _no_progress(done: int) -> None:
    pass


def _init_worker(parent: int, stop: object) -> None:
    from toolwire.lint import writes  # only workers need it

    writes.guard_parent(parent, stop)
    batch_gc()


def _run_chunk(fn: Callable[[_T], _R], chunk: Sequence[_T]) -> list[_R]:
    return [fn(item) for item in chunk]


def _arrived(results: list[_R], start: int, each: Callable[[int, _R], None] | None) -> None:
    if each is not None:
        for offset, result in enumerate(results):
            each(start + offset, result)


def parallel_map(
    fn: Callable[[_T], _R],
    items: Sequence[_T],
    jobs: int,
    advance: Callable[[int], None] = _no_progress,
    each: Callable[[int, _R], None] | None = None,
) -> list[_R]:
    """`[fn(item) for item in items]` in up to `jobs` processes; `advance(n)` as items finish,
    and `each(index, result)` in this process as each result arrives (in any order).

    `fn` and the items must pickle (a module-level function and plain data).
    """
    jobs = min(jobs, len(items))
    if jobs <= 1:
        results = []
        for index, item in enumerate(items):
            results.append(fn(item))
            if each is not None:
                each(index, results[-1])
            advance(1)
        return results
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed  # only when parallel

    from toolwire.lint import writes

    size = max(1, math.ceil(len(items) / (jobs * CHUNKS_PER_JOB)))
    chunks = [items[i : i + size] for i in range(0, len(items), size)]
    work = partial(_run_chunk, fn)
    done: dict[int, list[_R]] = {}
    try:
        stop = multiprocessing.RawValue("b", 0)
        writes.share_stop(stop)
        with ProcessPoolExecutor(
            max_workers=jobs, initializer=_init_worker, initargs=(os.getpid(), stop)
        ) as pool:
            futures: dict[Future[list[_R]], int] = {
                pool.submit(work, chunk): index for index, chunk in enumerate(chunks)
            }
            for future in as_completed(futures):
                index = futures[future]
                try:
                    done[index] = future.result()
                except Exception:  # a dead worker or a pickling failure: redo it here
                    done[index] = work(chunks[index])
                _arrived(done[index], index * size, each)
                advance(len(chunks[index]))
    except OSError:  # no process pool on this platform
        pass
    for index, chunk in enumerate(chunks):
        if index not in done:
            done[index] = work(chunk)
            _arrived(done[index], index * size, each)
            advance(len(chunk))
    return [result for index in range(len(chunks)) for result in done[index]]
