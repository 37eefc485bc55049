"""The game master's desk on the night's server: what consoles (and later the game master's
phone) attach to, with the game master's key (:mod:`companion.session.night`).

- ``GET /api/gm/hello``: which night this is (session, game, pid, since, consoles attached,
  the log's latest row, the phones' links);
- ``GET /api/gm/follow``: an event stream that says the log grew (``{"log": N}``: read the rows
  from the session file, which holds them before anyone is told), a seat's phone came or went,
  a visit to the network test page, the server is stopping (a setting is a row of the log). A
  console that stops reading (a frozen terminal) costs nothing: each stream keeps only where it
  is, never a queue of what it missed, and the loop never waits for it;
- ``POST /api/gm/command``, ``/undo``, ``/note``, ``/setting``: the game master's changes, made here
  by the one writer in the order they arrive; one made against an older state than another
  console's latest change is refused in one sentence (``stale``), so two consoles never
  undo or move twice for one intention;
- ``POST /api/gm/stop``: the night's server stops;
- ``POST /api/gm/phone``: the game master's phone gets a new secret (its page's link, which
  the answer carries); every device holding the old one is ended at once.

The game master's phone (a game's private page for the game master, ``/gm/SECRET``) is a
client of the same commands and checks: its taps go through :meth:`Desk.change`, with the
strict stale check (any game master's change since the page's version refuses it, its own
included, so that a tap sent twice or replayed never acts twice).

Without the key, with a wrong one or with a player's token, every one of these is refused in
one sentence (and wrong keys are limited per address like guessed links). A browser page of
another site cannot use them either: the origin guard refuses its writes, and the key is in no
page a phone can load.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import os
import time
from collections.abc import Callable, Mapping
from typing import Any

from aiohttp import web

from companion.language import N_
from companion.rules.core.game import MalformedCommand, Refused
from companion.session.night import KEY_HEADER, phone_url, replace_phone_secret
from companion.session.presence import SeatPresence
from companion.session.session import Change, Session
from companion.web.common.context import Limiter, Problem, json_answer, log_version
from companion.web.common.desk_stream import ConsoleStream
from companion.web.common.preflight import PROBE, Reached

NO_KEY = N_(
    "That needs the game master's key, which this request does not carry; only the console "
    "on the game master's laptop has it."
)
STALE = (
    "Another console changed the game a moment ago; look at the screen again and repeat "
    "this if it is still wanted."
)
STALE_PAGE = N_(
    "The game changed since this page showed it; look at it again and tap once more if it is "
    "still wanted."
)
NOT_UNDERSTOOD = N_("The request is not understood; reload the page and try again.")
HEARTBEAT = 10.0  # seconds between two comments on a quiet stream
LOOK_SECONDS = 0.5  # how often a quiet stream looks whether its console went away
MAX_GM_BODY = 64 * 1024  # bytes: a game master's command or note

DESK: web.AppKey[Desk] = web.AppKey("desk")


class Desk:
    """The game master's side of one night's server."""

    def __init__(
        self,
        session: Session,
        key: str,
        links: Callable[[], dict[str, str]],
        stop: Callable[[], None],
        limiter: Limiter | None = None,
        clock: Callable[[], float] = time.time,
        phone: str | None = None,
    ) -> None:
        self.session = session
        self.key = key
        self.phone = phone  # the game master's phone's secret (None: no page for it)
        self.phone_page = False  # whether the game's server serves that page (/gm/SECRET)
        self._phone_replaced: list[Callable[[], None]] = []
        self.links = links
        self.stop = stop
        self.limiter = limiter or Limiter()
        self.clock = clock
        self.since = clock()
        self.consoles = 0  # follow streams open now
        self.last_seen = clock()  # when the last console went away (or the server started)
        self.presence: dict[str, SeatPresence] = {}
        self.last_change: tuple[int, str] = (0, "")  # (log row, console) of the latest GM write
        self._streams: set[ConsoleStream] = set()
        self._unsubscribe = session.subscribe(self._changed)
        self._stop_probe: Callable[[], None] | None = None

    def close(self) -> None:
        self._unsubscribe()
        if self._stop_probe is not None:
            self._stop_probe()
        for stream in list(self._streams):
            stream.tell({"bye": "stopping"})

    def unwatched_for(self) -> float:
        """Seconds since the last console went away (0 while one is attached)."""
        return 0.0 if self.consoles else self.clock() - self.last_seen

    # ---- what the streams hear -------------------------------------------------------------

    def _changed(self, _: Session, change: Change) -> None:
        if change.signal is not None:
            self.presence[change.signal.seat] = change.signal
            for stream in self._streams:
                stream.seat(change.signal)
        else:
            for stream in self._streams:
                stream.wake()

    def visited(self, reached: Reached) -> None:
        for stream in self._streams:
            stream.tell({"visit": {"address": reached.address, "ms": reached.ms}})

    def listen_to(self, app: web.Application) -> None:
        probe = app.get(PROBE)
        if probe is not None:
            self._stop_probe = probe.listen(self.visited)

    # ---- the key ------------------------------------------------------------------------

    def check(self, request: web.Request) -> None:
        address = request.remote or "?"
        if self.limiter.blocked(address):
            raise Problem(429, NO_KEY)
        given = request.headers.get(KEY_HEADER, "")
        expected = f"Bearer {self.key}"
        if not hmac.compare_digest(given.encode("utf-8", "replace"), expected.encode("ascii")):
            self.limiter.failed(address)
            raise Problem(403, NO_KEY)

    def phone_is(self, secret: str) -> bool:
        """Whether ``secret`` is the game master's phone's secret now (in constant time)."""
        if self.phone is None:
            return False
        return hmac.compare_digest(secret.encode("utf-8", "replace"), self.phone.encode("ascii"))

    def phone_link(self) -> str | None:
        """The game master's private page, where the game serves one."""
        base = self.links().get("base")
        if not self.phone_page or self.phone is None or not base:
            return None
        return phone_url(base, self.phone)

    def on_phone_replaced(self, listener: Callable[[], None]) -> None:
        """Call ``listener`` once the phone's secret is replaced (the page's streams end)."""
        self._phone_replaced.append(listener)

    def replace_phone(self) -> str | None:
        """A new secret for the game master's phone, kept beside the session; every device
        holding the old one is ended. Returns the new link."""
        self.phone = replace_phone_secret(self.session.store.path)
        for listener in list(self._phone_replaced):
            listener()
        return self.phone_link()

    def change(
        self, console: str, after: int, act: Callable[[], Mapping[str, Any] | Refused],
        *, checked: bool = True, strict: bool = False,
    ) -> Mapping[str, Any] | Refused:
        """A game master's change: refused as stale (when ``checked``) if another console
        changed the game since ``after`` (``strict``: any game master's change, this one's
        own included), else ``act`` (a refusal, or what the answer adds). Only a checked
        change makes another console's older state stale: a setting does not."""
        if checked and (self.last_change[0] > after if strict else self.stale(after, console)):
            return Refused(STALE_PAGE if strict else STALE)
        outcome = act()
        if checked and not isinstance(outcome, Refused):
            self.changed_by(console)
        return outcome

    def hello(self) -> dict[str, Any]:
        links = self.links()
        phone = self.phone_link()
        if phone is not None:
            links["gm"] = phone
        return {
            "session": self.session.name,
            "game": self.session.game,
            "pid": os.getpid(),
            "since": self.since,
            "consoles": self.consoles,
            "log": log_version(self.session),
            "over": self.session.rules.is_over(self.session.state),
            "links": links,
        }

    def stale(self, after: int, console: str) -> bool:
        seq, by = self.last_change
        return seq > after and by != console

    def changed_by(self, console: str) -> None:
        self.last_change = (log_version(self.session), console)

    def opened(self, stream: ConsoleStream) -> None:
        self._streams.add(stream)
        self.consoles += 1
        for presence in self.presence.values():
            stream.seat(presence)

    def closed(self, stream: ConsoleStream) -> None:
        self._streams.discard(stream)
        self.consoles -= 1
        self.last_seen = self.clock()


