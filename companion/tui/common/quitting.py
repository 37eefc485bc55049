"""``q`` in the middle of a game asks first: quitting stops the phone server, so every phone
and the board lose the game until the game master opens it again. Before a game starts and
after it is over, ``q`` quits at once; Textual's ctrl+q (and ctrl+c) are left as they are.
"""

from __future__ import annotations

from typing import Any

from textual.app import App

from companion.language import N_
from companion.tui.common.dialogs import ConfirmScreen
from companion.tui.common.language import words
from companion.tui.common.literal import visible

QUIT_TITLE = N_("Quit?")
QUIT_QUESTION = N_(
    "The phones and the board lose the game until you open it again with '%(command)s'; "
    "nothing is lost."
)
QUIT_YES = N_("Quit")


async def quit_asking(app: App[Any], *, under_way: bool, reopen: str) -> None:
    """Quit ``app`` (its ``quit`` action) at once, or, while a game is ``under_way``, once
    the game master said yes; ``reopen`` is the command that opens the game again."""
    if not under_way:
        await app.run_action("quit")
        return
    _ = words(app)

    async def answered(yes: bool | None) -> None:
        if yes:
            await app.run_action("quit")

    question = _(QUIT_QUESTION, command=visible(reopen))
    app.push_screen(ConfirmScreen(_(QUIT_TITLE), question, _(QUIT_YES)), answered)
