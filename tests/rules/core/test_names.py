"""The one name rule: what a name may hold (nothing hidden), when two names are one (they look
alike), the house player's label reserved, and a length said truly; through every way a name
comes in (a warm-up join and rename, a prison roster, a So Long Sucker setup)."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules.core.game import History, Refused
from companion.rules.core.names import hidden_trouble, reads_as, said, skeleton
from companion.rules.core.roster import (
    MAX_NAME,
    RosterError,
    check_name,
    check_roster,
    name_key,
    name_keys,
)
from companion.rules.dilemma.engine import DILEMMA
from companion.rules.dilemma.state import HOUSE_WORDS
from companion.rules.sucker.setup import seats_from
from tests.conftest import examples
from tests.dilemma_helpers import tournament

HIDDEN = {
    "NUL": "\x00",
    "escape": "\x1b",
    "DEL": "\x7f",
    "C1 CSI": "\x9b",
    "line separator": "\u2028",
    "right-to-left override": "\u202e",
    "left-to-right isolate": "\u2066",
    "pop directional isolate": "\u2069",
    "right-to-left mark": "\u200f",
    "zero-width space": "\u200b",
    "zero-width joiner between Latin letters": "\u200d",
    "word joiner": "\u2060",
    "byte order mark": "\ufeff",
    "soft hyphen": "\u00ad",
    "Hangul filler": "\u3164",
    "braille blank": "\u2800",
    "private use": "\ue000",
    "tag": "\U000e0041",
}


@pytest.mark.parametrize("what", sorted(HIDDEN))
def test_a_hidden_character_inside_a_name_is_refused(what: str) -> None:
    name = "Ad" + HIDDEN[what] + "a"
    with pytest.raises(RosterError) as refused:
        check_name(name, "player")
    assert said(name) in str(refused.value)  # said with the character shown as an escape
    assert HIDDEN[what] not in str(refused.value)
    assert str(refused.value).endswith(".")


@pytest.mark.parametrize(
    "name",
    ["\u200b", "\u0301\u0301", "\u3164", "\u2800\u2800", "\u200b \u200b", "\u115f\u1160"],
)
def test_a_name_with_nothing_visible_is_refused(name: str) -> None:
    with pytest.raises(RosterError):
        check_name(name, "player")


def test_a_pile_of_accents_is_refused_but_real_accents_pass() -> None:
    with pytest.raises(RosterError, match="accents"):
        check_name("Ze" + "\u0332" * 5 + "d", "player")
    for name in ("Nguyễn", "Zoë", "Zoe\u0308", "हिन्दी", "Łucja", "Ærøskøbing"):
        assert check_name(name, "player") == name


@pytest.mark.parametrize(
    "name",
    [
        "[/]",
        "Ben [/]",
        "[@click=app.quit]Quitter[/]",
        "[bold red]Boss",
        "Dee [guest]",
        "<script>",
        "山田\u3000太郎",  # an ideographic space
        "می\u200cخواهم",  # a Persian word with its zero-width non-joiner
        "Ada 👩\u200d💻",  # an emoji joined by ZWJ
        "Ada ❤\ufe0f",  # an emoji with its variation selector
        "José",
    ],
)
def test_names_people_really_type_are_accepted(name: str) -> None:
    assert check_name(name, "player") == name


@pytest.mark.parametrize(
    "other",
    ["ADA", "ada", "\u0410da", "A\u200bda", "\uff21da", "Аdа", "Ada"],
)
def test_look_alike_names_have_one_skeleton(other: str) -> None:
    assert skeleton(other) == skeleton("Ada")
    assert name_key(other) == name_key("Ada")


@pytest.mark.parametrize("other", ["Ida", "Adam", "Ava", "Ada Lovelace", "Zoe"])
def test_different_names_stay_different(other: str) -> None:
    assert skeleton(other) != skeleton("Ada")


# A capital I is drawn as a small l in most faces, and a small capital as its capital: the
# confusables are mapped before case is folded (as TR39 does), else I became i first.
LOOK_ALIKES = [("Will", "WiII"), ("Ian", "lan"), ("Al", "AI"), ("Bill", "BiIl"), ("Ada", "ᴀda")]


@pytest.mark.parametrize(("name", "other"), LOOK_ALIKES)
def test_a_capital_i_is_an_l_and_a_small_capital_its_capital(name: str, other: str) -> None:
    assert skeleton(name) == skeleton(other)
    assert not name_keys(name).isdisjoint(name_keys(other))


def test_case_alone_still_makes_one_name_but_i_and_l_stay_two() -> None:
    assert not name_keys("ian").isdisjoint(name_keys("Ian"))
    assert not name_keys("IAN").isdisjoint(name_keys("ian"))
    for name, other in (("ian", "lan"), ("Lia", "Ila"), ("Eli", "Ell"), ("Ida", "Ada")):
        assert name_keys(name).isdisjoint(name_keys(other)), (name, other)


@pytest.mark.parametrize(("name", "other"), LOOK_ALIKES)
def test_a_look_alike_with_i_and_l_or_small_capitals_is_refused_everywhere(
    name: str, other: str
) -> None:
    with pytest.raises(RosterError, match="used twice"):
        check_roster("Wendy", ["Cy", name, "Dee", other], 4, 4)
    h = tournament([name, "Ben"])
    assert "already taken" in _dilemma_said(h, do="join", pid="p9", name=other).reason
    with pytest.raises(ValueError, match="used twice"):
        seats_from([{"name": n, "color": c} for n, c in zip(
            ["Cy", name, "Dee", other], ["red", "blue", "green", "yellow"], strict=True
        )])


def test_digits_that_look_like_letters_are_the_same_name() -> None:
    assert skeleton("0scar") == skeleton("Oscar")
    assert skeleton("Sam") == skeleton("Sarn")  # TR39: "m" looks like "rn"


@settings(max_examples=examples(300), deadline=None)
@given(st.text(max_size=12))
def test_the_skeleton_is_a_fixed_point(text: str) -> None:
    once = skeleton(text)
    assert skeleton(once) == once


@settings(max_examples=examples(300), deadline=None)
@given(st.text(max_size=12))
def test_an_accepted_name_shows_something_and_hides_nothing(text: str) -> None:
    try:
        name = check_name(text, "player")
    except RosterError as error:
        assert str(error).endswith(".") and "\n" not in str(error)
        return
    assert hidden_trouble(name) is None
    assert any(unicodedata.category(c)[0] not in "ZMC" for c in name)
    assert not any(unicodedata.category(c) in ("Cc", "Co", "Cn", "Cs") for c in name)
    for bidi in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f":
        assert bidi not in name


def test_a_long_name_says_its_true_length() -> None:
    name = "A" * 1000
    with pytest.raises(RosterError, match="is 1000 characters long; use at most 40"):
        check_name(name, "player")
    assert MAX_NAME == 40


def test_the_house_label_is_reserved_in_every_language_and_look() -> None:
    for name in ("House", "HOUSE", "House (Tit for Tat)", "Hоuse", "Haus", "Maison 2", "casa"):
        assert any(reads_as(name, word) for word in HOUSE_WORDS), name
    for name in ("Householder", "Casanova", "Mais", "Hugo"):
        assert not any(reads_as(name, word) for word in HOUSE_WORDS), name


def _dilemma_said(history: History, **command: object) -> Refused:
    outcome = history.try_command(DILEMMA.parse_command(command))
    assert isinstance(outcome, Refused), outcome
    return outcome


@pytest.mark.parametrize("name", ["House (Tit for Tat)", "Hоuse", "Haus", "MAISON", "Casa"])
def test_a_warm_up_player_cannot_take_the_house_players_label(name: str) -> None:
    said = _dilemma_said(tournament(["Ada", "Ben"]), do="join", pid="p9", name=name)
    assert "house player" in said.reason


@pytest.mark.parametrize("name", ["\u0410da", "A\u200dda", "ADA", "\uff21da"])
def test_a_look_alike_cannot_join_or_rename_into_a_taken_name(name: str) -> None:
    h = tournament(["Ada", "Ben"])
    assert isinstance(_dilemma_said(h, do="join", pid="p9", name=name), Refused)
    assert isinstance(_dilemma_said(h, do="rename", pid="p1", name=name), Refused)


def test_a_prison_roster_refuses_look_alikes_and_hidden_characters() -> None:
    with pytest.raises(RosterError, match="used twice"):
        check_roster("Wendy", ["Ada", "Ben", "\u0410da", "Dee"], 4, 4)
    with pytest.raises(RosterError, match="invisible"):
        check_roster("Wendy", ["Ada", "Ben\u202e", "Cy", "Dee"], 4, 4)
    with pytest.raises(RosterError, match="control"):
        check_roster("W\x9bendy", ["Ada", "Ben", "Cy", "Dee"], 4, 4)


def test_so_long_sucker_refuses_look_alikes_and_hidden_characters() -> None:
    def players(names: list[str]) -> list[dict[str, str]]:
        colors = ["red", "blue", "green", "yellow"]
        return [{"name": n, "color": c} for n, c in zip(names, colors, strict=False)]

    with pytest.raises(ValueError, match="used twice"):
        seats_from(players(["Ann", "Bo", "\u0410nn", "Dan"]))
    with pytest.raises(ValueError, match="invisible"):
        seats_from(players(["Ann", "Bo\u200b", "Cat", "Dan"]))


def _confusables_script():  # type: ignore[no-untyped-def]
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[3] / "scripts" / "confusables.py"
    spec = importlib.util.spec_from_file_location("confusables", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_shipped_prototypes_are_those_of_the_installed_tr39_data() -> None:
    # companion/rules/core/prototypes.json is written by scripts/confusables.py from the
    # confusable-homoglyphs package's data; a changed package makes it stale, and this fails.
    import subprocess
    import sys

    script = _confusables_script()
    done = subprocess.run([sys.executable, str(script.__file__), "--check"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    table = script.prototypes(script.source_data())
    assert table["\u0430"] == "a" and table["0"] == "O"  # Cyrillic a; a zero reads as an O
    assert "a" not in table  # a prototype maps to nothing
    assert script.TABLE.read_text(encoding="utf-8") == script.table_text(table)


def test_a_changed_source_changes_the_prototypes() -> None:
    # The check can fail: the same data with one line changed makes another table.
    script = _confusables_script()
    data = script.source_data()
    shipped = script.table_text(script.prototypes(data))
    data["\u0430"] = [{"c": "o", "n": "LATIN SMALL LETTER O"}]
    data["o"] = [*data["o"], {"c": "\u0430", "n": "CYRILLIC SMALL LETTER A"}]
    changed = script.prototypes(data)
    assert changed["\u0430"] == "o"
    assert script.table_text(changed) != shipped
