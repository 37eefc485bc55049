"""The user's folders: where the operating system expects them (platformdirs), unless
$COMPANION_DATA_DIR, --data-dir or $COMPANION_SCENARIOS say otherwise."""

from __future__ import annotations

from pathlib import Path

import platformdirs
import pytest

from companion.session.paths import data_dir, default_data_dir, user_scenario_dir


def test_the_systems_folders_by_default(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv("COMPANION_DATA_DIR")
    monkeypatch.delenv("COMPANION_SCENARIOS")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))  # honoured on Linux
    base = platformdirs.user_data_path("companion", appauthor=False)
    assert default_data_dir() == data_dir(None) == base / "sessions"
    assert user_scenario_dir() == base / "scenarios"
    assert tmp_path in base.parents  # the environment's folder, not a path of our own


def test_the_environment_and_the_option_win(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "sessions"))
    monkeypatch.setenv("COMPANION_SCENARIOS", str(tmp_path / "mine"))
    assert default_data_dir() == tmp_path / "sessions"
    assert data_dir(tmp_path / "other") == tmp_path / "other"
    assert user_scenario_dir() == tmp_path / "mine"


def test_a_session_name_may_have_accents_and_is_kept_in_one_form() -> None:
    # Before: 'soirée' was refused although the message said "letters".
    from companion.errors import UserError
    from companion.session.paths import check_session_name

    assert check_session_name("soirée") == "soirée"
    assert check_session_name("soire\u0301e") == "soirée"  # e + a combining accent: NFC
    assert check_session_name("fête-2.b_c") == "fête-2.b_c"
    for bad in ("", "-x", ".hidden", "a/b", "a b", "x" * 61, "night.sqlite"):
        with pytest.raises(UserError, match="not a usable session name"):
            check_session_name(bad)
