"""The garbage collector in a server that holds a lecture hall for an evening.

CPython's collector looks at every object it tracks when it makes a full pass: with a hall
connected (1,000 streams, their requests and the room's state) that is millions of objects,
and without what follows a full pass stops the server's one loop for up to half a second in
the middle of a round (at 1,000 phones, three such passes while they choose, 0.3-0.46 s each,
and every request waits behind them). What the room holds at a round's start or reveal lives
on until the evening ends, so a crowd's feed :meth:`settles <Collector.settle>` it then: it is
taken out of the collector's passes (``gc.freeze``), which then look only at what was made
since.
Objects freed by their last reference are freed as always; only a cycle of garbage that was
alive at a settle waits for :meth:`Collector.release` (when the server stops), which hands
everything back to the collector. While a crowd joins, it settles every few seconds, so that
the round's draw (a burst of work of its own) does not start a full pass over the joins.
"""

from __future__ import annotations

import gc
import math
import time


class Collector:
    """One server's hold on the collector: settled at most until it is released."""

    def __init__(self) -> None:
        self.settled = False
        self._at = -math.inf  # when it last settled (monotonic seconds)

    def settle(self, every: float = 0.0) -> None:
        """Take everything alive now out of the collector's passes, until :meth:`release`;
        not again within ``every`` seconds of the last time."""
        now = time.monotonic()
        if now - self._at < every:
            return
        gc.freeze()
        self.settled = True
        self._at = now

    def release(self) -> None:
        """Hand everything settled back to the collector (the server stops)."""
        if self.settled:
            gc.unfreeze()
            self.settled = False
