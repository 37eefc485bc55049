"""Every printed page in every language: nothing English left under the pseudo-locale (the
text read back from the PDF with pdftotext), and in German, the longest of the shipped
languages, no text outside its box or the page's margins."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from companion.language import Language, language
from companion.printing.common.layout import MARGIN, PAPERS, Sheets
from companion.printing.dilemma.poster import write_poster
from companion.printing.prison import document
from companion.printing.prison.document import generic_document, print_session
from companion.printing.sucker.card import write_rules_card
from companion.session.create import open_session
from companion.session.prison.create import create_prison_session
from companion.session.prison.scenarios import load_scenario
from companion.session.prison.seats import seats_of
from tests import pseudo_locale

pytestmark = pytest.mark.skipif(
    not shutil.which("pdftotext"), reason="needs pdftotext (poppler-utils)"
)
URL = "http://192.0.2.7:8765"
ROOM = f"{URL}/join-room"
SENTENCES = {"both_silent": 1, "both_betray": 2, "betrayer": 0, "betrayed": 3}
# A group with long names, and more prisoners than one page of the warden's tally holds.
BIG = ["Maximiliane Oberhauser-Wittgenstein", "Ben", "Cy", "Dee", "Eve", "Flo", "Gus",
       "Hal", "Ivy", "Jo", "Kai", "Lu"]


def text_of(pdf: Path) -> str:
    return subprocess.run(
        ["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout


def session_pdf(data: Path, out: Path, prisoners: list[str], lang: str, paper: str) -> Path:
    rules = "classic" if len(prisoners) == 4 else "balanced-12"
    create_prison_session(data, "night", rules, "Wendy", prisoners).close()
    session = open_session(data, "night")
    try:
        return print_session(session, paper, out, URL, lang)
    finally:
        session.close()


def dynamic(data: Path) -> list[str]:
    """What a session's sheets print that is not a message: names, links, seat codes."""
    session = open_session(data, "night")
    try:
        seats = seats_of(session)
    finally:
        session.close()
    codes = [c for s in seats for c in (s.code, s.code[:4], s.code[4:])]
    parts = [part for name in BIG for part in re.split(r"[ -]", name)]  # a long name's lines
    return ["night", "classic", "balanced-12", "a4", "letter", "Wendy", *BIG, *parts,
            "Ada", *codes, URL]


@pytest.mark.parametrize("prisoners", [["Ada", "Ben", "Cy", "Dee"], BIG], ids=["4", "12"])
def test_every_session_sheet_goes_through_the_catalog(
    tmp_path: Path, qps: Language, prisoners: list[str]
) -> None:
    """Every sheet, with the continued pages a big group needs (the warden's tally, tokens)."""
    pdf = session_pdf(tmp_path, tmp_path / "qps.pdf", prisoners, "qps", "a4")
    text = re.sub(r"http://\S+", " ", text_of(pdf))
    text = re.sub(r"\b[A-Z2-9]{12,}\b", " ", text)  # the flap's security tint
    assert pseudo_locale.leftovers(text, dynamic(tmp_path)) == []
    assert "[!!" in text and "!!]" in text


def test_the_generic_sheets_go_through_the_catalog(tmp_path: Path, qps: Language) -> None:
    pdf = generic_document(load_scenario("classic"), "classic", PAPERS["a4"], 4, qps)
    (tmp_path / "g.pdf").write_bytes(bytes(pdf.output()))
    assert pseudo_locale.leftovers(text_of(tmp_path / "g.pdf"), ["classic", "a4"]) == []


def test_the_poster_and_the_sucker_card_go_through_the_catalog(
    tmp_path: Path, qps: Language
) -> None:
    poster = write_poster(tmp_path / "poster.pdf", ROOM, SENTENCES, qps)  # type: ignore[arg-type]
    text = text_of(poster).replace(ROOM, " ")
    assert pseudo_locale.leftovers(text, ["http", "join", "room"]) == []
    card = write_rules_card(tmp_path / "sucker.pdf", "a4", qps)
    # The inventors' names and the command to type stay as they are in every language.
    kept = ["Hausner", "Nash", "Shapley", "Shubik", "companion", "sucker", "NAME"]
    assert pseudo_locale.leftovers(text_of(card), kept) == []


