"""Bots that play a live session through the real phone API (HTTP, on loopback), at a human
pace, so a game master can rehearse alone (``companion rehearse``).

Each bot knows only its seat's page address, exactly as a phone does; it reads its view with
``GET /api/p/TOKEN`` and acts with ``POST /api/p/TOKEN/choice``, ``/deal`` and ``/search``.
The prisoners choose during planning; the warden considers a deal for each prisoner the game
master calls in (the phone offers one only to the prisoner who is in) and searches once every
active prisoner has been interviewed (or the game master started the search). Everything else
(closing planning, calling prisoners in and recording the interviews without a deal, stepping
through the reveals, accusations, ending the day) is the game master's to practise.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypedDict

from companion.rules.prison.views import PrisonerView, TableView, WardenView
from companion.sim.bots import Table, seat_bots
from companion.sim.strategies.mixes import MIXES
from companion.sim.strategies.yard import Plan


class Inside(TypedDict):
    prisoner: str


class Stage(TypedDict):
    """What the bots read of the room's stage (see ``companion.rules.prison.room.StageView``)."""

    interview: Inside | None
    reveal: dict[str, Any] | None


class PrisonerPhone(PrisonerView):
    stage: Stage


class WardenPhone(WardenView):
    stage: Stage


@dataclass(frozen=True)
class PhoneSeat:
    name: str
    role: str  # "prisoner" or "warden"
    token: str


@dataclass
class PhoneBots:
    """The bots of one session, each acting through its own seat's address."""

    base_url: str
    seats: list[PhoneSeat]
    mix: str = "standard"
    seed: int | None = None
    pace: float = 3.0  # seconds: a bot waits between 0.5 and 2 paces before it acts
    poll: float = 1.0  # seconds between looks at the phone
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep
    rng: random.Random = field(init=False)
    table: Table = field(init=False)
    considered: set[tuple[int, str]] = field(default_factory=set)  # (day, prisoner called in)
    days_started: set[int] = field(default_factory=set)
    thinking: bool = False
    actions: list[tuple[str, str, dict[str, Any]]] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)
        names = [s.name for s in self.seats if s.role == "prisoner"]
        self.table = seat_bots(MIXES[self.mix], names, self.rng)
        self._by_name = {s.name: s for s in self.seats}
        self._noted: set[int] = set()

    # ---- talking to the phone server ------------------------------------------------------

    async def _json(self, http: Any, seat: PhoneSeat) -> Any:
        async with http.get(f"{self.base_url}/api/p/{seat.token}") as response:
            response.raise_for_status()
            return await response.json()

    async def _prisoner_view(self, http: Any, seat: PhoneSeat) -> PrisonerPhone:
        view: PrisonerPhone = await self._json(http, seat)
        return view

    async def _warden_view(self, http: Any, seat: PhoneSeat) -> WardenPhone:
        view: WardenPhone = await self._json(http, seat)
        return view

    async def _post(self, http: Any, seat: PhoneSeat, what: str, body: dict[str, Any]) -> bool:
        """Act; a refusal (the game moved on meanwhile) is noted, never raised."""
        async with http.post(f"{self.base_url}/api/p/{seat.token}/{what}", json=body) as response:
            data = await response.json(content_type=None)
            if response.status == 200:
                self.actions.append((seat.name, what, body))
                return True
            self.refusals.append(str(data.get("error") or data.get("message") or data))
            return False

    async def _pause(self) -> None:
        await self.sleep(self.pace * self.rng.uniform(0.5, 2.0))

    # ---- the players --------------------------------------------------------------------------

    def _plan(self, view: TableView) -> Plan:
        plan = self.table.yard.talk.plans.get(view["day"])
        return plan if plan is not None else self.table.yard.plan(view)

    def _note_reveal(self, view: TableView) -> None:
        if view["phase"] == "accusations" and view["day"] not in self._noted:
            self._noted.add(view["day"])
            self.table.yard.after_reveal(view, "never")

    async def _prisoner(self, http: Any, seat: PhoneSeat) -> None:
        bot = self.table.prisoners[seat.name]
        while True:
            view = await self._prisoner_view(http, seat)
            if view["phase"] == "over" or view["me"]["status"] != "active":
                return
            self._note_reveal(view)
            if view["phase"] == "planning" and view["me"]["choice"] is None:
                plan = self._plan(view)
                await self._pause()
                view = await self._prisoner_view(http, seat)
                if view["phase"] == "planning" and view["day"] == plan.day:
                    choice = bot.choose(plan, view if bot.reads_view_to_choose else None)
                    await self._post(http, seat, "choice", {"choice": choice})
            await self.sleep(self.poll)

    async def _consider(self, http: Any, seat: PhoneSeat, view: WardenPhone) -> None:
        """The warden talks with the prisoner the game master called in, and offers the deal
        if one is left today and the prisoner's bot takes it."""
        inside = view["stage"]["interview"]
        if inside is None or view["phase"] != "interviews":
            return
        name = inside["prisoner"]
        if (view["day"], name) in self.considered:
            return
        self.considered.add((view["day"], name))
        self.thinking = True
        try:
            await self._talk(http, seat, view, name)
        finally:
            self.thinking = False

    def idle(self) -> bool:
        """Whether the warden is not in the middle of talking with someone."""
        return not self.thinking

    async def _talk(self, http: Any, seat: PhoneSeat, view: WardenPhone, name: str) -> None:
        warden = self.table.warden
        if view["day"] not in self.days_started:
            self.days_started.add(view["day"])
            warden.start_day()
        await self._pause()
        own = await self._prisoner_view(http, self._by_name[name])  # the prisoner's own phone
        inside = own["stage"]["interview"]
        if own["phase"] != "interviews" or inside is None or inside["prisoner"] != name:
            return
        if view["deals_left_today"] < 1:
            return
        bot = self.table.prisoners[name]
        takes = bot.accept_deal(own if bot.reads_views else None)
        if takes and await self._post(http, seat, "deal", {"prisoner": name}):
            warden.hear(name, bot.tell(self._plan(own), own if bot.reads_views else None))

    async def _warden(self, http: Any, seat: PhoneSeat) -> None:
        while True:
            view = await self._warden_view(http, seat)
            if view["phase"] == "over":
                return
            day = view["day"]
            await self._consider(http, seat, view)
            view = await self._warden_view(http, seat)
            everyone_seen = set(view["active"]) <= set(view["today"]["interviewed"])
            held = (view["stage"]["reveal"] or {}).get("held", False)
            if not held and (
                view["phase"] == "search" or (view["phase"] == "interviews" and everyone_seen)
            ):
                await self._pause()
                view = await self._warden_view(http, seat)
                if view["phase"] in ("interviews", "search") and view["day"] == day:
                    cell = self.table.warden.search(view)
                    await self._post(http, seat, "search", {"prisoner": cell})
            await self.sleep(self.poll)

    async def run(self) -> None:
        """Play until the game is over (or the task is cancelled)."""
        import aiohttp

        async with aiohttp.ClientSession() as http:
            players = [
                self._warden(http, s) if s.role == "warden" else self._prisoner(http, s)
                for s in self.seats
            ]
            await asyncio.gather(*players)
