"""The wiring every subcommand shares: which console opens a session's game, and what each
console is handed (the phone service, the printer, the laptop's addresses, the Balance screen on
a lazy process pool). Leaves import this and :mod:`companion.cli.options`; this imports no leaf.
Textual, aiohttp, fpdf2 and the simulator are imported only inside the functions that use them.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path

from companion.cli.options import (
    check_port,
    port_problem,
)
from companion.errors import UserError
from companion.rules.core.words import N_

TYPE_CHECKING = False  # typing would cost `companion sessions` 0.2x (benchmarks/cli.py)
if TYPE_CHECKING:
    import asyncio
    from concurrent.futures import ProcessPoolExecutor
    from typing import Any

    from companion.language import Language
    from companion.rules.prison.scenario import PrisonRules
    from companion.session.dilemma import DilemmaSession
    from companion.session.session import Session
    from companion.sim.runner import Batch, Tally
    from companion.tui.balance.app import BalanceScreen
    from companion.tui.common.contracts import (
        Addresses,
        BalanceFactory,
        Links,
        NetworkCheck,
        NetworkProbe,
        Printed,
        Stopper,
        TableRates,
    )

# Who holds a session the console opens (see companion.session.lock), for the sentence another
# window gets when it tries to open the same game.
HOLDER = "the console"

if TYPE_CHECKING:  # what balance_source gives: a size's games, points at a time
    Source = Callable[[int, int, list[int] | None], Iterator[dict[str, Any]]]


def stop_on_signals(loop: asyncio.AbstractEventLoop, stop: asyncio.Event) -> None:
    """Ctrl+C, a terminate signal and (Windows) Ctrl+Break set ``stop``: through the loop where
    it takes signal handlers (Linux, macOS); else, as on Windows, whose loops take none, through
    :func:`signal.signal`, which wakes the loop from the handler."""
    import signal

    def wake(_signum: int, _frame: object) -> None:
        loop.call_soon_threadsafe(stop.set)

    for name in ("SIGINT", "SIGTERM", "SIGBREAK"):
        sig = getattr(signal, name, None)
        if sig is None:
            continue
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, AttributeError):
            signal.signal(sig, wake)
        except RuntimeError:  # not the main thread: Ctrl+C still interrupts asyncio.run
            continue


def check_terminal() -> None:
    if not sys.stdin.isatty() or not sys.stdout.isatty():
        raise UserError(
            "The console needs a terminal; run it in a terminal window, not through a pipe."
        )


def print_cards(
    session: Session, paper: str, out: str | Path, public_url: str | None
) -> Printed:
    """The console's printer: the printing face, imported only when the GM prints."""
    from companion.printing.prison.document import write_session
    from companion.tui.common.contracts import Printed

    return Printed(*write_session(session, paper, out, public_url))


def laptop_addresses(args: argparse.Namespace) -> Addresses:
    """The console's view of this laptop's addresses, as (interface, address) pairs: every
    interface's when the phone server listens on all of them, else the one given by --host."""
    host = getattr(args, "host", None) or "0.0.0.0"

    def addresses() -> list[tuple[str, str]]:
        if host not in ("0.0.0.0", "::", ""):
            return [("--host", host)]
        from companion.web.common.address import candidates

        return [(c.interface, c.address) for c in candidates()]

    return addresses


# ---- the console's Balance screen, on the simulator ---------------------------------------------


class LazyPool:
    """The simulator's process pool for the console's Balance screen, started when the screen
    is first opened (:meth:`start`, on the app's thread).

    The console has threads by then, so its workers come from a fork server (a clean process)
    rather than being forked from the console; each plays ``companion.sim.runner.play_batch``.
    It offers what the simulator asks of a pool: ``map(batches)``.
    """

    def __init__(self, jobs: int | None = None) -> None:
        self.jobs = jobs
        self._executor: ProcessPoolExecutor | None = None

    def start(self) -> None:
        if self._executor is not None:
            return
        import multiprocessing
        import os
        from concurrent.futures import ProcessPoolExecutor

        from companion.sim.runner import default_jobs, start_method

        method = start_method("forkserver")  # Windows has no fork server: fresh processes
        if method == "forkserver":
            from multiprocessing import forkserver

            # The fork server's helper keeps a copy of stderr, but the running console has
            # swapped stderr for an object without a file descriptor: give it the null device
            # instead (its messages must not scribble over the console anyway).
            saved = sys.stderr
            with open(os.devnull, "w") as quiet:
                sys.stderr = quiet
                try:
                    forkserver.ensure_running()
                finally:
                    sys.stderr = saved
        self._executor = ProcessPoolExecutor(
            max_workers=self.jobs or default_jobs(),
            mp_context=multiprocessing.get_context(method),
        )

    def map(self, batches: Sequence[Batch]) -> Iterable[Tally]:
        from companion.sim.runner import play_batch

        if self._executor is None:
            raise RuntimeError("the pool is not started")
        return self._executor.map(play_batch, batches)

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=True, cancel_futures=True)
            self._executor = None


