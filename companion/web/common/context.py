"""What every game's handlers share: one-sentence refusals, JSON answers and bodies, the version
of the state an answer shows, submitting a phone's command, the guard against guessed links and
the presence signals."""

from __future__ import annotations

import contextlib
import json
import time
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any, TypeVar, overload

from aiohttp import web
from aiohttp.web_request import FileField
from multidict import MultiDictProxy

from companion.language import N_, Language
from companion.rules.core.game import Refused
from companion.rules.core.parsing import StrictModel
from companion.session.presence import SeatPresence
from companion.session.session import Session
from companion.session.store import StoreError

# What an unknown address answers (a game's own refusals may say more).
NOT_FOUND = N_(
    "There is nothing here; scan your card again or ask the game master for your link."
)
MAX_BODY = 4096  # bytes: the largest request body a phone sends
# The header that tells the version (:func:`log_version`) of the state an answer shows: on every
# live part and on every JSON answer that carries a view or records a command.
VERSION_HEADER = "X-View-Version"
T = TypeVar("T", bound=str)


def log_version(session: Session) -> int:
    """The version of the session's state now: the number of its latest log row (0: none).
    It only grows: every change of the game, the stage or the seats is a row, and the event
    streams' ids are these numbers too."""
    rows = session.rows
    return int(rows[-1].seq) if rows else 0


def json_answer(
    data: Any, status: int = 200, version: int | None = None, *, encoded: bool = False
) -> web.Response:
    """An API answer: JSON (non-ASCII names as they are), never cached; one that shows a state
    or recorded a command tells its ``version`` (``X-View-Version``: the log's latest row).
    ``encoded``: ``data`` is already the JSON text."""
    headers = {"Cache-Control": "no-store"}
    if version is not None:
        headers[VERSION_HEADER] = str(version)
    if encoded:
        return web.Response(
            text=data, status=status, content_type="application/json", headers=headers
        )
    return web.json_response(
        data,
        status=status,
        dumps=lambda d: json.dumps(d, ensure_ascii=False),
        headers=headers,
    )


class Problem(Exception):
    """A request refused with an HTTP status and one clear sentence.

    ``message`` is the sentence as written in English, with ``%(name)s`` filled from
    ``params`` (if any): :meth:`text` gives it in a language (a sentence not in the catalog
    stays as it is). :meth:`refusing` makes one of a rules' refusal, said in a language by
    :meth:`Language.refused`.
    """

    def __init__(self, status: int, message: str, **params: object) -> None:
        super().__init__(message % params if params else message)
        self.status = status
        self.template = message
        self.params = params
        self.message = message % params if params else message
        self.refused: Refused | None = None

    @classmethod
    def refusing(cls, status: int, refused: Refused) -> Problem:
        """The rules' refusal ``refused`` as a problem: its English ``reason`` as the message."""
        problem = cls(status, refused.reason)
        problem.refused = refused
        return problem

    def text(self, lang: Language) -> str:
        if self.refused is not None:
            return lang.refused(self.refused)
        return lang(self.template, **self.params)


def submit_for_phone(session: Session, command: StrictModel, by: str) -> None:
    """Submit a phone's command; refused (409) or not recorded (503), it raises a Problem
    with the sentence that says why."""
    try:
        outcome = session.submit(command, by=by)
    except StoreError as error:
        raise Problem(503, str(error)) from None
    if isinstance(outcome, Refused):
        raise Problem.refusing(409, outcome)


