"""``companion dilemma NAME --lang`` and ``companion sucker NAME --lang``: the session's
language, stored when it is made, changed (and the change noted) when it is reopened, an
unknown one refused in one sentence before anything is made."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from companion.cli.main import main
from companion.cli.sucker import GAME, make_setup
from companion.cli.wiring import keep_language
from companion.session.create import create_session, open_session
from companion.session.paths import session_path

REFUSAL = "companion: 'tlh' is not a language companion speaks; use one of en, de, es, fr."


def pdf_text(path: str) -> str:
    if shutil.which("pdftotext") is None:
        pytest.skip("pdftotext is not installed")
    return subprocess.run(["pdftotext", path, "-"], capture_output=True, text=True,
                          check=True).stdout


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_dilemma_lang_is_stored_then_changed_with_a_note(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = str(tmp_path / "data")
    poster = str(tmp_path / "poster.pdf")
    status, out, _ = run(capsys, "--data-dir", data, "dilemma", "warm", "--lang", "fr_FR",
                         "--poster", poster)
    assert status == 0 and "poster" in out
    session = open_session(Path(data), "warm")
    try:
        assert session.settings["lang"] == "fr"
        assert session.notes("language") == []  # a new session just has it
    finally:
        session.close()
    assert "Le dilemme du prisonnier" in pdf_text(poster)  # the poster prints in it
    status, _, _ = run(capsys, "--data-dir", data, "dilemma", "warm", "--lang", "ES",
                       "--poster", poster)
    assert status == 0
    session = open_session(Path(data), "warm")
    try:
        assert session.settings["lang"] == "es"
        [note] = session.notes("language")
        assert note.body == {"what": "language", "before": "fr", "after": "es"}
    finally:
        session.close()
    assert "TRAICIONAR" in pdf_text(poster)
    run(capsys, "--data-dir", data, "dilemma", "warm", "--lang", "es", "--poster", poster)
    session = open_session(Path(data), "warm")
    try:
        assert len(session.notes("language")) == 1  # no change, no note
    finally:
        session.close()


@pytest.mark.parametrize("game", [["dilemma", "warm"], ["sucker", "table"]])
def test_an_unknown_language_is_refused_in_one_sentence_before_anything_is_made(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, game: list[str]
) -> None:
    folder = tmp_path / "data"
    status, out, err = run(capsys, "--data-dir", str(folder), *game, "--lang", "tlh")
    assert status == 2 and out == ""
    assert err.strip().splitlines() == [REFUSAL]
    assert not folder.exists() or list(folder.iterdir()) == []


def test_a_sucker_sessions_language_is_kept_and_its_change_noted(tmp_path: Path) -> None:
    setup = make_setup("Ann:red,Bo:blue,Cat:green", None, "Ann")
    session = create_session(session_path(tmp_path, "table"), GAME, setup, None)
    try:
        keep_language(session, "de", existed=False)
        assert session.settings["lang"] == "de" and session.notes("language") == []
        keep_language(session, "fr", existed=True)
        assert session.settings["lang"] == "fr"
        assert [n.body["before"] for n in session.notes("language")] == ["de"]
    finally:
        session.close()
