"""Names compare as people read them, in every game's roster: Unicode NFC, case-folded."""

from __future__ import annotations

import pytest

from companion.rules.core.roster import RosterError, check_roster, name_key, reading_key
from companion.rules.sucker.setup import SetupError, seats_from
from tests.dilemma_helpers import refused, tournament

ZOE = "Zo\u00eb"  # ë as one code point
ZOE_DECOMPOSED = "Zoe\u0308"  # e followed by the combining diaeresis


def test_a_name_key_folds_case_and_unicode_forms() -> None:
    assert ZOE != ZOE_DECOMPOSED
    assert name_key(ZOE) == name_key(ZOE_DECOMPOSED) == name_key("ZO\u00cb") == name_key("zoë")
    assert name_key("Straße") == name_key("STRASSE")
    assert name_key("Zoe") != name_key(ZOE)


@pytest.mark.parametrize("other", [ZOE_DECOMPOSED, "ZOË", "ZOE\u0308"])
def test_the_dilemma_refuses_a_name_that_reads_the_same(other: str) -> None:
    h = tournament([ZOE])
    assert "already taken" in refused(h, {"do": "join", "pid": "x", "name": other})
    h = tournament([ZOE, "Ann"])
    ann = next(p.pid for p in h.state.players if p.name == "Ann")
    assert "already taken" in refused(h, {"do": "rename", "pid": ann, "name": other})


@pytest.mark.parametrize("other", [ZOE_DECOMPOSED, "ZOË"])
def test_the_prison_break_refuses_a_name_that_reads_the_same(other: str) -> None:
    with pytest.raises(RosterError, match="used twice"):
        check_roster(ZOE, ["Ann", other, "Bo", "Cy"], 4, 8)
    with pytest.raises(RosterError, match="used twice"):
        check_roster("Wendy", ["Ann", ZOE, other, "Cy"], 4, 8)


@pytest.mark.parametrize("other", [ZOE_DECOMPOSED, "ZOË"])
def test_so_long_sucker_refuses_a_name_that_reads_the_same(other: str) -> None:
    players = [{"name": ZOE, "color": "red"}, {"name": other, "color": "blue"}]
    with pytest.raises(SetupError, match="used twice"):
        seats_from(players)


def test_names_sort_the_way_people_read_them() -> None:
    assert sorted(["José", "Émile", "Dee"], key=reading_key) == ["Dee", "Émile", "José"]
    players = [f"Player {n}" for n in (11, 1, 10, 2)]
    assert sorted(players, key=reading_key) == ["Player 1", "Player 2", "Player 10", "Player 11"]
    assert sorted(["emile", "Émile", "Emile", "Eve"], key=reading_key) == [
        "Emile", "emile", "Émile", "Eve"
    ]
    assert sorted(["Zoë", "Zoe\u0308", "zoe"], key=reading_key)[0] == "zoe"
