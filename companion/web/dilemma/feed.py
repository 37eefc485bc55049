"""The warm-up's live pages: which pages a change touches, made once, pushed coalesced.

A lecture hall holds hundreds of phones, so a change costs work in proportion to the pages it
changes, not to the room:

- a choice changes its chooser's page and a count: the chooser's part is made again, every
  other phone gets the count alone (a ``patch`` event, encoded once for all);
- a join in the lobby changes the joiner's page and the count of players;
- anything else (a round drawn, a reveal, an undo, a timer note) changes every page: the
  shared part (results, leaderboard, debrief) is made once and each phone's own part around it;
- the board is made again after any of these, and after a phone comes or goes;
- in a crowd, a change of every page is made ``SLICE`` phones at a time, one turn of the loop
  each, so that the requests and the other streams are not held behind a thousand pages.

What each stream is sent is the common fan-out's :func:`show` of its :class:`Page`: a phone's
key is the shared part it was made from and its own latest change, its texts the counts (the
same object for every phone in a language); the board is made anew at every push.

Each phone's page is in its own language: the shared part is made once per language that an
open phone speaks (when one first needs it), each phone's part in its stream's language.

Changes are pushed by the common fan-out (:mod:`companion.web.common.fanout`): counts at most
every ``COALESCE + URGENT`` seconds (once a second past ``CROWD_STREAMS`` open streams), a
change of every page within ``URGENT`` of the last push; each stream's outbox keeps only the
latest message, so a slow phone gets the newest page and never a backlog. Nothing is sent that
the log does not hold: the session tells the fan-out after the change is committed.
"""

from __future__ import annotations

import asyncio
import itertools
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from companion.language import Language
from companion.rules.dilemma.events import Chose, Joined
from companion.rules.dilemma.room import RoundTimer
from companion.rules.dilemma.state import DilemmaState
from companion.rules.dilemma.views import BoardView, PlayerView, Public, board, player, public
from companion.session.dilemma import DilemmaSession
from companion.session.dilemma.seats import META_KEY as SEATS
from companion.session.session import Change
from companion.web.common.collector import Collector
from companion.web.common.fanout import Fanout, Page, Push, Urgency, moves, show
from companion.web.common.game_master import AUDIENCE
from companion.web.common.outbox import Outbox, dumps
from companion.web.dilemma import pages

COALESCE = 0.2  # seconds between two pushes of counts: at most five a second
# A crowd (more open streams than this) hears its counts once a second: each push of a count
# is a write to every stream (1,000 phones at five a second would be 5,000 writes a second, most
# of the loop's time while they choose); a chooser's own page comes with the answer to its POST.
CROWD_STREAMS = 100
CROWD_CALM = 1.0
URGENT = 0.02  # a change of every page (a reveal, a round drawn) goes out this soon
SLICE = 50  # a crowd's pages made in one turn of the loop after such a change (~20 ms)
GAME_MASTER = AUDIENCE  # the game master's phone's streams, which are no seat's
SETTLE_EVERY = 5.0  # seconds: how often a crowd joining settles what it holds (collector.py)


def counts(state: DilemmaState) -> pages.Counts:
    """What a choice or a join changes on every page: how many have chosen, of how many, and
    how many joined; made once per state (every page of a push reads the same), not changed
    by its readers."""
    made = _counted.get(id(state))
    if made is not None and made[0] is state:
        return made[1]
    r = state.open_round()
    now: pages.Counts = {
        "chosen_count": r.chosen_count() if r is not None else 0,
        "to_choose": len(r.people) if r is not None else 0,
        "players": list(state.present_names()),
    }
    _counted.clear()  # the latest state's only: a choice makes a new state, read by every page
    _counted[id(state)] = (state, now)
    return now


_counted: dict[int, tuple[DilemmaState, pages.Counts]] = {}


def _seat_taken(change: Change) -> bool:
    """Whether ``change`` is a seat's secret kept or dropped (a setting row no page shows: the
    join that follows it is what the pages hear of)."""
    return change.kind == "setting" and change.row is not None and (
        change.row.body.get("key") == SEATS
    )


