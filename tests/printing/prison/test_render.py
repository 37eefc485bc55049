"""Printed sessions, rendered as a printer would (poppler) and scanned as a phone would (zbar).

Every seat's link from ``companion links NAME --json`` must be found exactly once in the whole
PDF, and on the card that carries that seat's name; nothing may be drawn in the 10 mm margins.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from companion.cli.main import main
from companion.printing.common.layout import PAPERS, cjk_font
from companion.printing.prison.cards import card_slot
from companion.session.prison.create import create_prison_session
from tests.conftest import demo_session

pytestmark = pytest.mark.skipif(
    not all(shutil.which(tool) for tool in ("pdftoppm", "pdftotext", "zbarimg", "pdfinfo")),
    reason="needs poppler-utils and zbar-tools (scripts/system-deps.sh)",
)

URL = "http://192.168.7.20:8765"
DPI = 150
MM = DPI / 25.4
INTERNATIONAL = ["Łukasz", "Zoë", "李小龙", "Ada"]
TWELVE = [
    "Ada", "Ben", "Cy", "Dee", "Łukasz", "Zoë", "李", "Ngozi", "Søren", "Ægir", "Ольга",
    "Bartholomew-Maximilian Featherstonehaugh",
]


def links_json(capsys: pytest.CaptureFixture[str], data: Path, name: str) -> list[dict[str, str]]:
    capsys.readouterr()
    assert main(["--data-dir", str(data), "links", name, "--json", "--public-url", URL]) == 0
    seats: list[dict[str, str]] = json.loads(capsys.readouterr().out)["seats"]
    return seats


def decode(png: Path) -> list[str]:
    run = subprocess.run(
        ["zbarimg", "-q", "--raw", "-Sdisable", "-Sqrcode.enable", str(png)],
        capture_output=True, text=True, check=False,
    )
    return [line for line in run.stdout.splitlines() if line]


def page_count(pdf: Path) -> int:
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True)
    line = next(x for x in info.stdout.splitlines() if x.startswith("Pages:"))
    return int(line.split()[1])


def crop_args(x: float, y: float, w: float, h: float) -> list[str]:
    return ["-x", str(int(x * MM)), "-y", str(int(y * MM)), "-W", str(int(w * MM)),
            "-H", str(int(h * MM))]


def dark_in_margins(pgm: Path, margin_mm: float) -> int:
    """How many dark pixels a grey PGM page has within ``margin_mm`` of its edges."""
    data = pgm.read_bytes()
    fields = data.split(maxsplit=4)
    assert fields[0] == b"P5"
    width, height = int(fields[1]), int(fields[2])
    pixels = fields[4][: width * height] if len(fields[4]) >= width * height else fields[4]
    edge = int(margin_mm * 50 / 25.4)
    dark = 0
    for row in range(height):
        line = pixels[row * width : (row + 1) * width]
        if row < edge or row >= height - edge:
            dark += sum(1 for p in line if p < 128)
        else:
            dark += sum(1 for p in line[:edge] if p < 128)
            dark += sum(1 for p in line[width - edge :] if p < 128)
    return dark


CASES = [("a4", TWELVE), ("letter", TWELVE), ("letter", INTERNATIONAL)]


@pytest.mark.slow  # every card rendered and scanned
@pytest.mark.parametrize(("paper", "prisoners"), CASES, ids=["a4-12", "letter-12", "letter-intl"])
def test_every_link_is_on_its_own_card(
    tmp_path: Path,
    _isolated_data_dir: Path,
    capsys: pytest.CaptureFixture[str],
    paper: str,
    prisoners: list[str],
) -> None:
    if cjk_font() is None and any("\u4e00" <= c <= "\u9fff" for n in prisoners for c in n):
        pytest.skip("no CJK font installed (fonts-droid-fallback, see scripts/system-deps.sh)")
    data = _isolated_data_dir
    overrides = {"min_prisoners": len(prisoners), "max_prisoners": len(prisoners)}
    create_prison_session(data, "night", "classic", "Wärden", prisoners,
                          rules_overrides=overrides).close()
    pdf = tmp_path / "night.pdf"
    args = ["--data-dir", str(data), "print", "night", "--paper", paper, "--out", str(pdf),
            "--public-url", URL]
    assert main(args) == 0
    seats = links_json(capsys, data, "night")
    assert len(seats) == len(prisoners) + 1

    # The whole document: every page rendered and scanned; no code carries a link that is not a
    # seat's, and none appears twice. (zbar, scanning a whole page of four codes at once, now and
    # then overlooks one of them, though it reads each alone; a phone sees one card at a time, so
    # that each link is found is checked card by card below.)
    pages = page_count(pdf)
    subprocess.run(["pdftoppm", "-png", "-r", str(DPI), str(pdf), str(tmp_path / "page")],
                   check=True)
    found: list[str] = []
    for png in sorted(tmp_path.glob("page-*.png")):
        found += decode(png)
    assert len(list(tmp_path.glob("page-*.png"))) == pages
    urls = {s["url"] for s in seats}
    assert found, "no code found anywhere in the document"
    assert set(found) <= urls, set(found) - urls
    assert len(found) == len(set(found)), sorted(found)

    # Each card alone: its one code is its seat's link, and its text carries the seat's name.
    sheet = PAPERS[paper]
    for index, seat in enumerate(seats):
        page, x, y, w, h = card_slot(sheet, index)
        number = str(page + 1)
        stem = tmp_path / f"card{index}"
        crop = crop_args(x, y, w, h)
        subprocess.run(["pdftoppm", "-png", "-r", str(DPI), "-f", number, "-l", number,
                        "-singlefile", *crop, str(pdf), str(stem)], check=True)
        assert decode(stem.with_suffix(".png")) == [seat["url"]], seat["name"]
        text = subprocess.run(
            ["pdftotext", "-r", str(DPI), "-f", number, "-l", number, *crop, str(pdf), "-"],
            capture_output=True, text=True, check=True,
        ).stdout
        assert seat["name"] in text, (seat["name"], text)

    # Nothing is drawn in the printers' margins (10 mm) on any page.
    subprocess.run(["pdftoppm", "-gray", "-r", "50", str(pdf), str(tmp_path / "grey")],
                   check=True)
    for pgm in sorted(tmp_path.glob("grey-*.pgm")):
        assert dark_in_margins(pgm, 10) == 0, pgm.name


def test_the_folded_flap_hides_the_code_and_the_seat_code(
    tmp_path: Path, _isolated_data_dir: Path
) -> None:
    # Folded up, the flap's printed side lies on the secret part; seen through one sheet of
    # office paper, the two darken each other. Without a tint on the flap the seat code (bold,
    # 11 pt) reads through it, and anyone who reads it can take the seat.
    from PIL import Image, ImageChops

    from companion.printing.prison.cards import HEADER, QR_SIZE, QR_TOP, SEAT_CODE_TOP, SECRET

    demo_session(_isolated_data_dir, "night").close()
    pdf = tmp_path / "night.pdf"
    assert main(["--data-dir", str(_isolated_data_dir), "print", "night", "--out", str(pdf),
                 "--public-url", URL]) == 0
    _, x, y, w, _ = card_slot(PAPERS["a4"], 1)
    stem = tmp_path / "card"
    subprocess.run(["pdftoppm", "-gray", "-png", "-r", str(DPI), "-f", "1", "-l", "1",
                    "-singlefile", *crop_args(x, y, w, HEADER + 2 * SECRET), str(pdf),
                    str(stem)], check=True)
    card = Image.open(stem.with_suffix(".png")).convert("L")
    top, fold = round(HEADER * MM), round((HEADER + SECRET) * MM)
    secret = card.crop((0, top, card.width, fold))
    flap = card.crop((0, fold, card.width, fold + (fold - top)))
    folded = ImageChops.darker(secret, flap.transpose(Image.Transpose.FLIP_TOP_BOTTOM))
    assert decode(stem.with_suffix(".png")), "the open card has a code to scan"
    folded.save(tmp_path / "folded.png")
    assert decode(tmp_path / "folded.png") == []

    # Over the QR code and the seat code, every 2 mm square of the folded flap is mostly dark.
    cell = round(2 * MM)
    left = round((w - QR_SIZE) / 2 * MM)
    regions = [(left, QR_TOP, left + round(QR_SIZE * MM), QR_TOP + QR_SIZE),
               (round(8 * MM), SEAT_CODE_TOP + 1, round((w - 8) * MM), SEAT_CODE_TOP + 4)]
    mirrored = flap.transpose(Image.Transpose.FLIP_TOP_BOTTOM)
    for x0, y0, x1, y1 in regions:
        for cx in range(x0, x1 - cell + 1, cell):
            for cy in range(round(y0 * MM), round(y1 * MM) - cell + 1, cell):
                square = mirrored.crop((cx, cy, cx + cell, cy + cell))
                dark = sum(square.histogram()[:128]) / (cell * cell)
                assert dark > 0.3, (cx / MM, cy / MM, dark)
