"""The "join the Wi-Fi" code on the printed cards: decoded with zbarimg from the PDF to the exact
standard string, beside (not instead of) the seat's code; bad options refused in one sentence."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from companion.cli.main import main
from companion.printing.common.layout import PAPERS
from companion.printing.prison.cards import HEADER, card_slot
from companion.session.create import open_session
from companion.session.wifi import wifi_of
from tests.conftest import demo_session
from tests.printing.prison.test_render import DPI, crop_args, decode

pytestmark = pytest.mark.skipif(
    not all(shutil.which(tool) for tool in ("pdftoppm", "pdftotext", "zbarimg")),
    reason="needs poppler-utils and zbar-tools (scripts/system-deps.sh)",
)

URL = "http://192.168.7.20:8765"
NAME = "Hall; 2nd, floor"
PASSWORD = 'p;a,s:s\\w"rd'
EXPECTED = 'WIFI:T:WPA;S:Hall\\; 2nd\\, floor;P:p\\;a\\,s\\:s\\\\w\\"rd;;'


def _print(data: Path, out: Path, *options: str) -> int:
    return main(["--data-dir", str(data), "print", "night", "--out", str(out),
                 "--public-url", URL, *options])


def test_the_card_has_the_wifi_code_beside_the_seat_code(
    tmp_path: Path, _isolated_data_dir: Path
) -> None:
    data = _isolated_data_dir
    demo_session(data, "night").close()
    pdf = tmp_path / "night.pdf"
    assert _print(data, pdf, "--wifi-name", NAME, "--wifi-password", PASSWORD) == 0
    sheet = PAPERS["a4"]
    _page, x, y, w, _h = card_slot(sheet, 0)
    # The left margin of the card's secret part: the Wi-Fi's code alone.
    stem = tmp_path / "wifi"
    subprocess.run(["pdftoppm", "-png", "-r", str(DPI), "-f", "1", "-l", "1", "-singlefile",
                    *crop_args(x, y + HEADER, w / 3, 32), str(pdf), str(stem)], check=True)
    assert decode(stem.with_suffix(".png")) == [EXPECTED]
    # The whole card: the Wi-Fi's code and the seat's, each once.
    stem = tmp_path / "card"
    subprocess.run(["pdftoppm", "-png", "-r", str(DPI), "-f", "1", "-l", "1", "-singlefile",
                    *crop_args(x, y, w, HEADER + 45), str(pdf), str(stem)], check=True)
    found = decode(stem.with_suffix(".png"))
    assert len(found) == 2 and EXPECTED in found
    seat_link = next(code for code in found if code != EXPECTED)
    assert seat_link.startswith(f"{URL}/p/")
    text = subprocess.run(["pdftotext", "-f", "1", "-l", "1", str(pdf), "-"],
                          capture_output=True, text=True, check=True).stdout
    assert "Join the Wi-Fi" in text and PASSWORD in text
    # Kept in the session: a later print without the options has it; --no-wifi forgets it.
    again = tmp_path / "again.pdf"
    assert _print(data, again) == 0
    subprocess.run(["pdftoppm", "-png", "-r", str(DPI), "-f", "1", "-l", "1", "-singlefile",
                    *crop_args(x, y + HEADER, w / 3, 32), str(again), str(tmp_path / "again")],
                   check=True)
    assert decode(tmp_path / "again.png") == [EXPECTED]
    assert _print(data, again, "--no-wifi") == 0
    session = open_session(data, "night")
    try:
        assert wifi_of(session) is None
    finally:
        session.close()
    text = subprocess.run(["pdftotext", "-f", "1", "-l", "1", str(again), "-"],
                          capture_output=True, text=True, check=True).stdout
    assert "Wi-Fi" not in text and PASSWORD not in text


def test_an_open_network_is_nopass(tmp_path: Path, _isolated_data_dir: Path) -> None:
    data = _isolated_data_dir
    demo_session(data, "night").close()
    pdf = tmp_path / "night.pdf"
    assert _print(data, pdf, "--wifi-name", "Open Hall", "--wifi-open") == 0
    _page, x, y, w, _h = card_slot(PAPERS["a4"], 0)
    subprocess.run(["pdftoppm", "-png", "-r", str(DPI), "-f", "1", "-l", "1", "-singlefile",
                    *crop_args(x, y + HEADER, w / 3, 32), str(pdf), str(tmp_path / "wifi")],
                   check=True)
    assert decode(tmp_path / "wifi.png") == ["WIFI:T:nopass;S:Open Hall;;"]


@pytest.mark.parametrize(
    ("options", "words"),
    [
        (["--wifi-password", "x"], "--wifi-password needs the network's name too"),
        (["--wifi-name", "Hall", "--wifi-open", "--wifi-password", "x"], "leave out one of"),
        (["--wifi-name", "Hall"], "needs its password"),
        (["--no-wifi", "--wifi-name", "Hall"], "--no-wifi forgets the Wi-Fi"),
    ],
)
def test_bad_options_are_one_sentence_and_print_nothing(
    tmp_path: Path, _isolated_data_dir: Path, capsys: pytest.CaptureFixture[str],
    options: list[str], words: str,
) -> None:
    data = _isolated_data_dir
    demo_session(data, "night").close()
    pdf = tmp_path / "night.pdf"
    capsys.readouterr()
    assert _print(data, pdf, *options) == 2
    err = capsys.readouterr().err
    assert words in err and err.count("\n") == 1 and "Traceback" not in err
    assert not pdf.exists()


def test_a_long_network_never_covers_the_seat_code(
    tmp_path: Path, _isolated_data_dir: Path
) -> None:
    """WPA's longest password (63 characters) and a long name: both codes still scan, the
    words that do not fit in small print are left to the code."""
    data = _isolated_data_dir
    demo_session(data, "night").close()
    name, password = "The Grand Hall Guest Network 5G", "x" * 30 + ";" + "y" * 32
    pdf = tmp_path / "night.pdf"
    assert _print(data, pdf, "--wifi-name", name, "--wifi-password", password) == 0
    _page, x, y, w, _h = card_slot(PAPERS["a4"], 0)
    subprocess.run(["pdftoppm", "-png", "-r", str(DPI), "-f", "1", "-l", "1", "-singlefile",
                    *crop_args(x, y, w, HEADER + 45), str(pdf), str(tmp_path / "card")],
                   check=True)
    found = decode(tmp_path / "card.png")
    expected = f"WIFI:T:WPA;S:{name};P:{'x' * 30}\\;{'y' * 32};;"
    assert len(found) == 2 and expected in found
    assert any(code.startswith(f"{URL}/p/") for code in found)
