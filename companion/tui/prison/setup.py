"""Set-up for a new session: the warden and the prisoners (add, rename, remove, reorder),
checked against the scenario before the game starts. The scenario is the GM's choice (on the
command line or with F4 here), or automatic: the one balanced for the group's size, following
the roster as names are added and removed."""

from __future__ import annotations

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from companion.errors import UserError
from companion.language import N_
from companion.rules.core.roster import RosterError, check_name
from companion.tui.common.dialogs import ConfirmScreen, PickScreen
from companion.tui.common.footer import Keys
from companion.tui.common.language import words
from companion.tui.common.literal import plain
from companion.tui.prison.context import BackToPicker, Context, SessionOpened
from companion.tui.prison.picker import AUTOMATIC, AUTOMATIC_LABEL, group_size, scenario_choices
from companion.tui.prison.roster import name_refusal, roster_refusal

ENTRY_PROMPT = N_("a prisoner's name, then Enter to add")

class SetupScreen(Screen[None]):
    BINDINGS = [
        Binding("ctrl+s", "start", "Start the game", priority=True),
        Binding("f2", "rename", "Rename"),
        Binding("f8", "remove", "Remove"),
        Binding("f5", "move(-1)", "Move up"),
        Binding("f6", "move(1)", "Move down"),
        Binding("f4", "scenario", "Scenario"),
        Binding("escape", "back", "Back"),
    ]

    def __init__(
        self, ctx: Context, name: str, scenario: str | None, *, back_to_picker: bool = True
    ) -> None:
        """``scenario`` ``None``: automatic, the one balanced for the group's size."""
        super().__init__()
        self.ctx = ctx
        self.session_name = name
        self.automatic = scenario is None
        self.scenario = scenario or ""
        self.back_to_picker = back_to_picker
        self.prisoners: list[str] = []
        self.renaming: int | None = None
        self.min_prisoners = 2
        self.max_prisoners = 60
        self.scenario_problem: str | None = None

    def compose(self) -> ComposeResult:
        _ = words(self)
        yield Static("", id="setup-title", markup=False)
        yield Static(_("Warden"), classes="label", markup=False)
        yield Input(placeholder=_("the warden's name, then Enter"), id="warden")
        yield Static(
            _("Prisoners, in seat order (F2 rename, F8 remove, F5/F6 move)"),
            classes="label",
            markup=False,
        )
        yield OptionList(id="prisoners")
        yield Input(placeholder=_(ENTRY_PROMPT), id="entry")
        yield Static("", id="problem", markup=False)
        yield Keys()

    def on_mount(self) -> None:
        self.query_one("#warden", Input).focus()
        if not self.automatic:
            self.use_scenario(self.scenario)
        self.show_list()

    # ---- the scenario -----------------------------------------------------------------------

    def use_scenario(self, scenario: str) -> None:
        """Check the roster against ``scenario`` from now on, and say so in the title."""
        from companion.rules.prison.scenario import ScenarioError
        from companion.session.prison.scenarios import load_scenario

        self.scenario, self.scenario_problem = scenario, None
        try:
            rules = load_scenario(scenario)
            self.min_prisoners, self.max_prisoners = rules.min_prisoners, rules.max_prisoners
        except ScenarioError as error:
            self.scenario_problem = str(error)
        _ = words(self)
        size = group_size(self.min_prisoners, self.max_prisoners, _)
        if self.automatic:
            title = _(
                "New session %(session)s · scenario %(scenario)s (%(size)s prisoners, "
                "automatic) · F4 changes it",
                session=self.session_name,
                scenario=scenario,
                size=size,
            )
        else:
            title = _(
                "New session %(session)s · scenario %(scenario)s (%(size)s prisoners) · F4 "
                "changes it",
                session=self.session_name,
                scenario=scenario,
                size=size,
            )
        self.query_one("#setup-title", Static).update(plain(title))

    def follow_size(self) -> None:
        """Automatic: the scenario balanced for the roster's size (classic for four)."""
        from companion.session.prison.scenarios import scenario_for

        if self.automatic:
            fitting = scenario_for(len(self.prisoners))
            if fitting != self.scenario:
                self.use_scenario(fitting)

    @work(group="flow")
    async def action_scenario(self) -> None:
        """Pick the scenario: automatic, or any shipped or own one."""
        _ = words(self)
        choices = [(AUTOMATIC, _(AUTOMATIC_LABEL)), *scenario_choices(_)]
        keys = [key for key, __ in choices]
        now = AUTOMATIC if self.automatic else self.scenario
        if self.automatic:
            said = _("Now: %(scenario)s (automatic).", scenario=self.scenario)
        else:
            said = _("Now: %(scenario)s.", scenario=self.scenario)
        how = _(
            "Automatic follows the group's size as names are added or removed; nights: how "
            "many the prisoners need to escape."
        )
        picked = await self.app.push_screen_wait(
            PickScreen(
                _("Which scenario?"),
                choices,
                f"{said} {how}",
                highlight=keys.index(now) if now in keys else 0,
            )
        )
        if picked is None:
            return
        self.automatic = picked == AUTOMATIC
        if self.automatic:
            self.scenario = ""
            self.follow_size()
        else:
            self.use_scenario(picked)
        self.show_status()

    # ---- the list -------------------------------------------------------------------------

    def show_list(self, highlight: int | None = None) -> None:
        listing = self.query_one("#prisoners", OptionList)
        listing.clear_options()
        listing.add_options([Option(plain(f"{i + 1}. {n}")) for i, n in enumerate(self.prisoners)])
        if self.prisoners:
            listing.highlighted = (
                min(highlight, len(self.prisoners) - 1) if highlight is not None else None
            )
        self.follow_size()
        self.show_status()

    def selected(self) -> int | None:
        listing = self.query_one("#prisoners", OptionList)
        index = listing.highlighted
        if index is None and self.prisoners:
            return len(self.prisoners) - 1
        return index

    def roster_problem(self) -> str | None:
        if self.scenario_problem:
            return self.scenario_problem
        return roster_refusal(
            self.query_one("#warden", Input).value,
            self.prisoners,
            self.min_prisoners,
            self.max_prisoners,
            words(self),
        )

    def show_status(self, message: str | None = None) -> None:
        problem = message or self.roster_problem()
        status = self.query_one("#problem", Static)
        if problem:
            status.update(plain(problem))
            status.set_class(True, "problem")
        else:
            _ = words(self)
            status.update(
                plain(
                    _.n_(
                        "Ready: %(warden)s and %(count)s prisoner. Ctrl+S starts the game.",
                        "Ready: %(warden)s and %(count)s prisoners. Ctrl+S starts the game.",
                        len(self.prisoners),
                        warden=self.query_one("#warden", Input).value,
                    )
                )
            )
            status.set_class(False, "problem")

    # ---- typing names ---------------------------------------------------------------------

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.input.id == "warden":
            self.show_status()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.input.id == "warden":
            self.query_one("#entry", Input).focus()
            return
        _ = words(self)
        name = event.value.strip()
        if not name and self.renaming is None:
            return
        refused = name_refusal(name, "prisoner", _)
        if refused:
            self.show_status(refused)
            return
        try:
            check_name(name, "prisoner")
        except RosterError as error:
            self.show_status(words(self).refused(error.refused))
            return
        others = [n for i, n in enumerate(self.prisoners) if i != self.renaming]
        taken = {n.casefold() for n in [*others, self.query_one("#warden", Input).value]}
        if name.casefold() in taken:
            self.show_status(
                _("The name %(name)s is already in the roster; pick another.", name=repr(name))
            )
            return
        if self.renaming is None:
            self.prisoners.append(name)
            where = len(self.prisoners) - 1
        else:
            where = self.renaming
            self.prisoners[where] = name
            self.renaming = None
        event.input.value = ""
        event.input.placeholder = _(ENTRY_PROMPT)
        self.show_list(where)

    # ---- actions --------------------------------------------------------------------------

    def action_rename(self) -> None:
        _ = words(self)
        index = self.selected()
        if index is None:
            self.show_status(_("There is nobody to rename yet; add a prisoner first."))
            return
        self.renaming = index
        entry = self.query_one("#entry", Input)
        entry.value = self.prisoners[index]
        entry.cursor_position = len(entry.value)
        entry.placeholder = _("new name for %(name)s", name=self.prisoners[index])
        entry.focus()
        self.show_status(
            _("Renaming %(name)s: edit the name and press Enter.", name=self.prisoners[index])
        )

    def action_remove(self) -> None:
        index = self.selected()
        if index is None:
            return
        del self.prisoners[index]
        self.renaming = None
        self.show_list(index)

    def action_move(self, step: int) -> None:
        index = self.selected()
        if index is None:
            return
        target = index + step
        if not 0 <= target < len(self.prisoners):
            return
        p = self.prisoners
        p[index], p[target] = p[target], p[index]
        self.show_list(target)

    def action_start(self) -> None:
        problem = self.roster_problem()
        if problem:
            self.show_status(problem)
            return
        shelf = self.ctx.shelf
        if shelf is None:
            self.show_status(
                words(self)("This console cannot create sessions; run 'companion new NAME'.")
            )
            return
        warden = self.query_one("#warden", Input).value
        try:
            session = shelf.create(self.session_name, self.scenario, warden, list(self.prisoners))
        except UserError as error:
            self.show_status(error.said(words(self)))
            return
        self.post_message(SessionOpened(session))

    @work(group="flow")
    async def action_back(self) -> None:
        if self.renaming is not None:
            self.renaming = None
            self.query_one("#entry", Input).value = ""
            self.show_status()
            return
        typed = self.prisoners or any(i.value.strip() for i in self.query(Input))
        if not typed:
            self.leave()
            return
        _ = words(self)
        if self.back_to_picker:
            lost = _(
                "The names typed here are not saved yet; they are lost if you go back to the "
                "sessions."
            )
        else:
            lost = _(
                "The names typed here are not saved yet; they are lost if you go out of the "
                "console."
            )
        if await self.app.push_screen_wait(ConfirmScreen(_("Leave the set-up?"), lost, _("Leave"))):
            self.leave()

    def leave(self) -> None:
        if self.back_to_picker:
            self.post_message(BackToPicker())
        else:
            self.app.exit()
