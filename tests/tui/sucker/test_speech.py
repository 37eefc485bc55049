"""The console's own wording of the table (companion.tui.sucker.speech) says in English word for
word what the rules core says, through a whole game: captures, a rescue, refusals, defeats."""

from __future__ import annotations

from companion.language import language
from companion.rules.core.game import History
from companion.rules.sucker.engine import SO_LONG_SUCKER, initial_state
from companion.rules.sucker.views import event_text, table
from companion.tui.sucker.speech import event_line, says
from tests.tui.sucker.test_referee import SETUP
from tests.tui.sucker.test_snapshots import RESCUE

# After RESCUE: Bo awaits rescue; Ann gives, Bo plays, Cat awaits rescue and is refused, Bo too.
TO_THE_END = [
    *RESCUE,
    {"do": "transfer", "player": "Ann", "color": "blue", "to": "Bo"},
    {"do": "play", "player": "Bo", "color": "blue", "pile": "new"},
    {"do": "next", "player": "Cat"},
    {"do": "refuse", "player": "Ann"},
    {"do": "refuse", "player": "Ann"},
]


def test_the_console_says_what_the_rules_core_says_in_english() -> None:
    en = language()
    h = History(SO_LONG_SUCKER, initial_state(SETUP))
    kinds = set()
    whats = {h.state.awaiting.what}
    assert says(en, table(h.state)) == table(h.state)["says"]
    for command in TO_THE_END:
        entry = h.submit(SO_LONG_SUCKER.parse_command(command))
        for event in entry.events:
            kinds.add(event.kind)
            assert event_line(en, event) == event_text(event)
        whats.add(h.state.awaiting.what)
        assert says(en, table(h.state)) == table(h.state)["says"]
    assert h.state.winner == "Ann"
    assert whats == {"play", "next", "kill", "rescue", "over"}
    assert {"chip_played", "capture_awaited", "pile_taken", "prisoner_transferred",
            "rescue_awaited", "rescue_refused", "player_defeated", "game_won"} <= kinds


def test_the_console_says_it_in_german() -> None:
    h = History(SO_LONG_SUCKER, initial_state(SETUP))
    assert says(language("de"), table(h.state)) == "Ann muss einen Chip spielen."