# ---- the handlers ----------------------------------------------------------------------------


def _desk(request: web.Request) -> Desk:
    desk = request.app[DESK]
    desk.check(request)
    return desk


async def _body(request: web.Request) -> dict[str, Any]:
    raw = await request.content.read(MAX_GM_BODY + 1)
    if len(raw) > MAX_GM_BODY:
        raise Problem(413, N_("The request is larger than %(size)s KiB; send less."),
                      size=MAX_GM_BODY // 1024)
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        data = None
    if not isinstance(data, dict):
        raise Problem(400, NOT_UNDERSTOOD)
    return data


def _int(data: dict[str, Any], field: str, default: int | None = None) -> int | None:
    value = data.get(field, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise Problem(400, NOT_UNDERSTOOD)
    return value


def _refused(desk: Desk, refused: Refused) -> web.Response:
    stale = refused.reason in (STALE, STALE_PAGE)
    return json_answer(
        {"refused": refused.reason, "stale": stale, "log": log_version(desk.session)}, 409
    )


async def _change(
    request: web.Request, act: Callable[[Desk, dict[str, Any]], Mapping[str, Any] | Refused],
    *, checked: Callable[[dict[str, Any]], bool] = lambda data: True,
) -> web.StreamResponse:
    """A console's change through :meth:`Desk.change`: its answer, or the refusal's."""
    desk = _desk(request)
    data = await _body(request)
    console = str(data.get("console") or "")
    after = _int(data, "after", 0) or 0
    outcome = desk.change(console, after, lambda: act(desk, data), checked=checked(data))
    if isinstance(outcome, Refused):
        return _refused(desk, outcome)
    return json_answer({"log": log_version(desk.session), **outcome})


async def hello(request: web.Request) -> web.StreamResponse:
    return json_answer(_desk(request).hello())


def _command(desk: Desk, data: dict[str, Any]) -> dict[str, int] | Refused:
    try:
        parsed = desk.session.parse(data.get("command") or {})
    except MalformedCommand as error:
        return Refused(f"That command is malformed: {error}.")
    outcome = desk.session.submit(parsed, by=str(data.get("by") or "gm"))
    return outcome if isinstance(outcome, Refused) else {"hseq": outcome.seq}


def _undo(desk: Desk, data: dict[str, Any]) -> dict[str, int] | Refused:
    outcome = desk.session.undo(by=str(data.get("by") or "gm"), only=_int(data, "only"))
    return outcome if isinstance(outcome, Refused) else {"hseq": outcome.seq}


def _note(desk: Desk, data: dict[str, Any]) -> dict[str, int] | Refused:
    what, body = data.get("what"), data.get("data") or {}
    if not isinstance(what, str) or not what or not isinstance(body, dict) or "what" in body:
        raise Problem(400, NOT_UNDERSTOOD)
    return {"seq": desk.session.note(what, **body).seq}


async def command(request: web.Request) -> web.StreamResponse:
    return await _change(request, _command)


async def undo(request: web.Request) -> web.StreamResponse:
    return await _change(request, _undo)


async def note(request: web.Request) -> web.StreamResponse:
    """A note; a stage act (``checked``) is refused as stale like a command."""
    return await _change(request, _note, checked=lambda data: bool(data.get("checked")))


def _setting(desk: Desk, data: dict[str, Any]) -> dict[str, int | None]:
    """A setting (``{"key", "value"}``, ``{"key", "add"}`` or ``{"key", "drop"}``); its row's
    number, or ``None`` when the setting already had that value."""
    key = data.get("key")
    said = [op for op in ("value", "add", "drop") if op in data]
    if not isinstance(key, str) or not key or len(said) != 1:
        raise Problem(400, NOT_UNDERSTOOD)
    op = said[0]
    session = desk.session
    if op == "value":
        row = session.set(key, data[op])
    else:
        row = (session.add if op == "add" else session.drop)(key, data[op])
    return {"seq": None if row is None else row.seq}


async def setting(request: web.Request) -> web.StreamResponse:
    return await _change(request, _setting, checked=lambda data: False)


async def phone(request: web.Request) -> web.StreamResponse:
    """A new link for the game master's phone (the old one ends every device holding it)."""
    desk = _desk(request)
    return json_answer({"link": desk.replace_phone(), "log": log_version(desk.session)})


async def stop(request: web.Request) -> web.StreamResponse:
    desk = _desk(request)
    asyncio.get_running_loop().call_soon(desk.stop)
    return json_answer({"stopping": True})


async def follow(request: web.Request) -> web.StreamResponse:
    desk = _desk(request)
    after = request.query.get("after", "")
    stream = ConsoleStream(desk.session, int(after) if after.isdigit() else 0)
    response = web.StreamResponse(headers={
        "Content-Type": "text/event-stream", "Cache-Control": "no-store",
    })
    await response.prepare(request)
    desk.opened(stream)
    stream.wake()
    quiet = 0.0
    try:
        while True:
            try:
                await asyncio.wait_for(stream.ready.wait(), LOOK_SECONDS)
            except TimeoutError:
                transport = request.transport
                if transport is None or transport.is_closing():
                    break  # the console went away: it is no longer counted
                quiet += LOOK_SECONDS
                if quiet < HEARTBEAT:
                    continue
            quiet = 0.0
            events = stream.due()
            text = "".join(f"data: {json.dumps(e, ensure_ascii=False)}\n\n" for e in events)
            await response.write((text or ": still here\n\n").encode("utf-8"))
            if any("bye" in e for e in events):
                break
    except ConnectionError:  # the console went away
        pass
    finally:
        desk.closed(stream)
    return response


def add_desk(app: web.Application, desk: Desk) -> None:
    """Put the game master's desk on ``app`` (any game's night server)."""
    app[DESK] = desk
    r = app.router
    r.add_get("/api/gm/hello", hello)
    r.add_get("/api/gm/follow", follow)
    r.add_post("/api/gm/command", command)
    r.add_post("/api/gm/undo", undo)
    r.add_post("/api/gm/note", note)
    r.add_post("/api/gm/setting", setting)
    r.add_post("/api/gm/stop", stop)
    r.add_post("/api/gm/phone", phone)

    async def on_shutdown(app: web.Application) -> None:
        desk.close()

    app.on_shutdown.insert(0, on_shutdown)
