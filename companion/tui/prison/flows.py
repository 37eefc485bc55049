"""The console's flows that more than one screen (or the palette) starts: a move, an undo, a
peek, the interview length, the report, the links' address, printing and the Balance screen.

Each flow is an async function of the app and the context, run in a worker (it waits for its
dialogs with ``push_screen_wait``); the app is only an ``App``, never the console's class.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.app import App

from companion.language import Language
from companion.rules.prison.commands import PrisonCommand
from companion.rules.prison.epilogue import epilogue_view, steps
from companion.rules.prison.views import gm, story, table
from companion.session import links
from companion.session.prison.interviews import INTERVIEW_META
from companion.session.store import StoreError
from companion.tui.common.dialogs import ConfirmScreen, MessageScreen, PickScreen, TextScreen
from companion.tui.common.language import words
from companion.tui.common.moves import NotDone, attempt
from companion.tui.prison import address
from companion.tui.prison.context import Context, Moved
from companion.tui.prison.printout import PrintScreen
from companion.tui.prison.text import parse_duration
from companion.tui.prison.timeline import story_markdown

PRISON_BREAK = "prison-break"


def submit(app: App[Any], ctx: Context, command: PrisonCommand) -> bool:
    """Submit through the session; a refusal or a storage problem is shown, never raised."""
    done = attempt(lambda: ctx.session.submit(command))
    if isinstance(done, NotDone):
        app.notify(done.said(words(app)), severity="error", timeout=10 if done.unrecorded else 8)
        return False
    app.post_message(Moved())
    return True


def stage_change(app: App[Any], change: Callable[[], object]) -> bool:
    """Record a change of the stage (who is in, a clock, a reveal's step); a storage problem
    is shown, never raised."""
    try:
        change()
    except StoreError as error:
        app.notify(str(error), severity="error", timeout=10)
        return False
    app.post_message(Moved())
    return True


def undo(app: App[Any], ctx: Context, only: int | None = None) -> bool:
    """Take back the last move (``only``: if it is still the history entry the game master
    was asked about; a phone may have moved since)."""
    was_over = bool(ctx.session.state.over)  # only the move that ended the game is undoable
    done = attempt(lambda: ctx.session.undo(only=only))
    if isinstance(done, NotDone):
        if done.unrecorded:
            app.notify(done.said(words(app)), severity="error", timeout=10)
        else:
            app.notify(done.said(words(app)), severity="warning")
        return False
    _ = words(app)
    if was_over and not ctx.session.state.over:
        app.notify(_("Undone: the game is on again; the history keeps the end of the game as a "
                     "correction."))
    else:
        app.notify(_("Undone; the history keeps it as a correction."))
    app.post_message(Moved())
    return True


async def peek(app: App[Any], ctx: Context) -> None:
    _ = words(app)
    state = ctx.session.state
    if not gm(state)["sealed"]:
        app.notify(_("Nothing is sealed now: the choices are on the board or not made."))
        return
    day = table(state)["day"]
    look = await app.push_screen_wait(
        ConfirmScreen(
            _("Peek at the sealed choices?"),
            _("Make sure no player can see the screen. The peek is written to the history."),
            _("Peek"),
        )
    )
    if not look:
        return
    try:
        ctx.session.note("peek", day=day)
    except StoreError as error:
        app.notify(str(error), severity="error")
        return
    choices = gm(ctx.session.state, peek=True)["choices"] or {}
    body = "\n".join(f"{n}: {choice_word(c, _)}" for n, c in choices.items())
    await app.push_screen(
        MessageScreen(
            _("Day %(day)s: tonight's sealed choices", day=day),
            body,
            classes="private",
            hide_after=ctx.private_seconds,
        )
    )


def choice_word(choice: str | None, lang: Language) -> str:
    """A sealed choice as the peek shows it: ``work``, ``rest`` or ``not chosen yet``."""
    _ = lang
    if choice == "work":
        return _("work")
    if choice == "rest":
        return _("rest")
    return choice or _("not chosen yet")


def _length_problem(text: str, lang: Language) -> str | None:
    if parse_duration(text) is None:
        return lang("Give a length between 10 seconds and an hour, such as 120, 2:30 or 3m.")
    return None


async def set_interview_length(app: App[Any], ctx: Context) -> None:
    _ = words(app)
    current = ctx.interview_seconds()
    text = await app.push_screen_wait(
        TextScreen(
            _("Interview length"),
            _("How long is each interview (seconds, or minutes:seconds)?"),
            f"{current // 60}:{current % 60:02d}",
            lambda typed: _length_problem(typed, _),
        )
    )
    seconds = parse_duration(text) if text else None
    if seconds is None:
        return
    try:
        ctx.session.set(INTERVIEW_META, seconds)
    except StoreError as error:
        app.notify(str(error), severity="error")
        return
    app.notify(_("Interviews now last %(length)s.", length=f"{seconds // 60}:{seconds % 60:02d}"))
    app.post_message(Moved())


def default_report_path(ctx: Context) -> Path:
    return ctx.session.store.path.with_suffix(".md")


async def export_report(app: App[Any], ctx: Context) -> None:
    _ = words(app)
    session = ctx.session
    state = session.state
    full = story(state)
    if full is None:
        app.notify(_("The report can be exported once the game is over."), severity="warning")
        return
    text = await app.push_screen_wait(
        TextScreen(
            _("Export the report (Markdown)"),
            _("Where should it go? Press Enter for the file next to the session."),
            str(default_report_path(ctx)),
        )
    )
    if text is None:
        return
    path = Path(text.strip() or default_report_path(ctx)).expanduser()
    if path.is_dir():
        path = path / f"{session.name}.md"
    told = epilogue_view(state, steps(state))
    report = story_markdown(
        session.name, gm(state), full, ctx.extras(_), _, ctx.record(), epilogue=told
    )
    try:
        path.write_text(report, encoding="utf-8")
    except OSError as error:
        app.notify(
            _(
                "The report could not be written to %(file)s: %(error)s; give another path.",
                file=str(path),
                error=str(error.strerror),
            ),
            severity="error",
            timeout=10,
        )
        return
    await app.push_screen(
        MessageScreen(
            _("Report exported"), _("The report is in %(file)s", file=str(path.resolve()))
        )
    )


def show_print(app: App[Any], ctx: Context) -> None:
    if ctx.session.game == PRISON_BREAK:
        app.push_screen(PrintScreen(ctx))


def show_balance(app: App[Any], ctx: Context) -> None:
    if ctx.balance is None:
        app.notify(
            words(app)(
                "The Balance screen is not available here; run 'companion balance --screen'."
            ),
            severity="warning",
        )
        return
    app.push_screen(ctx.balance(ctx.session))


async def choose_address(app: App[Any], ctx: Context) -> None:
    """The address dialog (pin the printed address, pick another, reprint), then the choice."""
    _ = words(app)
    session = ctx.session
    addresses = ctx.known_addresses()
    key = await app.push_screen_wait(
        PickScreen(
            _("The players' links"),
            address.options(session, addresses, _),
            address.explain(session, addresses, _),
        )
    )
    if key is None:
        return
    if key == "reprint":
        show_print(app, ctx)
    elif key == "pin":
        printed = links.printed_base(session)
        if printed:
            pin(app, ctx, printed)
    elif key == "unpin":
        pin(app, ctx, None)
    elif key.startswith("url:"):
        pin(app, ctx, key.removeprefix("url:"))


def pin(app: App[Any], ctx: Context, url: str | None) -> None:
    """Keep ``url`` as the links' base (``None``: use the served address again)."""
    session = ctx.session
    try:
        session.set(address.PUBLIC_URL, url)
        session.note("address_pinned", url=url)
    except StoreError as error:
        app.notify(str(error), severity="error", timeout=10)
        return
    _ = words(app)
    now = links.current_base(session)
    app.notify(
        _("The players' links now start with %(url)s.", url=now)
        if now
        else _("The links are unpinned.")
    )
    app.post_message(Moved())
