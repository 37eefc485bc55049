"""``plain_numbers`` reads a scenario's numbers without pydantic (for ``companion scenarios``):
whatever it accepts, the rules' model accepts with the same numbers; what it leaves to the model
includes everything the model refuses; and it does read the shipped scenarios."""

from __future__ import annotations

import tomllib
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.rules.core.scenario import ScenarioError
from companion.rules.prison.limits import LIMITS, OPTIONAL_LIMITS, plain_numbers
from companion.rules.prison.scenario import RULE_KEYS, PrisonRules, rules_from_mapping
from tests.conftest import ROOT, examples

CLASSIC = tomllib.loads((ROOT / "scenarios" / "classic.toml").read_text("utf-8"))
KEYS = [*RULE_KEYS, "game", "description", "colour"]
odd_values = st.one_of(
    st.integers(-3, 1003),
    st.sampled_from([0, 1, 2, 20, 21, 50, 51, 60, 61, 200, 201, 1000, 1001, True, False]),
    st.floats(allow_nan=True),
    st.text(max_size=4),
    st.sampled_from(["prison-break", "dilemma", None]),
    st.lists(st.integers(0, 3), max_size=2),
)


@st.composite
def scenarios(draw: st.DrawFn) -> dict[str, Any]:
    data = dict(CLASSIC)
    for _ in range(draw(st.integers(0, 4))):
        key = draw(st.sampled_from(KEYS))
        if draw(st.booleans()):
            data.pop(key, None)
        else:
            data[key] = draw(odd_values)
    return data


@settings(max_examples=examples(400), deadline=None)
@given(data=scenarios())
def test_plain_numbers_answer_only_for_what_the_model_accepts(data: dict[str, Any]) -> None:
    numbers = plain_numbers(data)
    try:
        rules = rules_from_mapping(data, "the file")
    except ScenarioError:
        assert numbers is None, data
        return
    if numbers is not None:
        assert numbers == {k: v for k, v in rules.model_dump().items()
                           if k in LIMITS or (k in OPTIONAL_LIMITS and v is not None)}


@pytest.mark.parametrize("path", sorted((ROOT / "scenarios").glob("*.toml")), ids=lambda p: p.stem)
def test_the_shipped_prison_scenarios_are_read_plainly(path: Any) -> None:
    data = tomllib.loads(path.read_text("utf-8"))
    if data.get("game", "prison-break") != "prison-break":
        assert plain_numbers(data) is None  # another game's file is not a prison break's
        return
    assert plain_numbers(data) == {k: v for k, v in data.items() if k in LIMITS}


def test_the_model_is_bounded_by_the_limits() -> None:
    for key, (low, high) in {**LIMITS, **OPTIONAL_LIMITS}.items():
        bounds = {type(m).__name__: m for m in PrisonRules.model_fields[key].metadata}
        assert (bounds["Ge"].ge, bounds["Le"].le) == (low, high), key
    assert set(RULE_KEYS) == set(LIMITS) | set(OPTIONAL_LIMITS)
