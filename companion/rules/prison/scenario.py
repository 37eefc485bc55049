"""Scenario parameters of the prison break, validated strictly.

The numbers come from the designers' draft (the ``classic`` scenario); larger groups get their
own files. Reading the TOML file is the job of :mod:`companion.session.scenario_files`: this
module only validates data that is already parsed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator


class PrisonRules(BaseModel):
    """Every number the prison-break engine plays by (see spec, "Scenario parameters")."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

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


def describe_error(error: ValidationError, where: str) -> str:
    """One sentence for the first problem pydantic found: where, which key, what is wrong."""
    errors = error.errors()
    first = min(errors, key=lambda e: 0 if e["type"] == "extra_forbidden" else 1)
    key = ".".join(str(part) for part in first["loc"])
    kind = first["type"]
    value = first.get("input")
    if kind == "extra_forbidden":
        what = f"has an unknown key {key!r}; remove it or check its spelling"
    elif kind == "missing":
        what = f"is missing the key {key!r}; add it"
    elif kind in ("int_type", "int_parsing", "int_from_float"):
        what = f"sets {key!r} to {value!r}, which is not a whole number"
    elif kind in ("string_type",):
        what = f"sets {key!r} to {value!r}, which is not text"
    elif kind in ("bool_type", "bool_parsing"):
        what = f"sets {key!r} to {value!r}, which is not true or false"
    elif kind == "literal_error":
        what = f"sets {key!r} to {value!r}; {first['msg'].lower()}"
    elif kind in ("greater_than_equal", "less_than_equal", "greater_than", "less_than"):
        limit = next(iter((first.get("ctx") or {}).values()), "?")
        bound = {
            "greater_than_equal": "at least",
            "less_than_equal": "at most",
            "greater_than": "more than",
            "less_than": "less than",
        }[kind]
        what = f"sets {key!r} to {value!r}, but it must be {bound} {limit}"
    elif kind == "value_error" and not key:
        what = f"is impossible: {first['msg'].removeprefix('Value error, ')}"
    else:
        what = f"has a problem with {key!r}: {first['msg'].lower()}" if key else first["msg"]
    return f"{where} {what}."


class ScenarioError(ValueError):
    """A scenario (or a script's rule overrides) that cannot be played."""


def rules_from_mapping(data: Mapping[str, Any], where: str) -> PrisonRules:
    try:
        return PrisonRules.model_validate(dict(data))
    except ValidationError as error:
        raise ScenarioError(describe_error(error, where)) from None


def with_overrides(rules: PrisonRules, overrides: Mapping[str, Any], where: str) -> PrisonRules:
    """The same rules with some parameters changed, validated as strictly as a file."""
    merged = rules.model_dump()
    merged.update(overrides)
    return rules_from_mapping(merged, where)
