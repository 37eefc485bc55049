"""What each informant said: the interview's optional `named` (whom a prisoner who takes a deal
says is working), refused without a deal or for anyone but another prisoner still in, gone
with its deal on undo, secret until the end, then told by the epilogue."""

from __future__ import annotations

import json
from typing import Any

from companion.rules.core.game import History, MalformedCommand
from companion.rules.prison.commands import command_to_dict, parse_command
from companion.rules.prison.engine import PRISON_BREAK
from companion.rules.prison.epilogue import epilogue_view, own_part
from companion.rules.prison.epilogue_phrases import own_phrases, step_phrases
from companion.rules.prison.state import PrisonState
from companion.rules.prison.views import prisoner, script_result, table
from tests.prison_helpers import game, ok, refused


def _planned(**changes: Any) -> History:
    h = game(**changes)
    for name, choice in [("Ada", "work"), ("Ben", "rest"), ("Cy", "work"), ("Dee", "rest")]:
        ok(h, do="choose", prisoner=name, choice=choice)
    ok(h, do="close_planning")
    return h


def test_an_informant_names_other_prisoners_still_in_only_with_a_deal() -> None:
    h = _planned()
    assert refused(h, do="interview", prisoner="Ben", deal=False, named=["Ada"]) == (
        "Ben took no deal, so there is nobody they named; record names only with a deal."
    )
    assert refused(h, do="interview", prisoner="Ben", deal=True, named=["Ben"]) == (
        "Ben cannot name Ben: name each other prisoner still in the game at most once."
    )
    assert refused(h, do="interview", prisoner="Ben", deal=True, named=["Ada", "Ada"]) == (
        "Ben cannot name Ada: name each other prisoner still in the game at most once."
    )
    assert "Zed" in refused(h, do="interview", prisoner="Ben", deal=True, named=["Zed"])
    ok(h, do="interview", prisoner="Ben", deal=True, named=["Ada", "Cy"])
    assert h.state.day.named == (("Ben", ("Ada", "Cy")),)
    ok(h, do="undo")  # the deal taken back takes its names with it
    assert h.state.day.named == () and h.state.day.interviews == ()
    ok(h, do="interview", prisoner="Ben", deal=True)
    assert h.state.day.named == ()


def test_named_is_optional_and_absent_reads_as_it_always_has() -> None:
    plain = parse_command({"do": "interview", "prisoner": "Ben", "deal": True})
    assert command_to_dict(plain) == {"do": "interview", "prisoner": "Ben", "deal": True}
    said = parse_command({"do": "interview", "prisoner": "Ben", "deal": True, "named": ["Ada"]})
    assert command_to_dict(said)["named"] == ["Ada"]
    for bad in ("Ada", None):
        try:
            parse_command({"do": "interview", "prisoner": "Ben", "deal": True, "named": bad})
        except MalformedCommand as error:
            assert str(error) == "'named' must be a list of prisoners' names"
        else:
            raise AssertionError(f"named={bad!r} was accepted")


def test_the_names_stay_secret_until_the_end_then_the_epilogue_says_them() -> None:
    h, silent = _planned(nights_to_escape=2), _planned(nights_to_escape=2)
    ok(h, do="interview", prisoner="Ben", deal=True, named=["Ada", "Cy"])
    ok(silent, do="interview", prisoner="Ben", deal=True)

    def faces(state: PrisonState) -> list[Any]:
        return [table(state), script_result(state)] + [
            prisoner(state, n) for n in state.roster
        ]

    assert faces(h.state) == faces(silent.state)  # nothing of it on any player's face
    assert epilogue_view(h.state, 9) is None
    assert own_part(h.state, "Ben") is None
    ok(h, do="search", prisoner="Dee")  # a rester: Ada and Cy work the night, the escape
    assert h.state.over
    view = epilogue_view(h.state, 1)
    assert view is not None
    [(_, said)] = step_phrases(view)
    assert "Ben took the warden's deal and named Ada and Cy: their first parole token." in [
        str(s) for s in said
    ]
    assert [str(s) for s in own_phrases(own_part(h.state, "Ben") or [])] == [
        "Night 1: you rested and you took a deal and named Ada and Cy."
    ]
    ok(h, do="undo")
    assert own_part(h.state, "Ben") is None


def test_the_names_go_through_the_log_as_any_command_and_event() -> None:
    h = _planned()
    entry = ok(h, do="interview", prisoner="Ben", deal=True, named=["Cy", "Ada"])
    stored = [PRISON_BREAK.event_to_dict(e) for e in entry.events]
    assert stored[-1] == {"informant": "Ben", "named": ("Cy", "Ada"), "kind": "informant_named"}
    read = [PRISON_BREAK.event_from_dict(json.loads(json.dumps(e))) for e in stored]
    assert read == list(entry.events)
    again = parse_command(json.loads(json.dumps(command_to_dict(entry.command))))
    assert again == entry.command and again.named == ["Cy", "Ada"]
