"""A console's move: done, or not done with a sentence the console says in its language."""

from __future__ import annotations

from typing import Any

from companion.language import language
from companion.rules.core.game import Entry, Refused
from companion.rules.prison.commands import parse_command
from companion.session.store import StoreError
from companion.tui.common.moves import NotDone, attempt
from tests.prison_helpers import game


def test_a_refused_move_is_said_in_the_consoles_language() -> None:
    history = game()
    done = attempt(lambda: history.submit(parse_command({"do": "end_day"})))
    assert isinstance(done, NotDone) and not done.unrecorded
    english = "You can end the day only during the accusations; it is planning now."
    assert done.reason == english
    assert done.said(language()) == english
    assert done.said(language("es")) == (
        "Solo se puede terminar el día durante las acusaciones; ahora es la planificación."
    )


def test_an_unrecorded_move_says_what_the_system_said() -> None:
    def full() -> Entry[Any, Any] | Refused:
        raise StoreError("The session file could not be written: the disk is full.")

    done = attempt(full)
    assert isinstance(done, NotDone) and done.unrecorded and done.refused is None
    assert done.said(language("de")) == done.reason
