"""``--lang`` on the commands that open a console: the console's language, refused in one
sentence when unknown before anything is opened or made; ``demo --lang`` is the demo's
session language too."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.cli.main import main
from companion.session.create import open_session

REFUSAL = "companion: 'tlh' is not a language companion speaks; use one of en, de, es, fr."


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("command", [["demo"], ["start"], ["resume", "demo"]])
def test_an_unknown_console_language_is_one_sentence(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, command: list[str]
) -> None:
    data = tmp_path / "data"
    if command[0] == "resume":  # a session to resume, made in English
        main(["--data-dir", str(data), "new", "demo", "--warden", "W", "--prisoners",
              "A,B,C,D", "--create-only"])
        capsys.readouterr()
    status, out, err = run(capsys, "--data-dir", str(data), *command, "--no-phones",
                           "--lang", "tlh")
    assert status == 2 and out == ""
    assert err.strip().splitlines() == [REFUSAL]
    if command == ["demo"]:
        assert not (data / "demo.sqlite").exists()


def test_demo_lang_is_the_boards_language_too(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from companion.cli import wiring

    def no_terminal() -> None:  # stop where the console would open, after the demo is made
        raise SystemExit(7)

    monkeypatch.setattr(wiring, "check_terminal", no_terminal)
    data = tmp_path / "data"
    with pytest.raises(SystemExit):
        main(["--data-dir", str(data), "demo", "--no-phones", "--lang", "DE"])
    session = open_session(data, "demo")
    try:
        assert session.settings.get("lang") == "de"
    finally:
        session.close()
