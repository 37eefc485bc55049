"""The warm-up's Markdown summary (``companion dilemma NAME --export``) in the session's
language: under the pseudo-locale no English is left but names and numbers, through a tournament
with the house player, a late joiner, a player taken out, no answers and the debrief; the
command writes it in the session's language (or ``--lang``'s, for once), its CSV keys neutral."""

from __future__ import annotations

import csv
import html
from pathlib import Path

import pytest

from companion.cli.main import main
from companion.language import Language, language
from companion.rules.dilemma.state import DilemmaState
from companion.rules.dilemma.summary import markdown
from companion.rules.dilemma.views import explanation
from companion.session.session import Session
from tests import pseudo_locale
from tests.dilemma_helpers import scenario

NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo"]  # five at first: the house fills the sixth


def played(folder: Path, *, finished: bool = True, no_answer: str = "silent") -> Session:
    """A tournament of two rounds: Flo joins late, Eve is taken out, some give no answer."""
    rules = scenario(rounds=2, no_answer=no_answer)
    s = Session.create(folder / "hall.sqlite", "dilemma", {"rules": rules})
    for i, name in enumerate(NAMES[:5]):
        s.submit({"do": "join", "pid": f"p{i}", "name": name})
    s.submit({"do": "start_round", "seed": 3})
    pids = {p.name: p.pid for p in s.state.players}
    s.submit({"do": "choose", "pid": pids["Ann"], "choice": "silent"})
    s.submit({"do": "choose", "pid": pids["Bob"], "choice": "betray"})
    s.submit({"do": "join", "pid": "p5", "name": "Flo"})  # during the round: plays from the next
    s.submit({"do": "close_round", "timed_out": True})  # the others gave no answer
    s.submit({"do": "remove", "pid": pids["Eve"]})
    if finished:
        s.submit({"do": "start_round", "seed": 4})
        for pid in s.state.waiting():
            s.submit({"do": "choose", "pid": pid, "choice": "betray"})
        s.submit({"do": "close_round"})
        assert s.state.phase == "over"
    return s


def summary_markdown(session_name: str, state: DilemmaState, lang: Language) -> str:
    """The summary in ``lang``, as ``--export`` writes it."""
    return markdown(session_name, state, lang.say)


def english_in(text: str) -> list[str]:
    return pseudo_locale.leftovers(text, [*NAMES, "hall"])


@pytest.mark.parametrize("no_answer", ["silent", "betray"])
@pytest.mark.parametrize("finished", [True, False])
def test_no_english_is_left_but_names_and_numbers(
    tmp_path: Path, qps: Language, finished: bool, no_answer: str
) -> None:
    session = played(tmp_path, finished=finished, no_answer=no_answer)
    try:
        text = summary_markdown("hall", session.state, qps)
    finally:
        session.close()
    assert english_in(text) == []
    assert text.startswith("# [!! hall: ") and "| Ann | " in text  # names stay as they are
    if finished:
        assert text.count("\n## ") == 4  # leaderboard, silence, debrief, why
    else:
        assert text.count("\n## ") == 2  # leaderboard, silence


def test_the_check_finds_english_left_over(tmp_path: Path) -> None:
    """The same check on the English summary finds words: it can fail."""
    session = played(tmp_path)
    try:
        text = summary_markdown("hall", session.state, language("en"))
    finally:
        session.close()
    assert "Leaderboard" in english_in(text)


def test_the_english_summary_says_what_happened(tmp_path: Path) -> None:
    session = played(tmp_path)
    try:
        text = summary_markdown("hall", session.state, language("en"))
        core = explanation(session.state)  # the rules' own English tally
    finally:
        session.close()
    assert text.startswith("# hall: the two-prisoner dilemma\n\n5 players, 2 of 2 rounds played. "
                           "The tournament is over.\n")
    assert "| # | Name | Months | Silent |\n| --- | --- | --- | --- |\n" in text
    assert "| Eve (left) |" in text
    assert "House (Tit for Tat), the house player: " in text and "It plays Tit for Tat: " in text
    assert "| Round | Silent | Betrayed | No answer | Silent share |" in text
    assert "## Had a famous strategy sat in each seat" in text
    assert (
        "In this tournament: 2 pairs stayed silent together; 2 pairs betrayed each other; in 2 "
        "pairs one betrayed the other. 3 times a player gave no answer and served as silent."
    ) in text
    assert "In this tournament 2 pairs stayed silent together" in core
    assert "2 pairs betrayed each other" in core and "in 2 pairs one betrayed" in core


