"""The user's folders: where the operating system expects them (platformdirs), unless
$COMPANION_DATA_DIR, --data-dir or $COMPANION_SCENARIOS say otherwise."""

from __future__ import annotations

import sys
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


@pytest.mark.skipif(sys.platform != "linux", reason="Linux's folders are read without platformdirs")
@pytest.mark.parametrize(
    "xdg", [None, "", "share", "/abs/share"], ids=["unset", "empty", "relative", "absolute"]
)
def test_linux_folders_read_without_platformdirs_are_the_ones_it_gives(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, xdg: str | None
) -> None:
    """A relative or empty $XDG_DATA_HOME is ignored, as the XDG rule says."""
    monkeypatch.delenv("COMPANION_DATA_DIR")
    monkeypatch.delenv("COMPANION_SCENARIOS")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    if xdg is None:
        monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    else:
        monkeypatch.setenv("XDG_DATA_HOME", xdg)
    base = platformdirs.user_data_path("companion", appauthor=False)
    assert default_data_dir() == base / "sessions"
    assert user_scenario_dir() == base / "scenarios"


def test_the_environment_and_the_option_win(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "sessions"))
    monkeypatch.setenv("COMPANION_SCENARIOS", str(tmp_path / "mine"))
    assert default_data_dir() == tmp_path / "sessions"
    assert data_dir(tmp_path / "other") == tmp_path / "other"
    assert user_scenario_dir() == tmp_path / "mine"


def test_a_data_folder_of_ones_own_keeps_the_scenarios_too(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """With COMPANION_DATA_DIR set, your own scenarios are in its scenarios folder, not in the
    user's data folder."""
    monkeypatch.delenv("COMPANION_SCENARIOS")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "night"))
    assert user_scenario_dir() == tmp_path / "night" / "scenarios"


def test_a_session_name_may_have_accents_and_is_kept_in_one_form() -> None:
    # 'soirée' is a name: the refusal says "letters", and accents are letters.
    from companion.errors import UserError
    from companion.session.paths import check_session_name

    assert check_session_name("soirée") == "soirée"
    assert check_session_name("soire\u0301e") == "soirée"  # e + a combining accent: NFC
    assert check_session_name("fête-2.b_c") == "fête-2.b_c"
    for bad in ("", "-x", ".hidden", "a/b", "a b", "x" * 61, "night.sqlite"):
        with pytest.raises(UserError, match="not a usable session name"):
            check_session_name(bad)


def test_windows_device_names_are_refused_whatever_their_case_or_extension() -> None:
    """A session folder may be copied to Windows, where no file may be called CON or COM1."""
    from companion.errors import UserError
    from companion.session.paths import check_session_name

    devices = ["con", "PRN", "Aux", "nul", "COM0", "com1", "Com9", "lpt1", "LPT9", "com²", "lpt³"]
    for name in devices + ["nul.txt", "CON.night.2", "com1.backup"]:
        with pytest.raises(UserError, match="Windows keeps .* for a device") as refused:
            check_session_name(name)
        assert str(refused.value).count(".") == name.count(".") + 1  # one sentence, and its end
    for fine in ("console", "connie", "com10", "lpt", "my-con", "nul_night", "auxiliary.2", "co"):
        assert check_session_name(fine) == fine


def test_a_session_saved_under_a_decomposed_name_is_listed_and_found_composed(
    tmp_path: Path,
) -> None:
    """macOS's HFS+ stores "soirée" as e and a combining accent: the session is listed, opened
    and refused as a duplicate under its composed name."""
    import unicodedata

    from companion.errors import UserError
    from companion.session.create import nearest_session, open_session
    from companion.session.paths import list_sessions, session_name, session_path
    from companion.session.prison.create import create_prison_session
    from tests.conftest import demo_session

    decomposed = unicodedata.normalize("NFD", "soirée")
    assert decomposed != "soirée"
    demo_session(tmp_path / "made", "soirée").close()
    tmp_path.joinpath("made", "soirée.sqlite").rename(tmp_path / f"{decomposed}.sqlite")

    [saved] = list_sessions(tmp_path)
    assert saved.stem == decomposed and session_name(saved) == "soirée"
    assert session_path(tmp_path, "soirée") == saved
    assert session_path(tmp_path, decomposed) == saved  # typed decomposed too
    assert nearest_session(tmp_path, "soiree") == "soirée"
    session = open_session(tmp_path, "soirée")
    assert session.name == "soirée"
    session.close()
    with pytest.raises(UserError, match="already exists"):
        create_prison_session(tmp_path, "soirée", "classic", "Wendy", ["Ada", "Ben", "Cy", "Dee"])
    # A new session's file gets the composed name.
    demo_session(tmp_path, "fête").close()
    assert (tmp_path / "fête.sqlite").exists()
    assert sorted(session_name(p) for p in list_sessions(tmp_path)) == ["fête", "soirée"]
