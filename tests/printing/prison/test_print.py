"""``companion print``: what goes on the sheets, refusals, the stored address, printables/."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli.main import main
from companion.printing.common.layout import (
    MARGIN,
    PAPERS,
    Sheets,
    cjk_font,
    paper_named,
    qr_matrix,
)
from companion.printing.prison.cards import CARD_HEIGHT, card_slot
from companion.printing.prison.document import (
    REPO_PRINTABLES,
    check_public_url,
    generic_name,
    print_generic,
    print_session,
)
from companion.printing.prison.tokens import token_counts
from companion.printing.prison.tracker import day_boxes
from companion.printing.prison.warden_screen import add_warden_screen
from companion.rules.prison.scenario import with_overrides
from companion.session.create import open_session
from companion.session.links import address_changed, printed_base
from companion.session.prison.create import create_prison_session
from companion.session.prison.scenarios import load_scenario
from tests.conftest import ROSTER

PRISONERS = ROSTER


def make(data: Path, name: str = "night", prisoners: list[str] | None = None) -> None:
    roster = prisoners or PRISONERS
    overrides = {"min_prisoners": len(roster), "max_prisoners": len(roster)}
    create_prison_session(data, name, "classic", "Wendy", roster,
                          rules_overrides=overrides).close()


def test_token_counts_follow_the_scenario() -> None:
    classic = load_scenario("classic")
    counts = {k.key: k.count for k in token_counts(classic, 4)}
    assert counts == {"work": 4, "parole": 4 * (3 - 1) + 1, "shiv": 4}
    bigger = with_overrides(classic, {"parole_tokens_to_win": 4, "shivs_per_prisoner": 2}, "t")
    counts = {k.key: k.count for k in token_counts(bigger, 12)}
    assert counts == {"work": 12, "parole": 12 * 3 + 1, "shiv": 24}


def test_day_boxes_use_the_time_limit_when_there_is_one() -> None:
    classic = load_scenario("classic")
    assert day_boxes(with_overrides(classic, {"max_days": 9}, "t")) == 9
    assert day_boxes(classic) >= classic.nights_to_escape


def test_cards_fit_inside_the_margins_on_both_papers() -> None:
    for paper in PAPERS.values():
        for index in range(8):
            _, x, y, w, h = card_slot(paper, index)
            assert x >= MARGIN and y >= MARGIN and h == CARD_HEIGHT
            assert x + w <= paper.width - MARGIN + 1e-9
            assert y + h <= paper.height - MARGIN - 4  # the note under the cards
    assert MARGIN >= 10


def test_qr_matrix_is_square_without_quiet_zone() -> None:
    matrix = qr_matrix("http://192.168.1.20:8765/p/" + "x" * 24)
    assert len(matrix) == len(matrix[0]) >= 21
    assert all(matrix[0][:7]) and all(matrix[6][:7])  # a finder pattern in the corner


def test_session_pdf_is_vector_only_and_remembers_the_address(
    tmp_path: Path, _isolated_data_dir: Path
) -> None:
    make(_isolated_data_dir)
    session = open_session(_isolated_data_dir, "night")
    try:
        out = print_session(session, "letter", tmp_path / "x.pdf", "http://10.0.0.5:8765/")
        assert printed_base(session) == "http://10.0.0.5:8765"
        assert not address_changed(session)
    finally:
        session.close()
    data = out.read_bytes()
    assert data.startswith(b"%PDF") and b"/Subtype /Image" not in data
    assert b"DejaVu" in data  # the shipped font is embedded, not a built-in one


def test_default_address_is_the_sessions_own_then_the_lan(
    tmp_path: Path, _isolated_data_dir: Path
) -> None:
    make(_isolated_data_dir)
    session = open_session(_isolated_data_dir, "night")
    try:
        print_session(session, "a4", tmp_path / "a.pdf")
        lan = printed_base(session)
        assert lan is not None and lan.startswith("http://") and lan.endswith(":8765")
        session.set("public_url", "https://game.example:9000")
        print_session(session, "a4", tmp_path / "b.pdf")
        assert printed_base(session) == "https://game.example:9000"
    finally:
        session.close()


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["print", "night", "--paper", "a3"], "'a3' is not a paper size"),
        (["print", "nobody"], "There is no session called 'nobody'"),
        (["print", "night", "--public-url", "ftp:/x"], "not a usable public address"),
        (["print"], "Name the session to print"),
        (["print", "night", "--generic"], "--generic prints no session"),
        (["print", "night", "--lang", "tlh"],
         "'tlh' is not a language companion speaks; use one of en, de, es, fr."),
    ],
)
def test_bad_input_gets_one_sentence_and_writes_nothing(
    tmp_path: Path,
    _isolated_data_dir: Path,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    words: str,
) -> None:
    make(_isolated_data_dir)
    out = tmp_path / "out.pdf"
    assert main(["--data-dir", str(_isolated_data_dir), *argv, "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and len(err.splitlines()) == 1 and "Traceback" not in err
    assert not out.exists()
    session = open_session(_isolated_data_dir, "night")
    try:
        assert printed_base(session) is None
    finally:
        session.close()


def test_paper_names_are_checked() -> None:
    assert paper_named("Letter").name == "letter"
    with pytest.raises(Exception, match="use a4 or letter"):
        paper_named("tabloid")
    assert check_public_url("http://h:1/") == "http://h:1"


def test_unwritable_output_is_one_sentence(tmp_path: Path, _isolated_data_dir: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    make(_isolated_data_dir)
    assert main(["--data-dir", str(_isolated_data_dir), "print", "night", "--out",
                 str(tmp_path)]) == 2
    assert "is a folder" in capsys.readouterr().err


def test_cli_prints_where_the_file_went(
    tmp_path: Path, _isolated_data_dir: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    make(_isolated_data_dir)
    monkeypatch.chdir(tmp_path)
    assert main(["--data-dir", str(_isolated_data_dir), "print", "night", "--paper", "letter",
                 "--public-url", "http://10.1.1.1:8765"]) == 0
    assert (tmp_path / "night-letter.pdf").is_file()
    assert "night-letter.pdf" in capsys.readouterr().out


PDF_OBJECT = re.compile(rb"(\d+) 0 obj\n(.*?)\nendobj", re.S)


def laid_out(pdf: bytes) -> list[tuple[bytes, bytes]]:
    """A PDF's objects as this code decides them (pages, text, fonts and the glyphs each uses,
    their widths), with each embedded font program (a stream with a /Length1) by its place
    only: that is fontTools' subset of DejaVu Sans, whose bytes change with fontTools' releases
    (the file's ID and offsets follow them)."""
    return [
        (number, b"a font program" if b"/Length1 " in body.split(b"stream", 1)[0] else body)
        for number, body in PDF_OBJECT.findall(pdf)
    ]


def test_generic_sheets_are_reproducible_and_committed_ones_are_current(tmp_path: Path) -> None:
    first = print_generic(tmp_path / "one")
    second = print_generic(tmp_path / "two")
    assert [p.name for p in first] == [generic_name("classic", PAPERS[p]) for p in PAPERS]
    for a, b in zip(first, second, strict=True):
        assert a.read_bytes() == b.read_bytes()
        committed = REPO_PRINTABLES / a.name
        assert committed.is_file(), f"{committed} is missing; run: companion print --generic"
        made = laid_out(a.read_bytes())
        assert len(made) > 20 and sum(body == b"a font program" for _, body in made) == 2
        assert laid_out(committed.read_bytes()) == made, (
            f"{committed} is out of date; run: companion print --generic"
        )


def test_generic_one_paper_only(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["print", "--generic", "--paper", "letter", "--out", str(tmp_path)]) == 0
    assert [p.name for p in tmp_path.iterdir()] == ["classic-sheets-letter.pdf"]


def test_names_in_any_script_find_a_font() -> None:
    pdf = Sheets(PAPERS["a4"], "t")
    assert pdf.cover_text(["Łukasz", "Zoë", "Ольга"]) == ""  # DejaVu alone
    if cjk_font() is None:
        pytest.skip("no CJK font installed (fonts-droid-fallback)")
    assert pdf.cover_text(["李小龙"]) == ""


@pytest.mark.skipif(not shutil.which("pdftotext"), reason="needs poppler-utils")
def test_non_latin_names_come_out_as_text(tmp_path: Path, _isolated_data_dir: Path) -> None:
    names = ["Łukasz", "Zoë", "李小龙", "Ada"]
    text = _printed_text(_isolated_data_dir, tmp_path, names)
    for name in names:
        assert text.count(name) >= 2, name  # on the card and on the warden's tally


def test_printing_imports_no_other_face() -> None:
    code = (
        "import sys, companion.printing.prison.document, companion.cli.print\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('textual', 'aiohttp')\n"
        "       or m.startswith(('companion.web', 'companion.tui', 'companion.sim'))]\n"
        "print(bad)\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert run.stdout.strip() == "[]"


def _pdf_text(path: Path) -> str:
    return subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True,
                          check=True).stdout


def _printed_text(data: Path, tmp_path: Path, names: list[str]) -> str:
    """The text of a session printed for ``names`` (A4), as pdftotext reads it."""
    make(data, prisoners=names)
    session = open_session(data, "night")
    try:
        out = print_session(session, "a4", tmp_path / "x.pdf", "http://10.0.0.5:8765")
    finally:
        session.close()
    return _pdf_text(out)


@pytest.mark.skipif(not shutil.which("pdftotext"), reason="needs poppler-utils")
def test_right_to_left_names_print_in_reading_order(tmp_path: Path,
                                                     _isolated_data_dir: Path) -> None:
    # Unshaped, fpdf2 lays Arabic and Hebrew letters out left to right and unjoined: the
    # page then reads the name backwards.
    names = ["محمد", "שרה", "Ada", "Ben"]
    text = _printed_text(_isolated_data_dir, tmp_path, names)
    for name in names:
        assert text.count(name) >= 2, name  # on the card and on the warden's tally


@pytest.mark.skipif(not shutil.which("pdftotext"), reason="needs poppler-utils")
def test_a_name_no_font_has_gets_a_line_to_write_it_on(
    tmp_path: Path, _isolated_data_dir: Path, monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # No CJK font installed: a line to write the name on, not an empty space where it goes.
    monkeypatch.setattr("companion.printing.common.layout.CJK_FALLBACKS", ())
    make(_isolated_data_dir, prisoners=["김민준", "Ada 🙂", "Ben", "Cy"])
    assert main(["print", "night", "--out", str(tmp_path / "x.pdf"),
                 "--public-url", "http://10.0.0.5:8765"]) == 0
    err = capsys.readouterr().err
    assert "김민준" in err and "fonts-noto-cjk" in err and "by hand" in err
    text = _pdf_text(tmp_path / "x.pdf")
    assert text.count("(write the name here)") == 1
    # A symbol no font has is left out: the rest of the name still prints.
    assert text.count("Ada") >= 2  # on the card and on the warden's tally


def test_printable_names_leave_out_only_symbols(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("companion.printing.common.layout.CJK_FALLBACKS", ())
    pdf = Sheets(PAPERS["a4"], "t")
    assert pdf.cover_text(["Ada 🙂", "김민준", "Bo"]) == "김민준🙂"
    assert pdf.printable("Ada 🙂") == "Ada"
    assert pdf.printable("🙂 Ada 🙂 Lee") == "Ada Lee"
    assert pdf.printable("김민준") == "" and pdf.printable("Bo 김") == ""
    assert pdf.printable("Bo") == "Bo"


def test_several_fallback_fonts_cover_what_the_first_lacks(monkeypatch: pytest.MonkeyPatch,
                                                            tmp_path: Path) -> None:
    # Droid Sans Fallback has Chinese but no Korean: a second font must be used for Hangul.
    from fontTools.ttLib import TTFont

    fonts = Path(__file__).resolve().parents[3] / "companion" / "printing" / "common" / "fonts"
    first, second = tmp_path / "first.ttf", tmp_path / "second.ttf"
    shutil.copy(fonts / "DejaVuSans.ttf", first)
    shutil.copy(fonts / "DejaVuSans.ttf", second)
    for path, char in ((first, "李"), (second, "김")):  # each font gets one glyph of its own
        font = TTFont(path)
        for table in font["cmap"].tables:
            if table.isUnicode():
                table.cmap[ord(char)] = table.cmap[ord("A")]
        font.save(path)
    monkeypatch.setattr("companion.printing.common.layout.CJK_FALLBACKS", (first, second))
    pdf = Sheets(PAPERS["a4"], "t")
    assert pdf.cover_text(["李", "김", "ㅎ"]) == "ㅎ"
    assert pdf.can_print("李김") and not pdf.can_print("ㅎ")


def test_search_wording_fits_the_number_of_cells() -> None:
    from companion.printing.prison.rules_card import day_lines
    from companion.printing.prison.warden_screen import day_steps

    classic = load_scenario("classic")
    two = with_overrides(classic, {"searches_per_day": 2}, "test")
    for rules, words in ((classic, "one prisoner's cell"),
                         (two, "the cells of 2 different prisoners")):
        assert words in dict(day_lines(rules))["Search"]
        assert words in dict(day_steps(rules))["Search"]


def test_cards_on_a_guessed_address_come_with_a_warning(
    tmp_path: Path, _isolated_data_dir: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Printed at home on the laptop's address there, the codes do not open at the venue.
    monkeypatch.setattr("companion.printing.prison.document.lan_address", lambda: "10.9.9.9")
    make(_isolated_data_dir)
    out = str(tmp_path / "x.pdf")
    assert main(["--data-dir", str(_isolated_data_dir), "print", "night", "--out", out]) == 0
    said = capsys.readouterr().out
    assert "links on http://10.9.9.9:8765" in said
    assert "--public-url" in said and "network it is on now" in said
    assert main(["--data-dir", str(_isolated_data_dir), "print", "night", "--out", out,
                 "--public-url", "http://laptop.local:8765"]) == 0
    said = capsys.readouterr().out
    assert "links on http://laptop.local:8765" in said and "--public-url" not in said


def _written(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, float]]:
    """(text, size in points) of every line the sheets write with write_at."""
    seen: list[tuple[str, float]] = []
    original = Sheets.write_at

    def write_at(self: Sheets, x: float, y: float, w: float, text: str, size: float,
                 **kw: object) -> float:
        height = original(self, x, y, w, text, size, **kw)  # type: ignore[arg-type]
        seen.append((text, self.font_size_pt))
        return height

    monkeypatch.setattr(Sheets, "write_at", write_at)
    return seen


def test_the_warden_screen_headlines_what_decides_the_game(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Not "The parole limit" with a huge 1 (tokens a day) and the 3 that paroles a
    # prisoner in small print.
    seen = _written(monkeypatch)
    pdf = Sheets(paper_named("a4"), "t")
    add_warden_screen(pdf, load_scenario("classic"), list(PRISONERS))
    biggest = max(seen, key=lambda item: item[1])
    assert biggest[0] == "3"
    assert ("parole tokens parole a prisoner", 12.0) in seen


def test_a_long_name_on_the_warden_screen_stays_readable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Not "Maximilian von Habsburg-Lothringen…" shrunk to about 6 pt to fit one line.
    long = "Maximilian Alexander von Habsburg-Lothr"
    seen = _written(monkeypatch)
    pdf = Sheets(paper_named("a4"), "t")
    roster = [long, *PRISONERS, *(f"Player {n}" for n in range(1, 8))]
    add_warden_screen(pdf, load_scenario("classic"), roster)
    parts = [(text, size) for text, size in seen if text and text in long]
    assert "".join(text for text, _ in parts).replace(" ", "") == long.replace(" ", "")
    assert all(size >= 9 for _, size in parts), parts
    tallied = {text for text, _ in seen}
    assert all(name in tallied for name in roster[1:])
