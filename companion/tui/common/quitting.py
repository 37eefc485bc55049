"""Quitting a console: what happens to the phones is said in one line, and the game master
may stop serving them too.

While a night's server serves the game (the console is attached to it), quitting the console
leaves the phones and the board playing: ``q`` asks whether to keep serving them or to stop
the night's server as well. A console alone (``--no-phones``) asks only in the middle of a
game, as before. Textual's ctrl+q (and ctrl+c) quit at once and leave the phones served.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from textual.app import App

from companion.language import N_
from companion.tui.common.dialogs import ConfirmScreen, PickScreen
from companion.tui.common.language import words
from companion.tui.common.literal import visible

QUIT_TITLE = N_("Quit?")
QUIT_QUESTION = N_(
    "The phones and the board lose the game until you open it again with '%(command)s'; "
    "nothing is lost."
)
QUIT_YES = N_("Quit")
QUIT_SERVED = N_(
    "The phones and the board keep playing: the night's server goes on without this console. "
    "Open it again with '%(command)s'."
)
KEEP_SERVING = N_("Quit; the phones keep playing")
STOP_SERVING = N_("Quit and stop serving the phones and the board")


async def quit_asking(
    app: App[Any], *, under_way: bool, reopen: str,
    stop_serving: Callable[[], Awaitable[None]] | None = None,
) -> None:
    """Quit ``app`` (its ``quit`` action): with a night's server (``stop_serving`` stops it),
    once the game master chose whether the phones keep playing; alone, at once, or while a game
    is ``under_way`` once the game master said yes; ``reopen`` opens the game again."""
    _ = words(app)
    if stop_serving is not None:

        async def chosen(choice: str | None) -> None:
            if choice == "stop":
                await stop_serving()
            if choice in ("keep", "stop"):
                await app.run_action("quit")

        note = _(QUIT_SERVED, command=visible(reopen))
        options = [("keep", _(KEEP_SERVING)), ("stop", _(STOP_SERVING))]
        app.push_screen(PickScreen(_(QUIT_TITLE), options, note), chosen)
        return
    if not under_way:
        await app.run_action("quit")
        return

    async def answered(yes: bool | None) -> None:
        if yes:
            await app.run_action("quit")

    question = _(QUIT_QUESTION, command=visible(reopen))
    app.push_screen(ConfirmScreen(_(QUIT_TITLE), question, _(QUIT_YES)), answered)
