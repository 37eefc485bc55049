"""The printable So Long Sucker rules summary: one page, both papers, every rule on it."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from companion.errors import UserError
from companion.printing.sucker.card import rules_card_pdf, write_rules_card


@pytest.mark.parametrize(("paper", "size"), [("a4", "(A4)"), ("letter", "612 x 792 pts")])
def test_the_card_is_one_page_of_the_right_paper_with_the_rules(
    tmp_path: Path, paper: str, size: str
) -> None:
    path = write_rules_card(tmp_path / f"{paper}.pdf", paper)
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True)
    fields = dict(line.split(":", 1) for line in info.stdout.splitlines() if ":" in line)
    assert fields["Pages"].strip() == "1"
    assert size in fields["Page size"]
    text = subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    for words in ("Who moves next?", "same color", "topmost chip lies", "rebounds",
                  "defeat can cascade", "Rescue round", "One live player left"):
        assert words in text, words


def test_the_same_card_gives_the_same_bytes() -> None:
    assert rules_card_pdf("a4") == rules_card_pdf("a4")
    assert rules_card_pdf("a4") != rules_card_pdf("letter")


def test_an_unwritable_path_is_one_sentence(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="cannot be written"):
        write_rules_card(tmp_path / "missing" / "card.pdf")


def test_the_command_writes_the_card(tmp_path: Path) -> None:
    out = tmp_path / "rules.pdf"
    run = subprocess.run(
        [sys.executable, "-m", "companion", "sucker-rules", "--paper", "letter", "--out", str(out)],
        capture_output=True, text=True, check=False,
    )
    assert run.returncode == 0, run.stderr
    assert out.read_bytes().startswith(b"%PDF") and "Letter" in run.stdout


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_card_letters_its_chips_as_the_referee_does(tmp_path: Path, lang: str) -> None:
    from companion.language import language
    from companion.rules.sucker.views import LETTERING, color_keys

    _ = language(lang)
    path = write_rules_card(tmp_path / "card.pdf", "a4", _)
    text, laid_out = (
        subprocess.run(["pdftotext", *how, str(path), "-"], capture_output=True, text=True,
                       check=True).stdout
        for how in ([], ["-layout"])
    )
    flat = " ".join(text.replace("\u00a0", " ").split())
    rule = " ".join(_(LETTERING).replace("\u00a0", " ").split())
    assert rule in flat, rule
    assert re.search(r"black ?: K", rule)
    # The example pile, bottom to top, in the letters the referee's screen shows and types.
    keys = color_keys(["red", "blue", "green", "yellow"])
    pile = r"\s+".join(keys[c] for c in ("red", "blue", "green", "yellow", "red"))
    assert re.search(r"(?m)^\s*" + pile + r"\s", laid_out), pile