def test_the_check_finds_english_left_over(tmp_path: Path, qps: Language) -> None:
    """The same check on an English sheet: it fails, so the ones above could."""
    pdf = generic_document(load_scenario("classic"), "classic", PAPERS["a4"], 4, language())
    (tmp_path / "en.pdf").write_bytes(bytes(pdf.output()))
    assert "Planning" in pseudo_locale.leftovers(text_of(tmp_path / "en.pdf"), [])


def outside_the_margins(pdf: Path) -> list[str]:
    """Words that pdftotext places outside a page's margins (less a millimetre's grace)."""
    html = subprocess.run(
        ["pdftotext", "-bbox", str(pdf), "-"], capture_output=True, text=True, check=True
    ).stdout
    grace = (MARGIN - 1) * 72 / 25.4
    bad = []
    for page in re.finditer(r'<page width="([\d.]+)" height="([\d.]+)">(.*?)</page>', html,
                            re.S):
        width, height = float(page.group(1)), float(page.group(2))
        for word in re.finditer(
            r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)',
            page.group(3),
        ):
            x0, y0, x1, y1 = (float(word.group(i)) for i in range(1, 5))
            if re.fullmatch(r"[A-Z2-9]{12,}", word.group(5)):
                continue  # the flap's security tint, clipped to the flap
            if x0 < grace - 8 or x1 > width - grace + 8 or y0 < grace - 8 or y1 > height - 6:
                bad.append(word.group(5))
    return bad


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("prisoners", [["Ada", "Ben", "Cy", "Dee"], BIG], ids=["4", "12"])
def test_every_sheet_in_german_keeps_its_text_inside_its_boxes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, paper: str, prisoners: list[str]
) -> None:
    written: list[Sheets] = []
    write = document._write

    def keep(pdf: Sheets, path: Path) -> Path:
        written.append(pdf)
        return write(pdf, path)

    monkeypatch.setattr(document, "_write", keep)
    pdf = session_pdf(tmp_path, tmp_path / "de.pdf", prisoners, "de", paper)
    assert written[0].overflows == []
    assert outside_the_margins(pdf) == []
    generic = generic_document(load_scenario("classic"), "classic", PAPERS[paper], 4,
                               language("de"))
    assert generic.overflows == []


def test_the_german_poster_and_sucker_card_stay_on_their_page(tmp_path: Path) -> None:
    de = language("de")
    poster = write_poster(tmp_path / "poster.pdf", ROOM, SENTENCES, de)  # type: ignore[arg-type]
    assert outside_the_margins(poster) == []
    for paper in ("a4", "letter"):  # the card raises when a box or the page overflows
        assert outside_the_margins(write_rules_card(tmp_path / f"{paper}.pdf", paper, de)) == []


def test_the_overflow_check_can_fail() -> None:
    pdf = Sheets(PAPERS["a4"], "t")
    pdf.add_page()
    pdf.write_at(MARGIN, MARGIN, 10, "Bewährungsmarkenausgabestelle", 12)
    assert pdf.overflows == [(1, "Bewährungsmarkenausgabestelle")]


def test_print_follows_the_sessions_language_unless_told(tmp_path: Path) -> None:
    from companion.cli.main import main

    roster = ["Ada", "Ben", "Cy", "Dee"]
    create_prison_session(tmp_path, "abend", "classic", "Wendy", roster).close()
    session = open_session(tmp_path, "abend")
    session.set("lang", "fr")
    session.close()
    data = ["--data-dir", str(tmp_path)]
    assert main([*data, "print", "abend", "--out", str(tmp_path / "fr.pdf")]) == 0
    assert "Le dilemme du prisonnier : fiche de règles" in text_of(tmp_path / "fr.pdf")
    assert main([*data, "print", "abend", "--lang", "es", "--out", str(tmp_path / "es.pdf")]) == 0
    assert "El dilema del prisionero: tarjeta de reglas" in text_of(tmp_path / "es.pdf")
