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

__all__ = ["RULE_KEYS", "PrisonRules", "ScenarioError", "rules_from_mapping", "with_overrides"]


class PrisonRules(StrictModel):
    """Every number the prison-break engine plays by (see spec, "Scenario parameters")."""

    game: Literal["prison-break"] = "prison-break"
    description: str = ""
    min_prisoners: int = Field(ge=2, le=60)
    max_prisoners: int = Field(ge=2, le=60)
    nights_to_escape: int = Field(ge=1, le=200)
    parole_tokens_to_win: int = Field(ge=1, le=50)
    parole_tokens_per_day: int = Field(ge=0, le=60)
    searches_per_day: int = Field(ge=1, le=60)
    shivs_per_prisoner: int = Field(ge=0, le=20)
    accusations_per_day: int = Field(ge=0, le=20)
    max_days: int | None = Field(default=None, ge=1, le=1000)

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
