"""The warm-up console's flows: each key that opens a dialog (a name, a number, a pick, a
question before an undo the room saw) and what follows it. :class:`RoomMoves` holds them,
each a flow over the console (:class:`~companion.tui.dilemma.app.DilemmaApp`, which holds the
room and the keys that need no dialog, and runs these flows in its ``@work`` workers)."""

from __future__ import annotations

import time
from typing import Protocol, TypeVar

from rich.text import Text
from textual.notifications import SeverityLevel
from textual.screen import Screen

from companion.language import N_, Language
from companion.rules.core.game import Refused
from companion.rules.dilemma.asked import close_round_asked, undo_asked
from companion.rules.dilemma.commands import (
    Choose,
    CloseRound,
    DilemmaCommand,
    Finish,
    Join,
    Remove,
    RemoveMany,
    Rename,
    SetHouse,
)
from companion.rules.dilemma.room import HoldTimer, SetRoundSeconds
from companion.rules.dilemma.seen import seen_by_the_room
from companion.rules.dilemma.strategies import NAMES
from companion.rules.dilemma.views import GmView
from companion.session.attached import AttachedSession
from companion.session.dilemma import DilemmaSession
from companion.session.dilemma.seats import LIFTED_KEY, forget, new_seat
from companion.session.store import StoreError
from companion.tui.common.dialogs import ConfirmScreen, PickScreen, TextScreen
from companion.tui.common.language import enter_key, esc_key
from companion.tui.common.literal import fill
from companion.tui.common.moves import NotDone, attempt
from companion.tui.dilemma.choice import ChoiceScreen
from companion.tui.dilemma.flood import flood_groups, group_line, removed_words
from companion.tui.dilemma.room import RoomScreen
from companion.tui.dilemma.state import RoomState
from companion.tui.dilemma.words import (
    doing_word,
    house_name,
    shown_name,
    strategy_how,
    strategy_name,
)

T = TypeVar("T")

OVER = N_("The tournament is over; r shows the results.")
NO_ROUND = N_("No round is open; n starts the next one.")
BAD_SECONDS = N_("Type whole seconds from 10 to 3600, or 0 for no timer.")


def dialog_keys(lang: Language, enter: str) -> Text:
    """``Enter save   Esc cancel`` with ``enter`` (translated) for Enter: markup around the
    words, not in the messages."""
    _ = lang
    return fill(
        "[b]%(enter_key)s[/b] %(enter)s   [b]%(esc_key)s[/b] %(cancel)s",
        enter_key=enter_key(lang), enter=enter, esc_key=esc_key(lang), cancel=_("cancel"),
    )


class Console(Protocol):
    """What the warm-up's moves and round timer use of their console
    (:class:`~companion.tui.dilemma.app.DilemmaApp`)."""

    lang: Language
    session: DilemmaSession
    room: RoomScreen
    room_state: RoomState

    @property
    def served(self) -> AttachedSession | None: ...

    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None: ...

    async def push_screen_wait(self, screen: Screen[T]) -> T: ...

    def view(self) -> GmView: ...

    def refresh_view(self) -> None: ...

    def submit(self, command: DilemmaCommand) -> bool: ...

    def refusal(self, command: DilemmaCommand) -> str | None: ...

    def ask_time_back(self, hold: HoldTimer) -> object: ...


