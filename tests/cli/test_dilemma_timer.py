"""``companion dilemma NAME --timer SECONDS``: the rounds' timer set from the command line, as
the console's ``t`` sets it (a ``round_seconds`` note, read back by the room), noted only when
it changes; a length that is not one refused in one sentence before anything is made."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.cli.main import main
from companion.session.create import open_session
from companion.session.dilemma import is_dilemma
from companion.session.paths import session_path


def seconds_of(data: Path) -> tuple[int | None, int]:
    session = open_session(data, "warm")
    try:
        assert is_dilemma(session)
        return session.room.seconds, len(session.notes("round_seconds"))
    finally:
        session.close()


def test_the_timer_is_set_from_the_command_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = tmp_path / "data"
    poster = str(tmp_path / "poster.pdf")
    warm = ["--data-dir", str(data), "dilemma", "warm"]
    assert main([*warm, "--timer", "90", "--poster", poster]) == 0
    assert seconds_of(data) == (90, 1)
    assert main([*warm, "--timer", "90s", "--poster", poster]) == 0
    assert seconds_of(data) == (90, 1)  # no change, no note
    assert main([*warm, "--timer", "0", "--poster", poster]) == 0
    assert seconds_of(data) == (None, 2)  # no timer
    assert main([*warm, "--poster", poster]) == 0
    assert seconds_of(data) == (None, 2)  # not given: left as it is
    capsys.readouterr()


@pytest.mark.parametrize("typed", ["5", "3601", "1:30", "ninety", "-10", ""])
def test_a_timer_that_is_not_a_rounds_length_is_refused_in_one_sentence(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, typed: str
) -> None:
    data = tmp_path / "data"
    status = main(["--data-dir", str(data), "dilemma", "warm", "--timer", typed])
    _, err = capsys.readouterr()
    assert status == 2
    assert err.strip() == (
        f"companion: --timer {typed!r} is not a round's length; give the seconds per round, "
        "10 to 3600 (such as --timer 90), or 0 for no timer."
    )
    assert not session_path(data, "warm").exists()
