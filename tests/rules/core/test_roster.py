"""Names compare as people read them, in every game's roster: Unicode NFC, case-folded."""

from __future__ import annotations

import pytest

from companion.rules.core.roster import RosterError, check_roster, name_key
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
