"""Scenario parameters of the prison break, validated strictly.

The numbers come from the designers' draft (the ``classic`` scenario); larger groups get their
own files. Reading the TOML file is the job of :mod:`companion.session.scenario_files`: this
module only validates data that is already parsed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import Field, model_validator

from companion.rules.core.parsing import StrictModel
from companion.rules.core.scenario import ScenarioError, validated
from companion.rules.prison.limits import LIMITS, OPTIONAL_LIMITS

__all__ = ["RULE_KEYS", "PrisonRules", "ScenarioError", "rules_from_mapping", "with_overrides"]


def _within(key: str) -> Any:
    """A required number's field, bounded as :data:`LIMITS` says."""
    low, high = LIMITS[key]
    return Field(ge=low, le=high)


class PrisonRules(StrictModel):
    """Every number the prison-break engine plays by (see spec, "Scenario parameters")."""

    game: Literal["prison-break"] = "prison-break"
    description: str = ""
    min_prisoners: int = _within("min_prisoners")
    max_prisoners: int = _within("max_prisoners")
    nights_to_escape: int = _within("nights_to_escape")
    parole_tokens_to_win: int = _within("parole_tokens_to_win")
    parole_tokens_per_day: int = _within("parole_tokens_per_day")
    searches_per_day: int = _within("searches_per_day")
    shivs_per_prisoner: int = _within("shivs_per_prisoner")
    accusations_per_day: int = _within("accusations_per_day")
    max_days: int | None = Field(
        default=None, ge=OPTIONAL_LIMITS["max_days"][0], le=OPTIONAL_LIMITS["max_days"][1]
    )

    @model_validator(mode="after")
    def _roster_range(self) -> PrisonRules:
        if self.max_prisoners < self.min_prisoners:
            raise ValueError(
                f"max_prisoners ({self.max_prisoners}) is smaller than "
                f"min_prisoners ({self.min_prisoners})"
            )
        return self


RULE_KEYS = tuple(k for k in PrisonRules.model_fields if k not in ("game", "description"))


def rules_from_mapping(data: Mapping[str, Any], where: str) -> PrisonRules:
    """Parsed scenario data as the rules, or :class:`ScenarioError` naming ``where``."""
    return validated(PrisonRules, data, where)


def with_overrides(rules: PrisonRules, overrides: Mapping[str, Any], where: str) -> PrisonRules:
    """The same rules with some parameters changed, validated as strictly as a file."""
    merged = rules.model_dump()
    merged.update(overrides)
    return rules_from_mapping(merged, where)