@dataclass
class Made:
    """The pages of one state, made once and shared by the streams that need them
    (``number``: which of them, in the order they were made; a page's key holds it)."""

    number: int
    shared: Public
    clock: RoundTimer | None
    results: dict[str, str] = field(default_factory=dict)  # by language, made when needed
    rules: dict[str, str] = field(default_factory=dict)  # the same for the rules' list

    def results_in(self, lang: Language) -> str:
        """The shared results in ``lang``, made the first time a phone in it needs them."""
        made = self.results.get(lang.code)
        if made is None:
            made = self.results[lang.code] = pages.render_results(self.shared.board, lang)
        return made

    def rules_in(self, lang: Language) -> str:
        """The rules' list in ``lang``, made the first time a phone in it needs it."""
        made = self.rules.get(lang.code)
        if made is None:
            made = self.rules[lang.code] = pages.render_rules(self.shared.board, lang)
        return made

    def timer(self) -> pages.Timer | None:
        """The countdown as of now (a page made later than the state counts from now)."""
        return pages.Timer.of(self.clock.left(time.time())) if self.clock else None


class Feed:
    """The warm-up's pages on the common fan-out (:class:`Fanout`: the players' streams by
    player id, the boards' under ``None``); see the module's docstring."""

    def __init__(
        self, session: DilemmaSession, board_part: Callable[[pages.Timer | None], str]
    ) -> None:
        self.session = session
        self.board_part = board_part
        self._made: Made | None = None
        self._numbers = itertools.count()
        self._published = -1  # the number of the shared pages the last push showed
        # a seat's own page: the version of its latest change (a choice, a join)
        self.changed: dict[str, int] = {}
        self.collector = Collector()  # a crowd's long-lived pages kept out of the GC's passes
        self._slices: list[str] = []  # the seats whose pages a crowd's change still waits for
        self._slice_due: asyncio.Handle | None = None
        # the game master's phone's streams' message at each push (its page's part, made again
        # at every push: one or two such pages), on the night's server
        self.game_master: Callable[[Push, Outbox[str | None]], None] | None = None
        # (a stream's memory: its page's tab, when the page named one)
        self.fanout: Fanout[str | None] = Fanout(
            session, self.urgency, self.publish,
            pace=URGENT, calm=COALESCE + URGENT, gather=URGENT,
        )

    # ---- what changed -----------------------------------------------------------------------

    def urgency(self, change: Change) -> Urgency:
        """How soon the streams hear of ``change``: a change of every page (its shared part
        made again) is urgent; a choice, a join in the lobby or a phone that came or went (a
        seat's own page, the counts, the board) may wait."""
        if not moves(change) or _seat_taken(change):
            return None
        self.fanout.calm = CROWD_CALM if self.crowd() else COALESCE + URGENT
        if change.kind == "signal":  # a phone came or went (moves() lets only presence in)
            return "calm"
        if change.kind == "command" and change.entry is not None:
            events = change.entry.events
            if not events:
                return None
            lobby = self.session.state.phase == "lobby"
            if all(isinstance(e, Chose) for e in events):
                # the shared part stays as made: a choice shows only on its chooser's page
                self._seats_changed({e.pid for e in events if isinstance(e, Chose)})
                return "calm"
            if lobby and all(isinstance(e, Joined) for e in events):
                # the shared part stays as made too: before round 1 it holds no results, and a
                # joiner's own lines (no months, no rank, no rounds) and the counts are read
                # afresh; remaking it for each of 1,000 joins made the rush quadratic
                self._seats_changed({e.pid for e in events if isinstance(e, Joined)})
                return "calm"
        # any other move, an undo, a note (a timer, a peek), a setting: every page may change
        self._made = None
        self._slices = []  # the pages a crowd's slices still waited for: its push makes all
        return "urgent"

    def crowd(self) -> bool:
        """Whether a crowd listens: more open streams than ``CROWD_STREAMS``."""
        return self.fanout.streams > CROWD_STREAMS

    def _seats_changed(self, seats: set[str]) -> None:
        """These seats' own pages changed (a choice, a join), as of the version now."""
        version = self.version()
        for pid in seats:
            self.changed[pid] = version

    def answer_part(self, pid: str, lang: Language, tab: str | None) -> str:
        """The part a phone's post is answered with (its page as of now); the stream of the
        page ``tab`` is taken to show it (:func:`show` then sends it at most the counts) when
        the post changed that seat's page alone."""
        made = self.made()
        part = self.part(pid, lang, made)
        if tab is not None and made.number == self._published:
            # (a change of every page, a reveal say, still reaches every stream whole: a page
            # whose answer was lost on the way hears of it all the same)
            for box in self.fanout.audiences.get(pid, ()):
                if box.memory == tab and box.lang.code == lang.code:
                    box.key, box.texts = self.key(pid, made), self.progress(lang)
        return part

    # ---- making pages -------------------------------------------------------------------------

    def version(self) -> int:
        """The version of the state now (every message's id: what its page shows)."""
        return self.fanout.version()

    def made(self) -> Made:
        """The shared pages, made again only after a change other than a choice (a choice
        changes only its chooser's page and the counts, which are read afresh)."""
        if self._made is None:
            state = self.session.state
            shared = public(state)
            self._made = Made(next(self._numbers), shared, self.clock(state))
        return self._made

    def clock(self, state: DilemmaState) -> RoundTimer | None:
        """The open round's timer, if it has one."""
        r = state.open_round()
        timer: RoundTimer | None = None if r is None else self.session.room.timer(r.number)
        return timer

    def part(self, pid: str, lang: Language, made: Made | None = None) -> str:
        """A phone's part: its own lines from the state as it is now, around the shared part."""
        made = made or self.made()
        view = self.view(pid, made)
        results = pages.mark_me(made.results_in(lang), made.shared.order.get(pid))
        return pages.render_player_part(
            view, lang, made.timer(), results, made.rules_in(lang)
        )

    def view(self, pid: str, made: Made | None = None) -> PlayerView:
        """A phone's view from the shared part and the state as it is now (what
        ``views.player`` gives, without making the room's part again)."""
        made = made or self.made()
        state = self.session.state
        me = state.player(pid)
        if (me is not None and me.present and pid not in made.shared.rows
                and state.phase != "lobby"):  # (in the lobby a joiner is not on it yet)
            self._made = None  # a player the shared part does not know yet (not expected)
            made = self.made()
        return {**player(state, pid, made.shared), **counts(state)}

    def board_view(self) -> BoardView:
        """The board's view: while a round is chosen, the shared part's with the counts and who
        still chooses read afresh (a choice changes nothing else of it); else made afresh."""
        state = self.session.state
        if state.phase != "choosing":
            return board(state)
        now = counts(state)
        return {
            **self.made().shared.board,
            "chosen_count": now["chosen_count"],
            "to_choose": now["to_choose"],
            "waiting": [state.name(p) for p in state.waiting()],
        }

    def room_view(self) -> BoardView:
        """What the join page reads of the room (its phase, its doors, who joined), from the
        shared part and the counts, without making the room's part again."""
        return {**self.made().shared.board, "players": counts(self.session.state)["players"]}

    def key(self, pid: str, made: Made) -> tuple[int, int]:
        """What a phone's whole page is made of, its counts aside: the shared pages and its
        own latest change."""
        return made.number, self.changed.get(pid, -1)

    def progress(self, lang: Language) -> dict[str, str]:
        """The counts' texts on a phone's page in ``lang`` now: what a patch may change."""
        return pages.progress(counts(self.session.state), lang)

    def player_page(self, pid: str, made: Made, lang: Language, push: Push) -> Page:
        """A phone's page: made once per push for every stream of it in ``lang``; its counts
        the texts a patch may change (made once per push and language)."""
        texts = push.memo(("progress", lang.code), lambda: self.progress(lang))
        return Page(
            self.key(pid, made), lambda: dumps({"html": self.part(pid, lang, made)}), texts,
            share=(pid, lang.code),
        )

    def board_page(self) -> Page:
        """The board's page, always made anew (its count of phones, who still chooses)."""
        made = self.made()
        return Page(None, lambda: dumps({"html": self.board_part(made.timer())}), share="board")

    # ---- pushing --------------------------------------------------------------------------

    def first_page(self, pid: str | None) -> Callable[[Outbox[str | None], Push], None]:
        """What a stream of ``pid`` (``None``: the board) gets first: its whole page."""

        def first(box: Outbox[str | None], push: Push) -> None:
            if pid is None:
                show(push, box, self.board_page())
            else:
                show(push, box, self.player_page(pid, self.made(), box.lang, push))

        return first

    def publish(self, push: Push) -> None:
        """Put into every stream what its page needs to show now (:func:`show`: a whole page
        when its key changed, else its counts or nothing); in a crowd, a change of every page
        is made ``SLICE`` phones at a time."""
        made = self.made()
        everything, self._published = made.number != self._published, made.number
        audiences = self.fanout.audiences
        self._game_masters(push)
        crowd = self.crowd()
        if crowd and self.session.state.phase == "lobby":  # a crowd joining: what it holds
            self.collector.settle(every=SETTLE_EVERY)  # from now on, before a round's draw
        open_seats = [pid for pid in audiences if isinstance(pid, str) and pid != GAME_MASTER]
        if everything and crowd:
            self.collector.settle()  # what the room holds (joins, streams) before the renders
            self._boards(push)
            if self._slice_due is not None:  # (an earlier change's slices: dropped, remade)
                self._slice_due.cancel()
            self._slices = sorted(open_seats)
            self._render_slice(made, push)
            return
        waiting = set(self._slices)  # their whole pages come with their slice
        for pid in open_seats:
            if pid not in waiting:
                for box in audiences[pid]:
                    show(push, box, self.player_page(pid, made, box.lang, push))
        self._boards(push)

    def _game_masters(self, push: Push) -> None:
        """The game master's phone's streams (any change shows on its page)."""
        if self.game_master is not None:
            for box in list(self.fanout.audiences.get(GAME_MASTER, ())):
                self.game_master(push, box)

    def secret_replaced(self) -> None:
        """The game master's phone's link was replaced: its streams are told at once."""
        self.fanout.push()

    def _boards(self, push: Push) -> None:
        boxes = self.fanout.audiences.get(None, ())
        if boxes:
            page = self.board_page()
            for box in boxes:
                show(push, box, page)

    def _render_slice(self, made: Made, push: Push | None = None) -> None:
        """Make the next ``SLICE`` phones' pages of a change of every page in a crowd, and
        leave the loop to the requests and the other streams before the next slice (a
        thousand pages at once held every choice back for a third of a second). Each slice
        is made from the state as of its turn, and says so (its version). A newer change of
        every page drops the rest (:meth:`urgency`): its own push makes every page again."""
        self._slice_due = None
        if not self._slices or self.fanout.closing:
            return
        push = push or Push(self.version(), True)
        seats, self._slices = self._slices[:SLICE], self._slices[SLICE:]
        audiences = self.fanout.audiences
        for pid in seats:
            for box in audiences.get(pid, ()):
                show(push, box, self.player_page(pid, made, box.lang, push))
        if self._slices:
            self._slice_due = self.fanout.loop.call_soon(self._render_slice, self.made())
        else:  # the round drawn or revealed, which the crowd's pages hold from now on
            self.collector.settle()

    def finish(self) -> None:
        """Make at once the pages still waiting for their slice (a benchmark, a test)."""
        while self._slices:
            if self._slice_due is not None:
                self._slice_due.cancel()
            self._render_slice(self.made())

    def close(self) -> None:
        if self._slice_due is not None:
            self._slice_due.cancel()
        self.fanout.close()
        self.collector.release()
