"""Bots that play a live session through the real phone API (HTTP, on loopback), at a human
pace, so a game master can rehearse alone (``companion rehearse``).

Each bot knows only its seat's page address, exactly as a phone does; it reads its view with
``GET /api/p/TOKEN`` and acts with ``POST /api/p/TOKEN/choice``, ``/deal`` and ``/search``.
The prisoners choose during planning; the warden offers a deal once the interviews begin and
searches once every active prisoner has been interviewed (or the game master started the
search). Everything else (closing planning, the interviews, accusations, ending the day) is the
game master's to practise in the console.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from companion.rules.prison.views import PrisonerView, TableView, WardenView
from companion.sim.bots import Table, seat_bots
from companion.sim.strategies import MIXES, Plan


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
    offered_days: set[int] = field(default_factory=set)
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

    async def _prisoner_view(self, http: Any, seat: PhoneSeat) -> PrisonerView:
        view: PrisonerView = await self._json(http, seat)
        return view

    async def _warden_view(self, http: Any, seat: PhoneSeat) -> WardenView:
        view: WardenView = await self._json(http, seat)
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

    async def _offer(self, http: Any, seat: PhoneSeat, view: WardenView) -> None:
        """The warden calls prisoners in, in its own order, until one takes the deal."""
        warden = self.table.warden
        warden.start_day()
        for name in warden.offer_order(view):
            if name in view["today"]["interviewed"]:
                continue
            bot = self.table.prisoners[name]
            own = await self._prisoner_view(http, self._by_name[name])  # the prisoner's own phone
            if own["phase"] != "interviews":
                return
            if bot.accept_deal(own if bot.reads_views else None):
                if await self._post(http, seat, "deal", {"prisoner": name}):
                    warden.hear(name, bot.tell(self._plan(own), own if bot.reads_views else None))
                return

    async def _warden(self, http: Any, seat: PhoneSeat) -> None:
        while True:
            view = await self._warden_view(http, seat)
            if view["phase"] == "over":
                return
            day = view["day"]
            if view["phase"] == "interviews" and day not in self.offered_days:
                await self._pause()
                view = await self._warden_view(http, seat)
                if view["phase"] == "interviews" and view["day"] == day:
                    await self._offer(http, seat, view)
                self.offered_days.add(day)
                view = await self._warden_view(http, seat)
            everyone_seen = set(view["active"]) <= set(view["today"]["interviewed"])
            if view["phase"] == "search" or (view["phase"] == "interviews" and everyone_seen):
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