class Recent:
    """Moments per address within a sliding ``window`` of seconds: what the guard against
    guessed links and the warm-up's joins per device count. Quiet addresses are forgotten once
    there are many (a flood of addresses must not grow it without end)."""

    MANY = 10_000

    def __init__(self, window: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.window = window
        self.clock = clock
        self._moments: dict[str, deque[float]] = {}

    def count(self, address: str) -> int:
        """How many moments of ``address`` are still within the window."""
        times = self._moments.setdefault(address, deque())
        cutoff = self.clock() - self.window
        while times and times[0] <= cutoff:
            times.popleft()
        return len(times)

    def add(self, address: str, most: int | None = None) -> None:
        """One more moment of ``address``, now; with ``most``, only the latest ``most`` are
        kept (an address that keeps trying stays at its limit until it stops for a window)."""
        self.count(address)
        self._moments[address].append(self.clock())
        if most is not None and len(self._moments[address]) > most:
            self._moments[address].popleft()
        if len(self._moments) > self.MANY:
            for key in [k for k in self._moments if not self.count(k)]:
                del self._moments[key]


class Limiter:
    """Counts wrong tokens and seat codes per address; over the limit, the address is refused
    every lookup (right or wrong) until its oldest failure leaves the window."""

    def __init__(
        self, limit: int = 20, window: float = 60.0, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.limit = limit
        self.window = window
        self._failures = Recent(window, clock)

    def blocked(self, address: str) -> bool:
        return self._failures.count(address) >= self.limit

    def failed(self, address: str) -> None:
        self._failures.add(address)


def count_wrong(session: Session, limiter: Limiter, address: str) -> None:
    """Count a wrong link or seat code from ``address``; when it reaches the limit, note it in
    the session's history for the game master (the address and the count, never what was
    guessed). Once per address and window: a blocked address is not counted further."""
    limiter.failed(address)
    if limiter.blocked(address):
        with contextlib.suppress(StoreError):  # a full disk must not turn a 404 into a 503
            session.note("bad_tokens", address=address, count=limiter.limit, seconds=limiter.window)


class Presence:
    """Which seats' phones are connected: a seat is connected while at least one of its event
    streams is open, and away (since when it last closed) otherwise. Each change is told to
    the session as a :class:`~companion.session.presence.SeatPresence`, which the consoles
    follow; nothing of it is logged."""

    def __init__(self, session: Session, clock: Callable[[], float] = time.time) -> None:
        self.session = session
        self.clock = clock
        self._open: dict[str, int] = {}
        self._since: dict[str, float] = {}

    def opened(self, seat: str) -> None:
        """One more stream of ``seat`` is open."""
        self._open[seat] = self._open.get(seat, 0) + 1
        if self._open[seat] == 1:
            self._tell(seat, True)

    def closed(self, seat: str) -> None:
        """One stream of ``seat`` closed (the phone went away, or the server stops)."""
        left = self._open.get(seat, 0) - 1
        if left > 0:
            self._open[seat] = left
            return
        self._open.pop(seat, None)
        self._tell(seat, False)

    def _tell(self, seat: str, connected: bool) -> None:
        now = self.clock()
        self._since[seat] = now
        self.session.signal(SeatPresence(seat, connected, now))

    def connected(self, seat: str) -> bool:
        return self._open.get(seat, 0) > 0

    def count(self, seats: Iterable[str] | None = None) -> int:
        """How many seats (of ``seats``, if given) have a phone connected now."""
        if seats is None:
            return len(self._open)
        return sum(1 for s in seats if self.connected(s))

    def since(self, seat: str) -> float | None:
        """When ``seat`` last connected or went away (``None``: not since the server started)."""
        return self._since.get(seat)


async def read_form(request: web.Request) -> MultiDictProxy[str | bytes | bytearray | FileField]:
    """A posted form; 400 in one sentence when it cannot be read (a broken multipart body,
    an unknown charset)."""
    try:
        return await request.post()
    except (ValueError, AssertionError, LookupError):
        raise Problem(
            400, N_("The form could not be read; reload the page and try again.")
        ) from None


@overload
async def read_field(request: web.Request, field: str, allowed: None) -> str: ...


@overload
async def read_field(request: web.Request, field: str, allowed: tuple[T, ...]) -> T: ...


async def read_field(request: web.Request, field: str, allowed: tuple[str, ...] | None) -> str:
    """The one text field of a small JSON body; 400 or 413 with one sentence otherwise. With
    ``allowed``, the value is one of them (typed as they are: a command's literal choice)."""
    data = await _read_object(request, field, ())
    value = _text(data, field)
    if allowed is None:
        return value
    for one in allowed:
        if one == value:
            return one
    raise Problem(
        400, N_("The field %(field)s must be %(choices)s."), field=repr(field),
        choices=" or ".join(repr(a) for a in allowed),
    )


async def read_field_and_list(
    request: web.Request, field: str, listed: str
) -> tuple[str, list[str]]:
    """A small JSON body's text ``field`` and its optional list of texts ``listed`` (missing:
    empty); 400 or 413 with one sentence otherwise."""
    data = await _read_object(request, field, (listed,))
    items = data.get(listed, [])
    if not isinstance(items, list) or not all(isinstance(item, str) for item in items):
        raise Problem(400, N_("The field %(field)s must be a list of names."), field=repr(listed))
    return _text(data, field), list(items)


def _text(data: dict[str, Any], field: str) -> str:
    value = data.get(field)
    if not isinstance(value, str):
        raise Problem(400, N_("The field %(field)s is missing or not text."), field=repr(field))
    return value


async def _read_object(
    request: web.Request, field: str, optional: tuple[str, ...]
) -> dict[str, Any]:
    """A small JSON object with ``field`` and maybe the ``optional`` ones, and nothing else."""
    too_large = N_("The request is larger than %(size)s KiB; send less.")
    if request.content_length is not None and request.content_length > MAX_BODY:
        raise Problem(413, too_large, size=MAX_BODY // 1024)
    raw = await request.read()
    if len(raw) > MAX_BODY:
        raise Problem(413, too_large, size=MAX_BODY // 1024)
    example = f'{{"{field}": "..."}}'
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):  # "[[[[…" nests too deep
        raise Problem(
            400, N_("The request body must be JSON such as %(example)s."), example=example
        ) from None
    if not isinstance(data, dict):
        raise Problem(
            400, N_("The request body must be a JSON object such as %(example)s."),
            example=example,
        )
    extra = sorted(set(data) - {field, *optional})
    if extra:
        raise Problem(
            400, N_("The field %(extra)s is not expected; send only %(field)s."),
            extra=repr(extra[0]), field=repr(field),
        )
    return data
