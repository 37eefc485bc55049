"""The session picker: resume a saved session, or start a new one."""

from __future__ import annotations

import re

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from companion.errors import UserError
from companion.language import N_, Language, language
from companion.session.paths import (
    check_session_name,
    list_sessions,
    session_name,
    session_path,
)
from companion.tui.common.dialogs import PickScreen, TextScreen
from companion.tui.common.footer import Keys
from companion.tui.common.language import words
from companion.tui.common.literal import plain
from companion.tui.prison.context import Context, NewSession, SessionOpened

NEW = "\x00new"
AUTOMATIC = "\x00automatic"
AUTOMATIC_LABEL = N_("automatic  balanced for the group's size")


def group_size(low: int, high: int, lang: Language | None = None) -> str:
    """``4`` or ``4 to 12``: how many prisoners a scenario takes."""
    _ = lang or language()
    if low == high:
        return _.number(low)
    return _("%(low)s to %(high)s", low=_.number(low), high=_.number(high))


def scenario_choices(lang: Language | None = None) -> list[tuple[str, str]]:
    """The prison-break scenarios as (name, label with the group size, the nights to escape and
    whose file it is: shipped or the user's own), in natural order (balanced-4 before
    balanced-10); other games' files are left out. Labels in ``lang`` (English by default)."""
    from companion.rules.prison.scenario import ScenarioError
    from companion.session.prison.scenarios import load_scenario
    from companion.session.scenario_files import list_scenario_files, list_scenarios, read_toml

    _ = lang or language()
    own = {s.name: s.replaces_shipped for s in list_scenarios() if not s.shipped}
    choices = []
    for path in list_scenario_files():
        whose = _("shipped")
        if path.stem in own:
            whose = _("yours, in place of the shipped one") if own[path.stem] else _("yours")
        try:
            if read_toml(path).get("game", "prison-break") != "prison-break":
                continue
            rules = load_scenario(path.stem)
        except ScenarioError:
            problem = _("has a problem (the set-up says which)")
            choices.append((path.stem, f"{path.stem}  {problem} · {whose}"))
            continue
        low, high = rules.min_prisoners, rules.max_prisoners
        size = group_size(low, high, _)
        nights = rules.nights_to_escape
        about = _.n_(
            "%(size)s prisoners, %(count)s night",
            "%(size)s prisoners, %(count)s nights",
            nights,
            size=size,
        )
        choices.append((path.stem, f"{path.stem}  {about} · {whose}"))
    digits = re.compile(r"(\d+)")
    return sorted(
        choices,
        key=lambda c: [int(part) if part.isdigit() else part for part in digits.split(c[0])],
    )


def name_problem(name: str, folder_has: set[str], lang: Language | None = None) -> str | None:
    _ = lang or language()
    try:
        name = check_session_name(name)
    except UserError as error:
        return error.said(_)
    if name in folder_has:
        return _(
            "A session called %(name)s already exists; pick another name or resume it.",
            name=repr(name),
        )
    return None


class PickerScreen(Screen[None]):
    BINDINGS = [
        Binding("n", "new", "New session"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, ctx: Context) -> None:
        super().__init__()
        self.ctx = ctx

    def compose(self) -> ComposeResult:
        _ = words(self)
        shelf = self.ctx.shelf
        folder = shelf.folder if shelf else None
        yield Static(_("companion: pick a session"), id="picker-title", markup=False)
        yield Static(
            _("Sessions in %(folder)s", folder=str(folder)) if folder else "",
            id="picker-folder",
            markup=False,
        )
        options = [Option(Text(_("+ Start a new session")), id=NEW)]
        for path in list_sessions(folder) if folder else []:
            name = session_name(path)
            game = shelf.game_of(name) if shelf and shelf.game_of else None
            label = _("Resume %(session)s", session=name) + (f"  ({_(game)})" if game else "")
            options.append(Option(plain(label), id=name))
        yield OptionList(*options, id="sessions")
        yield Keys()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if event.option.id == NEW:
            self.action_new()
        elif event.option.id:
            self.resume(event.option.id)

    def resume(self, name: str) -> None:
        shelf = self.ctx.shelf
        assert shelf is not None
        try:
            session = shelf.open(name)
        except UserError as error:
            self.notify(error.said(words(self)), severity="error", timeout=10)
            return
        self.post_message(SessionOpened(session))

    @work(group="flow")
    async def action_new(self) -> None:
        """Ask the new session's name, then its scenario (when there is a choice)."""
        _ = words(self)
        shelf = self.ctx.shelf
        assert shelf is not None
        existing = {session_name(p) for p in list_sessions(shelf.folder)}
        text = await self.app.push_screen_wait(
            TextScreen(
                _("A new session"),
                _(
                    "Its name (letters, digits, - _ .); it is saved as %(file)s in %(folder)s.",
                    file=_("NAME") + session_path(shelf.folder, "NAME").suffix,
                    folder=str(shelf.folder),
                ),
                check=lambda text: name_problem(text.strip(), existing, _),
            )
        )
        name = text.strip() if text else None
        if not name:
            return
        choices = [(AUTOMATIC, _(AUTOMATIC_LABEL)), *scenario_choices(_)]
        scenario = await self.app.push_screen_wait(
            PickScreen(
                _("Which scenario?"),
                choices,
                _(
                    "Automatic follows the group's size as you type the names (classic for "
                    "four); nights: how many the prisoners need to escape."
                ),
            )
        )
        if scenario:
            self.post_message(NewSession(name, None if scenario == AUTOMATIC else scenario))
