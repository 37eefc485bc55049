"""Chinese, Japanese and Korean names find the fonts of the system they are printed on: Debian's
packages on Linux, the font folders of macOS and Windows (emulated here with the platform
patched), and the advice for a name no font has names what to do on that system."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from companion.cli.main import main
from companion.printing.common.layout import (
    CJK_FALLBACKS,
    PAPERS,
    Sheets,
    cjk_fonts,
    font_advice,
)
from tests.conftest import demo_session

FONTS = Path(__file__).resolve().parents[2] / "companion" / "printing" / "common" / "fonts"


def font_with(path: Path, char: str) -> Path:
    """A copy of DejaVu Sans at ``path`` that has a glyph for ``char`` (DejaVu has no CJK)."""
    from fontTools.ttLib import TTFont

    path.parent.mkdir(parents=True, exist_ok=True)
    font = TTFont(FONTS / "DejaVuSans.ttf")
    for table in font["cmap"].tables:
        if table.isUnicode():
            table.cmap[ord(char)] = table.cmap[ord("A")]
    font.save(path)
    return path


def test_on_macos_the_fonts_folders_are_searched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "platform", "darwin")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert cjk_fonts() == []  # nothing at Debian's paths counts on a Mac
    korean = font_with(tmp_path / "Library" / "Fonts" / "AppleSDGothicNeo.ttc", "김")
    chinese = font_with(tmp_path / "Library" / "Fonts" / "PingFang.ttc", "李")
    assert cjk_fonts() == [chinese, korean]  # best first
    pdf = Sheets(PAPERS["a4"], "t")
    assert pdf.cover_text(["李", "김", "ㅎ"]) == "ㅎ"


def test_on_windows_the_system_and_the_users_fonts_folders_are_searched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setenv("WINDIR", str(tmp_path / "Windows"))
    monkeypatch.setenv("LOCALAPPDATA", str(tmp_path / "Local"))
    assert cjk_fonts() == []
    korean = font_with(tmp_path / "Windows" / "Fonts" / "malgun.ttf", "김")
    chinese = font_with(tmp_path / "Local" / "Microsoft" / "Windows" / "Fonts" / "msyh.ttc", "李")
    assert cjk_fonts() == [chinese, korean]
    pdf = Sheets(PAPERS["a4"], "t")
    assert pdf.cover_text(["李", "김"]) == ""


def test_on_linux_debians_paths_are_the_ones() -> None:
    assert sys.platform == "linux"
    assert cjk_fonts() == [path for path in CJK_FALLBACKS if path.is_file()]


@pytest.mark.parametrize(
    ("platform", "says", "not_said"),
    [
        ("linux", "install fonts-noto-cjk", "Font Book"),
        ("darwin", "with Font Book", "fonts-noto-cjk"),
        ("win32", "in Settings, Personalization, Fonts", "fonts-noto-cjk"),
    ],
)
def test_the_advice_for_a_name_no_font_has_fits_the_system(
    _isolated_data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str], platform: str, says: str, not_said: str,
) -> None:
    monkeypatch.setattr("companion.printing.common.layout.CJK_FALLBACKS", ())
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("WINDIR", str(tmp_path / "Windows"))
    monkeypatch.setenv("LOCALAPPDATA", str(tmp_path / "Local"))
    demo_session(_isolated_data_dir, "night", ["김민준", "Ada", "Ben", "Cy"]).close()
    monkeypatch.setattr(sys, "platform", platform)
    assert says in font_advice() and not_said not in font_advice()
    assert main(["print", "night", "--out", str(tmp_path / "x.pdf"),
                 "--public-url", "http://10.0.0.5:8765"]) == 0
    err = capsys.readouterr().err
    assert "김민준" in err and says in err and not_said not in err


@pytest.mark.skipif(not Path("/usr/share/fonts/truetype/droid").is_dir(),
                    reason="needs fonts-droid-fallback")
def test_a_real_cjk_font_in_a_macs_user_folder_prints_a_chinese_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    droid = Path("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf")
    monkeypatch.setattr(sys, "platform", "darwin")
    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / "Library" / "Fonts").mkdir(parents=True)
    shutil.copy(droid, tmp_path / "Library" / "Fonts" / "Arial Unicode.ttf")
    pdf = Sheets(PAPERS["a4"], "t")
    assert pdf.cover_text(["李小龙"]) == ""
