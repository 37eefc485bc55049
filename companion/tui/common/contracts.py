"""What the composition root hands the consoles: the callables they may call, typed here so
that a console can name them without importing the command line.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, NamedTuple, Protocol, TypeVar

from companion.session.session import Session

Stopper = Callable[[], Awaitable[None]]
ScreenT_co = TypeVar("ScreenT_co", covariant=True)


class Printed(NamedTuple):
    """Where a PDF of cards went, and the address their links are built on."""

    path: Path
    base: str


class Printer(Protocol):
    """Prints a session's cards: (session, paper, out, public_url) -> what it printed, having
    only read the session (it runs in a worker thread: the caller records the address on its
    own); raises UserError in one sentence."""

    def __call__(
        self, session: Session, paper: str, out: str | Path, public_url: str | None, /
    ) -> Printed: ...


class Addresses(Protocol):
    """This laptop's addresses, as (interface, address) pairs."""

    def __call__(self) -> list[tuple[str, str]]: ...


class Links(Protocol):
    """The extra links the Seats screen lists, as {"label": ..., "url": ...}."""

    def __call__(self) -> list[dict[str, str]]: ...


class BalanceFactory(Protocol[ScreenT_co]):
    """The console's Balance screen for a session, its points measured by the simulator."""

    def __call__(self, session: Session, /) -> ScreenT_co: ...


class TableRates(Protocol):
    """The real tables' escape rates for a group size and parole tokens to win (the designers'
    notebook, rehearsals with bots left out): one point per nights to escape played, each
    ``{"nights_to_escape", "games", "escape": {"count", "rate", "low", "high"}}`` (95%)."""

    def __call__(self, prisoners: int, tokens: int, /) -> list[dict[str, Any]]: ...


class NetworkProbe(Protocol):
    """The venue preflight's test page, served (by the running phone server, or alone on the
    game's port): its address, the laptop's addresses as (interface, address) pairs, and each
    visit told to a listener as (the visitor's address, the round trip in ms)."""

    @property
    def url(self) -> str: ...

    @property
    def port(self) -> int: ...

    def addresses(self) -> list[tuple[str, str]]: ...

    def listen(self, listener: Callable[[str, int], None], /) -> Callable[[], None]: ...

    async def close(self) -> None: ...


class NetworkCheck(Protocol):
    """Serve the test page in the console's loop; raises ``UserError`` (one sentence) when the
    port cannot be opened."""

    def __call__(self) -> Awaitable[NetworkProbe]: ...
