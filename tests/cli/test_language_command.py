"""``companion language NAME [LANG]``: shows a session's language and the ones there are, or
changes it (noted in the log) for every game; an unknown session or language is refused in one
sentence with nothing changed; a night's server already running (prison break and warm-up)
shows its board in the new language without a restart, and the printouts follow it."""

from __future__ import annotations

import urllib.request
from pathlib import Path

import pytest

from companion.cli.main import main
from companion.cli.sucker import GAME, make_setup
from companion.printing.prison.document import session_language
from companion.session.create import create_session, open_session
from companion.session.night import answering
from companion.session.paths import session_path
from companion.session.session import Session
from tests.conftest import demo_session
from tests.dilemma_helpers import scenario
from tests.night_helpers import Night, serving


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def stored(folder: Path, name: str) -> tuple[str | None, list[dict[str, object]]]:
    session = open_session(folder, name)
    try:
        return session.settings.get("lang"), [n.body for n in session.notes("language")]
    finally:
        session.close()


def test_without_a_language_it_shows_the_sessions_and_the_ones_there_are(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    demo_session(tmp_path, "friday").close()
    status, out, err = run(capsys, "--data-dir", str(tmp_path), "language", "friday")
    assert status == 0 and err == ""
    assert out.splitlines() == [
        "The session 'friday' speaks English (en).",
        "The languages there are: English (en), Deutsch (de), español (es), français (fr)",
        "Change it with: companion language friday LANG",
    ]
    assert stored(tmp_path, "friday") == (None, [])  # showing changes nothing


@pytest.mark.parametrize("game", ["prison-break", "dilemma", "so-long-sucker"])
def test_a_language_is_set_noted_once_and_shown_for_every_game(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, game: str
) -> None:
    if game == "prison-break":
        demo_session(tmp_path, "s").close()
    elif game == "dilemma":
        Session.create(session_path(tmp_path, "s"), "dilemma", {"rules": scenario()}).close()
    else:
        setup = make_setup("Ann:red,Bo:blue,Cat:green", None, "Ann")
        create_session(session_path(tmp_path, "s"), GAME, setup, None).close()
    status, out, _ = run(capsys, "--data-dir", str(tmp_path), "language", "s", "de_DE")
    assert status == 0
    assert out.startswith("The session 's' now speaks Deutsch (de) instead of English (en)")
    assert stored(tmp_path, "s") == ("de", [{"what": "language", "before": "en", "after": "de"}])
    status, out, _ = run(capsys, "--data-dir", str(tmp_path), "language", "s", "DE")
    assert status == 0
    assert out == "The session 's' already speaks Deutsch (de); nothing changed.\n"
    assert len(stored(tmp_path, "s")[1]) == 1  # no change, no second note
    run(capsys, "--data-dir", str(tmp_path), "language", "s", "fr")
    assert stored(tmp_path, "s")[0] == "fr"
    _, out, _ = run(capsys, "--data-dir", str(tmp_path), "language", "s")
    assert out.splitlines()[0] == "The session 's' speaks français (fr)."


def test_an_unknown_language_or_session_is_one_sentence_and_changes_nothing(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    demo_session(tmp_path, "friday").close()
    status, out, err = run(capsys, "--data-dir", str(tmp_path), "language", "friday", "tlh")
    assert status == 2 and out == ""
    assert err.splitlines() == [
        "companion: 'tlh' is not a language companion speaks; use one of en, de, es, fr."
    ]
    assert stored(tmp_path, "friday") == (None, [])
    status, out, err = run(capsys, "--data-dir", str(tmp_path), "language", "Fridey", "de")
    assert status == 2 and out == ""
    assert len(err.splitlines()) == 1
    assert err.startswith("companion: There is no session called 'Fridey'")
    assert "did you mean 'friday'?" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["friday.sqlite"]
    assert stored(tmp_path, "friday") == (None, [])


def board_lang(night: Night) -> tuple[str, str]:
    """The language of the night's board page, and its live part."""
    record = answering(night.path)
    assert record is not None
    base = f"http://127.0.0.1:{record[0].port}"
    asked = {"Accept-Language": "es"}
    with urllib.request.urlopen(urllib.request.Request(f"{base}/board", headers=asked)) as page:
        text = page.read().decode()
    with urllib.request.urlopen(urllib.request.Request(f"{base}/board/part", headers=asked)) as r:
        part = r.read().decode()
    return text.split('<html lang="', 1)[1].split('"', 1)[0], part


def test_a_served_prison_board_follows_the_change_without_a_restart(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    demo_session(tmp_path, "live").close()
    with serving(session_path(tmp_path, "live")) as night:
        assert board_lang(night)[0] == "en"
        assert run(capsys, "--data-dir", str(tmp_path), "language", "live", "de")[0] == 0
        lang, part = board_lang(night)
        assert lang == "de" and "Häftlinge" in part
        assert night.session is not None and session_language(night.session).code == "de"


def test_a_served_warm_up_board_follows_the_change_without_a_restart(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = session_path(tmp_path, "warm")
    Session.create(path, "dilemma", {"rules": scenario()}).close()
    with serving(path) as night:
        assert board_lang(night)[0] == "en"
        assert run(capsys, "--data-dir", str(tmp_path), "language", "warm", "fr")[0] == 0
        assert board_lang(night)[0] == "fr"

