"""The warm-up console in the game master's language: under the pseudo-locale no English is
left on any of its screens (the room in the lobby, a round with a timer and a peek, a revealed
round, the keys, the dialogs, the private choice, the final results) nor in what it notifies;
in German it speaks German."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.widgets import OptionList, Static

from companion.language import Language, language
from companion.session.session import Session
from companion.tui.common.dialogs import ConfirmScreen, PickScreen, TextScreen
from companion.tui.dilemma.app import DilemmaApp
from companion.tui.dilemma.choice import ChoiceScreen
from companion.tui.dilemma.screens import FinalScreen, KeysScreen
from tests import pseudo_locale
from tests.dilemma_helpers import scenario
from tests.tui.terminal import notices, terminal_lines

ROOM = "http://192.168.1.20:8765"
NAMES = ["Ada", "Ben", "Cleo", "Dev", "Emi"]  # five: the house player fills the sixth seat
# Not messages: the keys' names (in the dialogs and the footer), and the names as the room
# cuts them to fit ("Cl…").
KEY_NAMES = ["Esc", "Enter", "esc"]
CUT_NAMES = [name[:k] + "…" for name in NAMES for k in range(1, len(name))]


def make_app(tmp_path: Path, lang: Language | None, rounds: int = 2) -> DilemmaApp:
    s = Session.create(tmp_path / "warm.sqlite", "dilemma", {"rules": scenario(rounds=rounds)})
    for i, name in enumerate(NAMES):
        s.submit({"do": "join", "pid": f"p{i}", "name": name})

    return DilemmaApp(s, links=(f"{ROOM}/join-room", f"{ROOM}/board"), seed=lambda: 7, lang=lang)


def shown(app: DilemmaApp) -> str:
    """What the terminal shows now, line by line."""
    return "\n".join(terminal_lines(app))


def within(app: DilemmaApp, selector: str) -> str:
    """What the terminal shows inside the widget ``selector`` (a dialog over the room, which
    covers part of the room's words)."""
    region = app.screen.query_one(selector).region
    lines = terminal_lines(app)
    return "\n".join(line[region.x : region.right] for line in lines[region.y : region.bottom])


def said(app: DilemmaApp) -> str:
    """Everything the console notified so far."""
    return "\n".join(notices(app))


def dialog_text(app: DilemmaApp) -> str:
    """A shared dialog's own words as this console hands them in: its title, its text, the
    options it offers and (typing) its keys; the dialog's fixed keys are the common
    dialogs' own (companion.tui.common.dialogs), not this console's."""
    screen = app.screen
    parts = [str(w.render()) for w in screen.query(".dialog-title, .dialog-body")]
    if isinstance(screen, TextScreen):
        parts += [str(w.render()) for w in screen.query(".dialog-keys")]
    if isinstance(screen, PickScreen):
        options = screen.query_one(OptionList)
        parts += [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
    assert parts, f"no dialog on screen: {screen!r}"
    return "\n".join(parts)


def english(app: DilemmaApp, text: str) -> list[str]:
    dynamic = [
        *NAMES,
        *CUT_NAMES,
        f"{ROOM}/join-room",
        f"{ROOM}/board",
        app.session.name,
        *KEY_NAMES,
    ]
    return pseudo_locale.leftovers(text, dynamic)


async def settle(pilot: Any, app: DilemmaApp) -> None:
    for _ in range(50):
        await pilot.pause()
        if app.join_url is not None:
            break
    await pilot.pause()


async def press(pilot: Any, *keys: str) -> None:
    await pilot.press(*keys)
    await pilot.pause()
    await pilot.pause()


def choose(app: DilemmaApp, name: str, choice: str) -> None:
    pid = next(p.pid for p in app.session.state.players if p.name == name)
    app.session.submit({"do": "choose", "pid": pid, "choice": choice}, by="phone")


async def test_no_english_is_left_on_the_warm_up_console(tmp_path: Path, qps: Language) -> None:
    app = make_app(tmp_path, qps)
    seen: dict[str, list[str]] = {}

    def check(moment: str, text: str | None = None) -> None:
        text = shown(app) if text is None else text
        assert "[!!" in text, f"{moment}: nothing translated on screen\n{text}"
        seen[moment] = english(app, text)

    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, app)
        check("the lobby")
        await press(pilot, "?")
        assert isinstance(app.screen, KeysScreen)
        check("the keys", within(app, ".keys-dialog"))
        await press(pilot, "escape")
        await press(pilot, "t")  # the timer: typed seconds, and the refusal of a wrong number
        assert isinstance(app.screen, TextScreen)
        await press(pilot, "5", "enter")
        check("the timer's dialog", dialog_text(app) + "\n" + within(app, ".dialog"))
        await press(pilot, "backspace", "6", "0", "enter")
        check("the lobby with a timer")
        await press(pilot, "o")
        assert isinstance(app.screen, PickScreen)
        check("the house player's dialog", dialog_text(app))
        await press(pilot, "escape")
        await press(pilot, "a")
        assert isinstance(app.screen, TextScreen)
        check("adding a player", dialog_text(app))
        await press(pilot, "escape")

        await press(pilot, "n")  # round 1, 60 s to choose
        assert app.session.state.phase == "choosing"
        choose(app, "Ada", "betray")
        await pilot.pause(0.3)
        check("round 1 with its countdown")
        await press(pilot, "v")
        assert isinstance(app.screen, ConfirmScreen)
        check("the peek's question", dialog_text(app))
        await press(pilot, "y")
        check("peeking")
        await press(pilot, "v")
        await press(pilot, "h")
        assert isinstance(app.screen, PickScreen)
        check("whose choice", dialog_text(app))
        facing_house = next(r for r in app.view()["roster"] if r["facing_house"])
        while app.screen.query_one(OptionList).highlighted_option.id != facing_house["pid"]:
            await press(pilot, "down")
        await press(pilot, "enter")
        assert isinstance(app.screen, ChoiceScreen)
        check("the private choice, facing the house player")
        await press(pilot, "s")
        await press(pilot, "x")  # remove the one under the cursor: asks first
        assert isinstance(app.screen, ConfirmScreen)
        check("removing a player", dialog_text(app))
        await press(pilot, "escape")
        await press(pilot, "c")  # close with some still choosing: asks first
        assert isinstance(app.screen, ConfirmScreen)
        check("closing the round", dialog_text(app))
        await press(pilot, "y")
        assert app.session.state.phase == "revealed"
        check("round 1 revealed")
        await press(pilot, "u")  # the room saw the reveal: asks first
        assert isinstance(app.screen, ConfirmScreen)
        check("undoing a reveal", dialog_text(app))
        await press(pilot, "n")

        await press(pilot, "n")  # round 2, the last
        for row in app.view()["roster"]:
            if row["doing"] == "choosing":
                choose(app, row["name"], "silent")
        await pilot.pause(0.3)
        await press(pilot)
        assert isinstance(app.screen, FinalScreen)
        check("the final results")
        await press(pilot, "escape")
        check("the room after the tournament")
        check("what the console said", said(app))

    assert {moment: words for moment, words in seen.items() if words} == {}


async def test_the_check_finds_english_left_over(tmp_path: Path) -> None:
    """The same look at the console in English finds words: the check above can fail."""
    app = make_app(tmp_path, language())
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, app)
        assert "Players" in english(app, shown(app))
        await press(pilot, "o")
        assert "house" in english(app, dialog_text(app))


async def test_in_german_the_console_speaks_german(tmp_path: Path) -> None:
    app = make_app(tmp_path, language("de"), rounds=1)
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, app)
        assert "Spieler kommen dazu" in shown(app)
        await press(pilot, "n")
        text = shown(app)
        assert "Runde 1 von 1: 0 von 5 haben gewählt." in text and "Gegenüber" in text
        assert "Runde 1 hat begonnen." in said(app)
        for row in app.view()["roster"]:
            if row["doing"] == "choosing":
                choose(app, row["name"], "betray")
        await pilot.pause(0.3)
        await press(pilot)
        assert isinstance(app.screen, FinalScreen)
        text = shown(app)
        assert "Endstand: am wenigsten abgesessen" in text
        assert "Berühmte Strategien auf euren Plätzen" in text and "Wie du mir" in text
        assert "In jeder einzelnen Runde ist Verrat also überlegen" in " ".join(
            str(w.render()) for w in app.screen.query("#explanation").results(Static)
        )