def test_the_export_is_in_the_sessions_language_or_lang_s(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    session = played(tmp_path)
    session.set("lang", "de")
    session.close()
    out = tmp_path / "out.csv"
    assert main(["--data-dir", str(tmp_path), "dilemma", "hall", "--export", str(out)]) == 0
    summary = (tmp_path / "out.md").read_text(encoding="utf-8")
    assert summary.startswith("# hall: das Gefangenendilemma zu zweit\n")
    assert "## Rangliste" in summary and "Das Turnier ist vorbei." in summary
    with out.open(encoding="utf-8") as handle:
        first = next(csv.DictReader(handle))
    assert list(first) == ["round", "player", "partner", "choice", "months", "house",
                           "partner_house"]  # the columns' keys stay neutral
    assert main(["--data-dir", str(tmp_path), "dilemma", "hall", "--lang", "fr",
                 "--export", str(out)]) == 0
    summary = (tmp_path / "out.md").read_text(encoding="utf-8")
    assert "## Classement" in summary and "Le tournoi est terminé." in summary
    reopened = Session.open(tmp_path / "hall.sqlite")
    try:
        assert reopened.settings["lang"] == "de"  # --lang with --export changes nothing stored
    finally:
        reopened.close()
    capsys.readouterr()


HOSTILE = ["![i](http://x/y.png)", "[x](javascript:alert(1))", "*bold*", "a|b", "<b>B</b>",
           "`tick`", "# Head"]


def test_hostile_names_show_as_typed_in_the_summary_and_the_csv(tmp_path: Path) -> None:
    from markdown_it import MarkdownIt

    s = Session.create(tmp_path / "hall.sqlite", "dilemma", {"rules": scenario(rounds=1)})
    for i, name in enumerate(HOSTILE):
        s.submit({"do": "join", "pid": f"p{i}", "name": name})
    assert [p.name for p in s.state.players] == HOSTILE
    s.submit({"do": "start_round", "seed": 3})
    s.submit({"do": "choose", "pid": "p0", "choice": "betray"})
    s.submit({"do": "close_round", "timed_out": True})
    s.close()
    out = tmp_path / "out.csv"
    assert main(["--data-dir", str(tmp_path), "dilemma", "hall", "--export", str(out)]) == 0
    page = MarkdownIt("commonmark").enable("table").render(
        (tmp_path / "out.md").read_text(encoding="utf-8")
    )
    for tag in ("<img", "<a ", "<b>", "<em>", "<code>", "<h1>Head"):
        assert tag not in page, tag
    leaderboard = page.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    for name in HOSTILE:
        assert f"<td>{html.escape(name)}</td>" in leaderboard, name
    assert leaderboard.count("<tr>") == len(HOSTILE)
    with out.open(encoding="utf-8", newline="") as handle:
        players = {row["player"] for row in csv.DictReader(handle) if row["house"] == "False"}
    assert players == set(HOSTILE)


def test_a_name_that_starts_a_formula_is_quoted_in_the_csv(tmp_path: Path) -> None:
    s = Session.create(tmp_path / "hall.sqlite", "dilemma", {"rules": scenario(rounds=1)})
    for i, name in enumerate(["=HYPERLINK(1)", "+1", "-2", "@SUM(A1)", "Ann"]):
        s.submit({"do": "join", "pid": f"p{i}", "name": name})
    s.submit({"do": "start_round", "seed": 3})
    s.submit({"do": "close_round", "timed_out": True})
    s.close()
    out = tmp_path / "out.csv"
    assert main(["--data-dir", str(tmp_path), "dilemma", "hall", "--export", str(out)]) == 0
    with out.open(encoding="utf-8", newline="") as handle:
        players = {row["player"] for row in csv.DictReader(handle) if row["house"] == "False"}
    assert players == {"'=HYPERLINK(1)", "'+1", "'-2", "'@SUM(A1)", "Ann"}
