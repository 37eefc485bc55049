"""The console's board keeps every column on an 80-column screen in every language, with the
longest words a day can put in its Status and Today columns (a prisoner shived, one caught,
nine-letter names): its words said of a prisoner (a status, today's progress) are short there."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import DataTable

from companion.language import language
from companion.tui.prison.app import ConsoleApp
from tests.conftest import demo_session
from tests.test_glossary import LANGS

NAMES = ["Alexandra", "Benedikta", "Christoph", "Dominique"]
DAY = [
    *(
        {"do": "choose", "prisoner": n, "choice": c}
        for n, c in zip(NAMES, ["work", "work", "rest", "work"], strict=True)
    ),
    {"do": "close_planning"},
    {"do": "interview", "prisoner": "Alexandra", "deal": False},
    {"do": "interview", "prisoner": "Benedikta", "deal": True},
    {"do": "interview", "prisoner": "Christoph", "deal": False},
    {"do": "interview", "prisoner": "Dominique", "deal": False},
    {"do": "search", "prisoner": "Dominique"},  # caught
    {"do": "accuse", "accuser": "Christoph", "accused": "Benedikta"},  # shived
]


@pytest.mark.parametrize("code", LANGS)
async def test_the_board_keeps_every_column_at_80_columns(code: str, tmp_path: Path) -> None:
    session = demo_session(tmp_path, prisoners=NAMES)
    for command in DAY:
        session.submit(command)
    app = ConsoleApp(session, ticking=False, lang=language(code))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("escape")  # the search's reveal, shown whole
        await pilot.pause()
        await pilot.press("space")  # back to the game
        await pilot.pause()
        await pilot.pause()
        board = app.screen.query_one("#board", DataTable)
        statuses = {str(board.get_row_at(i)[1]) for i in range(board.row_count)}
        assert len(statuses) == 3, statuses  # in the game, caught and shived: all on screen
        assert board.virtual_size.width <= board.scrollable_content_region.width, (
            code, board.virtual_size.width, board.scrollable_content_region.width
        )