class RoomMoves:
    """The warm-up console's dialogs on its session and room, each a flow over ``console``
    (which runs them in its workers)."""

    def __init__(self, console: Console) -> None:
        self.console = console

    @property
    def lang(self) -> Language:
        return self.console.lang

    @property
    def session(self) -> DilemmaSession:
        return self.console.session

    @property
    def room(self) -> RoomScreen:
        return self.console.room

    @property
    def room_state(self) -> RoomState:
        return self.console.room_state

    def notify(
        self, message: str, *, severity: SeverityLevel = "information", timeout: float | None = None
    ) -> None:
        self.console.notify(message, severity=severity, timeout=timeout)

    async def push_screen_wait(self, screen: Screen[T]) -> T:
        return await self.console.push_screen_wait(screen)

    def view(self) -> GmView:
        return self.console.view()

    def refresh_view(self) -> None:
        self.console.refresh_view()

    def submit(self, command: DilemmaCommand) -> bool:
        return self.console.submit(command)

    def refusal(self, command: DilemmaCommand) -> str | None:
        return self.console.refusal(command)

    async def round_time(self) -> None:
        _ = self.lang
        now = self.room_state.round_seconds()
        typed = await self.push_screen_wait(
            TextScreen(
                _("Seconds per round"),
                _(
                    "From the next round; at zero the round closes and who has not chosen gives "
                    "no answer. 0 or empty: no timer."
                ),
                str(now or ""),
                check=lambda text: _(problem) if (problem := _seconds_problem(text)) else None,
                max_length=4,
                keys=dialog_keys(_, _("save")),
            )
        )
        if typed is None:
            return
        seconds = int(typed.strip() or "0")
        self.session.stage(SetRoundSeconds(seconds))
        if seconds:
            said = _("Rounds now last %(seconds)s s from the next one.", seconds=seconds)
        else:
            said = _("No round timer.")
        self.notify(said)
        self.refresh_view()

    async def house(self) -> None:
        _ = self.lang
        state = self.session.state
        options: list[tuple[str, str]] = [
            (key, f"{strategy_name(_, key)}: {strategy_how(_, key)}") for key in NAMES
        ]
        first = next(i for i, (key, _label) in enumerate(options) if key == state.house)
        strategy = await self.push_screen_wait(
            PickScreen(
                _("The house player"),
                options,
                _("It fills the empty seat on an odd count; never ranked."),
                first,
            )
        )
        chosen = next((key for key in NAMES if key == strategy), None)
        if chosen is not None and self.submit(SetHouse(strategy=chosen)):
            name = house_name(_, self.view())
            self.notify(_("The house player is now %(name)s.", name=name))

    async def add_player(self) -> None:
        _ = self.lang
        if self.view()["phase"] == "over":
            self.notify(_(OVER), severity="warning")
            return
        typed = await self.push_screen_wait(
            TextScreen(
                _("Add a player"),
                _("Their name, as the room will see it. They choose here, in private, with h."),
                check=lambda text: self.refusal(Join(pid="new", name=" ".join(text.split()))),
                max_length=40,
                keys=dialog_keys(_, _("add")),
            )
        )
        if typed is None:
            return
        name = " ".join(typed.split())
        pid, token = new_seat(self.session)  # a pid as a phone's join has one
        if self.submit(Join(pid=pid, name=name)):
            self.notify(_("%(name)s has joined; h enters their choice in private.", name=name))
        else:
            forget(self.session, token)

    async def choose(self) -> None:
        _ = self.lang
        v = self.view()
        if v["phase"] != "choosing":
            closed = OVER if v["phase"] == "over" else NO_ROUND
            self.notify(_(closed), severity="warning")
            return
        rows = [r for r in v["roster"] if r["doing"] in ("choosing", "chosen")]
        chosen, waiting_word = doing_word(_, "chosen"), _("waiting")
        options = [
            (r["pid"], f"{r['name']}  ({chosen if r['doing'] == 'chosen' else waiting_word})")
            for r in rows
        ]
        under = self.room.selected(quiet=True)  # the player under the cursor, if waiting
        waiting = [r["pid"] for r in rows if r["doing"] == "choosing"]
        start = under["pid"] if under and under["pid"] in waiting else next(iter(waiting), None)
        first = next((i for i, r in enumerate(rows) if r["pid"] == start), 0)
        pid = await self.push_screen_wait(
            PickScreen(_("Whose choice?"), options, _("The next screen is private."), first)
        )
        row = next((r for r in rows if r["pid"] == pid), None)
        if row is None or row["facing"] is None:
            return
        choice = await self.push_screen_wait(
            ChoiceScreen(row["name"], shown_name(_, v, row["facing"]), v["round"], v["sentences"])
        )
        if choice is not None and self.submit(Choose(pid=row["pid"], choice=choice)):
            self.notify(_("%(name)s's choice is recorded and sealed.", name=row["name"]))

    async def close_round(self) -> None:
        _ = self.lang
        v = self.view()
        asked = close_round_asked(v)
        if asked is not None and not await self.push_screen_wait(
            ConfirmScreen(_.say(asked[0]), _.say(asked[1]), _("Yes"))
        ):
            return
        self.submit(CloseRound())

    async def rename(self) -> None:
        row = self.room.selected()
        if row is None:
            return
        _ = self.lang
        typed = await self.push_screen_wait(
            TextScreen(
                _("Rename %(name)s", name=row["name"]),
                "",
                row["name"],
                max_length=40,
                problems=False,
                keys=dialog_keys(_, _("save")),
            )
        )
        name = " ".join(typed.split()) if typed is not None else None
        if name and self.submit(Rename(pid=row["pid"], name=name)):
            self.notify(_("%(old)s is now %(new)s.", old=row["name"], new=name))

    async def remove(self) -> None:
        row = self.room.selected()
        if row is None:
            return
        _ = self.lang
        name = row["name"]
        if not row["present"]:
            self.notify(_("%(name)s has already left (b brings them back).", name=name))
            return
        question = _("%(name)s sits out every round from now on; b brings them back.", name=name)
        if row["facing"] and not row["facing_house"]:
            question += " " + _(
                "The house player takes their seat against %(name)s.", name=row["facing"]
            )
        if not await self.push_screen_wait(
            ConfirmScreen(_("Remove %(name)s?", name=name), question, _("Remove"))
        ):
            return
        if self.submit(Remove(pid=row["pid"])):
            self.notify(_("%(name)s has left the tournament (b brings them back).", name=name))

    async def clear_flood(self) -> None:
        """Remove one group of players (from one device address, or who joined in the last
        minutes) in one step, after one confirmation; one undo brings them all back."""
        _ = self.lang
        v = self.view()
        if v["phase"] == "over":
            self.notify(_(OVER), severity="warning")
            return
        groups = flood_groups(v["roster"], self.room_state.origins(), time.time())
        if not groups:
            self.notify(
                _("No flood to clear: nobody still in joined from a phone just now, nor two "
                  "from one device."),
                severity="warning",
            )
            return
        options = [(group.key, group_line(_, group)) for group in groups]
        lifted = self.session.settings.get(LIFTED_KEY) == "lifted"
        options.append(
            ("limit:on", _("Limit joins per device again (a few a minute from one address)"))
            if lifted
            else (
                "limit:off",
                _("Lift the limit of joins per device: behind a proxy every phone shares one "
                  "address"),
            )
        )
        key = await self.push_screen_wait(
            PickScreen(
                _("Clear a flood of joins"),
                options,
                _("Pick the players to remove in one step; u brings them all back."),
            )
        )
        if key in ("limit:on", "limit:off"):
            self._limit_per_device(key == "limit:on")
            return
        group = next((g for g in groups if g.key == key), None)
        if group is None:
            return
        count = len(group.pids)
        title = _.n_("Remove %(count)s player?", "Remove %(count)s players?", count)
        question = group_line(_, group) + "\n" + _(
            "They leave in one step; u brings them all back."
        )
        if v["phase"] == "choosing":
            question += " " + _("The house player takes the seats they leave in this round.")
        if not await self.push_screen_wait(ConfirmScreen(title, question, _("Remove"))):
            return
        if self.submit(RemoveMany(pids=list(group.pids))):
            self.notify(removed_words(_, group))

    def _limit_per_device(self, on: bool) -> None:
        """The night's server limits joins per device address again, or no more."""
        _ = self.lang
        try:
            self.session.set(LIFTED_KEY, None if on else "lifted")
        except StoreError as error:
            self.notify(str(error), severity="error", timeout=10)
            return
        if on:
            self.notify(_("Joins are limited per device again."))
        else:
            self.notify(
                _("No limit of joins per device: one device can now fill the room; X limits "
                  "it again."),
                severity="warning",
            )

    async def undo(self) -> None:
        """Take back the last change; when the room has already seen it (a reveal, the end),
        say what it saw and ask first."""
        target = self.session.history.undo_target()
        if isinstance(target, Refused):
            self.notify(self.lang.refused(target), severity="warning")
            return
        _ = self.lang
        seen = seen_by_the_room(self.session.state, target.events)
        if seen is not None:
            title, question = undo_asked(seen)
            if not await self.push_screen_wait(
                ConfirmScreen(_.say(title), _.say(question), _("Undo anyway"))
            ):
                self.notify(_("Nothing was undone."))
                return
        done = attempt(lambda: self.session.undo(by="gm", only=target.seq))
        if isinstance(done, NotDone):
            if done.unrecorded:
                self.notify(done.said(self.lang), severity="error", timeout=10)
                return
            self.notify(done.said(self.lang), severity="warning")
        else:
            # A round opened again has no timer: its deadline has passed, and the timer would
            # close it again at once; the game master closes it (the note is in the log).
            reopened = seen.reopens if seen is not None else None
            timer_off = reopened is not None and self.room_state.turn_timer_off(reopened)
            self.room_state.shown_final = self.view()["phase"] == "over"
            taken = _.say(seen.title) if seen is not None else _("the last change")
            self.notify(_("Undone: %(what)s is taken back (the log keeps it).", what=taken))
            if seen is not None and seen.chooser is not None:
                self.notify(_("%(name)s chooses again.", name=seen.chooser))
            if timer_off:
                self.notify(
                    _(
                        "Round %(round)s is open again; its timer is off: c closes it when "
                        "you decide.",
                        round=reopened,
                    )
                )
        self.refresh_view()

    async def peek(self) -> None:
        _ = self.lang
        if not self.room_state.peeking and not await self.push_screen_wait(
            ConfirmScreen(
                _("Show every secret choice?"),
                _(
                    "Make sure no player can see this screen, nor a projector showing it. "
                    "The peek is written in the log; v hides the choices again."
                ),
                _("Peek"),
            )
        ):
            return
        self.room_state.peeking = not self.room_state.peeking
        if self.room_state.peeking:
            self.session.note("peek", round=self.view()["round"])
        self.refresh_view()

    async def finish(self) -> None:
        _ = self.lang
        if await self.push_screen_wait(
            ConfirmScreen(
                _("Finish the tournament?"),
                _("No more rounds will be played."),
                _("Yes"),
            )
        ):
            self.submit(Finish())


def _seconds_problem(text: str) -> str | None:
    """What is wrong with a typed number of seconds per round, in one sentence (in English:
    the caller translates it)."""
    typed = text.strip()
    if not typed or typed == "0":
        return None
    if not typed.isdigit() or not 10 <= int(typed) <= 3600:
        return BAD_SECONDS
    return None