def curve_source(
    pool: Any, base: PrisonRules, games: int, mix: str, seed: int, *, target: float = 0.5,
    settle_games: int = 2000, settle_factor: int = 8,
) -> Source:
    """The Balance screen's source of points, wired to the simulator (the screen does not
    import it); ``pool`` is a ``companion.sim.runner.Pool`` or a :class:`LazyPool`. After the
    curve (``games`` a point) the close call is settled with the budget ``companion balance``
    uses by default (``settle_games`` behind the answer, up to ``settle_factor`` times that for a
    close call), on the same games, so the screen and the table give one answer."""
    from companion.sim.balance import Budget
    from companion.sim.curve import curve_nights, escape_curve

    budget = Budget(min_games=settle_games, settle_factor=settle_factor,
                    batch=min(200, settle_games), chunk=max(1, min(100, settle_games // 2)))

    def source(prisoners: int, tokens: int, nights: list[int] | None) -> Iterator[dict[str, Any]]:
        window = nights or curve_nights(base, prisoners)
        return escape_curve(pool, base, prisoners, tokens, window, games=games, mix=mix,
                            seed=seed, target=target, settle=budget)

    return source


BALANCE_GAMES, BALANCE_MIX, BALANCE_SEED = 400, "standard", 1


def table_rates(folders: Sequence[Path]) -> TableRates:
    """The real tables' escape rates from the designers' notebook of ``folders`` (rehearsals
    with bots left out), read afresh each time the screen asks."""

    def rates(prisoners: int, tokens: int) -> list[dict[str, Any]]:
        from companion.session.prison.scenarios import load_named_scenario
        from companion.sim.notebook.figures import escape_points
        from companion.sim.notebook.shelf import gather

        shelf = gather(folders, load_named_scenario)
        return escape_points(shelf.real(include_rehearsals=False), prisoners, tokens)

    return rates


def balance_screen(
    pool: LazyPool, tables: TableRates | None = None
) -> BalanceFactory[BalanceScreen]:
    """The console's Balance screen for a session: the escape-rate chart for its group size
    and its parole tokens to win, its points measured by the simulator on ``pool``, and the
    real tables' rates beside them (``tables``) when there are any."""

    def make(session: Session) -> BalanceScreen:
        from companion.rules.prison.scenario import PrisonRules
        from companion.sim.strategies.mixes import MIXES
        from companion.tui.balance.app import BalanceScreen

        base = PrisonRules.model_validate(session.setup["rules"])
        pool.start()
        return BalanceScreen(
            curve_source(pool, base, BALANCE_GAMES, BALANCE_MIX, BALANCE_SEED),
            prisoners=len(session.setup["prisoners"]),
            tokens=base.parole_tokens_to_win,
            describe=lambda _: _(
                "%(session)s's rules · %(games)s games a point, seed %(seed)s, mix %(mix)s",
                session=session.name, games=_.number(BALANCE_GAMES), seed=BALANCE_SEED,
                mix=MIXES[BALANCE_MIX].summary(),
            ),
            tables=tables,
        )

    return make


# ---- the night's server, as a console sees it ------------------------------------------------


class NightServer:
    """The night's server a console is attached to, as its network test and its Seats screen
    see it: the links' base, the port, and the visits to its test page (:meth:`listen`)."""

    def __init__(self, session: Any) -> None:
        self.session = session
        self.links: dict[str, str] = session.link.links
        self.base_url: str = self.links.get("base", session.record.url)
        self.port: int = session.record.port

    @property
    def probe(self) -> NightServer:
        return self

    def listen(self, listener: Callable[[Any], None]) -> Callable[[], None]:
        from types import SimpleNamespace

        stop: Callable[[], None] = self.session.listen_for_visits(
            lambda address, ms: listener(SimpleNamespace(address=address, ms=ms))
        )
        return stop


def say_still_served(session: Any, _: Language) -> None:
    """After the console closed: one line, in the console's language ``_``, on what the phones
    do now (its night's server goes on unless it was stopped)."""
    from companion.session.attached import AttachedSession
    from companion.session.night import answering

    if not isinstance(session, AttachedSession):
        return
    if answering(session.store.path, timeout=1.0) is None:
        print(_("The night of %(session)s is no longer served; nothing is lost.",
                session=session.name))
        return
    print(_(
        "The phones and the board of %(session)s keep playing: the night's server goes on. "
        "Reopen the console with 'companion resume %(session)s'; stop serving with "
        "'companion stop %(session)s'.", session=session.name,
    ))


def attached(session: Session, running: dict[str, Any]) -> Any:
    """``session`` as the console gets it, its night's server (if any) kept in ``running``."""
    from companion.session.attached import AttachedSession

    if isinstance(session, AttachedSession):
        running["server"] = NightServer(session)
    else:
        running.pop("server", None)
    return session


def night_links(running: dict[str, Any], args: argparse.Namespace) -> Links:
    """The Seats screen's extra links: the board, the join page and the laptop's other
    addresses (for --public-url when phones cannot reach the first one)."""
    host = getattr(args, "host", None) or "0.0.0.0"

    def links() -> list[dict[str, str]]:
        from companion.web.common.address import base_url, candidates

        server = running.get("server")
        if server is None:
            return []
        base = server.base_url
        out = []
        if "board" in server.links:
            out.append({"label": "Board", "url": server.links["board"]})
        if "join" in server.links:
            out.append({"label": "Join", "url": server.links["join"]})
        if host in ("0.0.0.0", "::", ""):
            for c in candidates():
                other = base_url(c.address, server.port)
                if other != base and not c.address.startswith("127."):
                    out.append({"label": f"Also reachable ({c.interface})", "url": other})
        return out

    return links


# ---- the venue preflight, from a console ----------------------------------------------------


class _Preflight:
    """The test page as a console sees it (:class:`NetworkProbe`)."""

    def __init__(
        self, probe: Any, url: str, port: int, host: str, stop: Stopper | None = None
    ) -> None:
        self._probe, self.url, self.port, self._host, self._stop = probe, url, port, host, stop

    def addresses(self) -> list[tuple[str, str]]:
        return laptop_addresses(argparse.Namespace(host=self._host))()

    def listen(self, listener: Callable[[str, int], None]) -> Callable[[], None]:
        stop: Callable[[], None] = self._probe.listen(lambda v: listener(v.address, v.ms))
        return stop

    async def close(self) -> None:
        if self._stop is not None:
            await self._stop()
            self._stop = None


def network_check(args: argparse.Namespace, running: dict[str, Any]) -> NetworkCheck:
    """The consoles' venue preflight: the test page on the running phone server
    (``running["server"]``), so the phones' very port is tried, else served alone on the port
    the game will use until the screen closes."""
    from companion.session.links import DEFAULT_PORT

    port = check_port(getattr(args, "port", None)) or DEFAULT_PORT
    host = getattr(args, "host", None) or "0.0.0.0"

    async def check() -> NetworkProbe:
        from companion.tui.common.network import addresses_of, best
        from companion.web.common.address import base_url
        from companion.web.common.preflight import CHECK_PATH, start_check_server

        server = running.get("server")
        if server is not None:
            url = f"{server.base_url}{CHECK_PATH}"
            return _Preflight(server.probe, url, server.port, host)
        try:
            alone = await start_check_server(host, port)
        except OSError as error:
            raise port_problem(port, error) from None
        chosen = best(addresses_of(laptop_addresses(args)()))
        where = chosen.address if chosen is not None and host in ("0.0.0.0", "::", "") else host
        url = f"{base_url(where, alone.port)}{CHECK_PATH}"
        return _Preflight(alone.probe, url, alone.port, host, alone.close)

    return check


# ---- the dilemma's room poster ---------------------------------------------------------------


def room_poster(session: DilemmaSession, path: Path, join_url: str) -> Path:
    """The dilemma room's QR poster for ``session``, written to ``path`` (with the Wi-Fi's
    code when the session keeps one)."""
    from companion.language import language
    from companion.printing.dilemma.poster import write_poster
    from companion.rules.dilemma.views import board
    from companion.session.wifi import wifi_of

    lang = language(session.settings.get("lang") or None)
    sentences = board(session.state)["sentences"]
    return write_poster(path, join_url, sentences, lang, wifi_of(session))


# The seats' roles as the command line lists them (the stored role is a key, never shown as it
# is): 'companion links' and 'companion serve'.
ROLES = {"warden": N_("warden"), "prisoner": N_("prisoner")}


def keep_language(session: Session, lang: str, *, existed: bool) -> None:
    """Store ``lang`` (checked) as the session's language: a new session just gets it; an
    existing one whose language it changes has the change noted in its log."""
    before = session.settings.get("lang") or "en"
    if existed and before == lang:
        return
    session.set("lang", lang)
    if existed:
        session.note("language", before=before, after=lang)
