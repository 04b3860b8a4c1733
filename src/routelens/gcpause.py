"""Pausing Python's cyclic garbage collector around big, cycle-free
allocations (reading a registry, rendering the catalog).

Nothing in this module imports another routelens module.
"""

from __future__ import annotations

import contextlib
import gc
import threading
from typing import Iterator

__all__ = ["gc_paused", "batch_collection"]

_LOCK = threading.Lock()
_DEPTH = 0
_WAS_ENABLED = [True]


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector for a block that allocates many
    containers and makes no reference cycles. Without this the collector
    rescans every live object again and again while they grow: a third of
    the build time at 10,000 skills, and more than half at 100,000. Nests;
    thread-safe in the sense that the collector is re-enabled only by the
    outermost block, and only when it was enabled before it."""
    global _DEPTH
    with _LOCK:
        if _DEPTH == 0:
            _WAS_ENABLED[0] = gc.isenabled()
            gc.disable()
        _DEPTH += 1
    try:
        yield
    finally:
        with _LOCK:
            _DEPTH -= 1
            if _DEPTH == 0 and _WAS_ENABLED[0]:
                gc.enable()


#: collector thresholds while a batch routes (:func:`batch_collection`): generation 0 every 10,000
#: allocations net instead of Python's 700, generation 2 after 20 x 50 of those
BATCH_THRESHOLDS = (10_000, 20, 50)


@contextlib.contextmanager
def batch_collection() -> Iterator[None]:
    """Collect garbage less often while one long-lived structure (a router:
    its matchers, lexicon and entries, a few hundred thousand objects at
    10,000 skills) serves many short jobs (``routelens route --json -``).

    Everything alive on entry is frozen (``gc.freeze``: never scanned again),
    and the thresholds are :data:`BATCH_THRESHOLDS`. With Python's defaults
    a batch of 1,000 tasks at 10,000 skills spent 10-15% of its time in the
    collector, and each of its 20-odd full collections (every object the
    router read or made lazily since) paused one task by 50-100 ms: most of
    the per-task p99. Routing makes few reference cycles, so the garbage
    left between collections stays small. On exit the objects are unfrozen
    and the thresholds restored (a test process goes on as before)."""
    old = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(*BATCH_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*old)
        gc.unfreeze()
