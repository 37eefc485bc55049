"""What the process keeps out of the cyclic garbage collector's full passes.

A game night's process holds a lot that lives on (modules, templates, the log's states, the
roster's cells); every full pass of the collector walks all of it. With 50 phones such a pass
was the largest part of a change's fan-out at p99 (benchmarks/phones.py: ~27 ms, ~16 ms with
what the server holds at its start frozen), and with a hall's states in the warm-up's console
it grew to ~250 ms every couple of seconds, stalling the phone server that shares its loop.
Frozen objects are still freed by their reference count when they die; only garbage in
cycles among them stays until the process ends.
"""

from __future__ import annotations

import gc

_frozen_once = False


def freeze_survivors(*, once: bool = False) -> None:
    """Leave what exists now out of the collector's full passes. ``once``: only the first
    time in this process (a phone server's start), after collecting what is garbage now."""
    global _frozen_once
    if once:
        if _frozen_once:
            return
        _frozen_once = True
        gc.collect()
    gc.freeze()
