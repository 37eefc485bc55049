"""The dilemma's room poster: one A4 page with the room's address, the sentences and a QR code
that scans to the room's link."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from companion.errors import UserError
from companion.printing.dilemma.poster import write_poster

URL = "http://192.168.1.20:8765/join-room"
SENTENCES = {"both_silent": 1, "both_betray": 2, "betrayer": 0, "betrayed": 3}


def _text(path: Path) -> str:
    return subprocess.run(
        ["pdftotext", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout


@pytest.mark.skipif(
    not all(shutil.which(tool) for tool in ("pdftoppm", "pdftotext", "zbarimg", "pdfinfo")),
    reason="needs poppler-utils and zbar-tools",
)
def test_the_poster_is_one_page_that_scans_to_the_room(tmp_path: Path) -> None:
    path = write_poster(tmp_path / "room.pdf", URL, SENTENCES)
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True)
    fields = dict(line.split(":", 1) for line in info.stdout.splitlines() if ":" in line)
    assert fields["Pages"].strip() == "1" and "(A4)" in fields["Page size"]
    text = " ".join(_text(path).split())
    assert URL in text and "The prisoner's dilemma" in text
    assert "Both silent: 1 month each. Both betray: 2 months each." in text
    assert "you serve 0 months while they serve 3 months." in text
    subprocess.run(["pdftoppm", "-png", "-r", "100", "-singlefile", str(path),
                    str(tmp_path / "page")], check=True)
    scanned = subprocess.run(
        ["zbarimg", "-q", "--raw", "-Sdisable", "-Sqrcode.enable", str(tmp_path / "page.png")],
        capture_output=True, text=True,
    ).stdout.split()
    assert scanned == [URL]


def test_a_poster_that_cannot_be_written_is_one_sentence(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="The poster cannot be written to"):
        write_poster(tmp_path / "missing" / "room.pdf", URL, SENTENCES)


@pytest.mark.skipif(
    not all(shutil.which(tool) for tool in ("pdftoppm", "pdftotext", "zbarimg")),
    reason="needs poppler-utils and zbar-tools",
)
def test_the_poster_has_the_wifi_code_beside_the_room_code(tmp_path: Path) -> None:
    from companion.session.wifi import Wifi

    wifi = Wifi("Hall: 2", "s,e;c")
    path = write_poster(tmp_path / "room.pdf", URL, SENTENCES, wifi=wifi)
    text = " ".join(_text(path).split())
    assert "1. Join the Wi-Fi" in text and "Hall: 2" in text and "Password: s,e;c" in text
    subprocess.run(["pdftoppm", "-png", "-r", "100", "-singlefile", str(path),
                    str(tmp_path / "page")], check=True)
    scanned = subprocess.run(
        ["zbarimg", "-q", "--raw", "-Sdisable", "-Sqrcode.enable", str(tmp_path / "page.png")],
        capture_output=True, text=True,
    ).stdout.split("\n")
    assert sorted(line for line in scanned if line) == sorted(
        [URL, "WIFI:T:WPA;S:Hall\\: 2;P:s\\,e\\;c;;"]
    )
