"""The long-running servers' garbage collector, kept from stopping them for seconds.

``guandan hall serve`` and ``guandan serve`` hold every table's match replayed (the hall's
result feed, the live pages' views): tens of millions of objects in a hall's round.
CPython's full collection walks every object it tracks, so the fuller the heap, the longer
each one stops the process — seconds at a time in ``benchmarks/tournament_hall.py``'s
round, and with it the intake and a result's way to the standings.

So after each full collection the objects that lived through it are frozen
(``gc.freeze``): they leave the collector's generations, and the next full collection walks
only what has become long-lived since. A frozen object is still freed by reference counting
when let go; what it can no longer be is collected as part of a reference cycle. The bulk
— a replayed match, its events, a page's view of a table — holds no cycles
(``tests/scorer/test_heap.py``), so what freezing keeps is the rare cycle made of objects
that had lived through a full collection first.
"""

from __future__ import annotations

import gc

#: the oldest generation: a collection of it walks every object not frozen
FULL = 2


def _freeze_survivors(phase: str, info: dict[str, int]) -> None:
    """A ``gc.callbacks`` hook: after a full collection, what survived it is frozen."""
    if phase == "stop" and info["generation"] == FULL:
        gc.freeze()


def keep_full_collections_short() -> None:
    """From now on, freeze the survivors of every full collection (once per process,
    however often it is called)."""
    if _freeze_survivors not in gc.callbacks:
        gc.callbacks.append(_freeze_survivors)
