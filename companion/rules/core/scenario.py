"""What every game's scenario shares: the error for a scenario that cannot be played, and one
sentence for what pydantic found wrong with it. Each game's own model lives in its package."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:  # pydantic is imported where a scenario is validated, not to name the error
    from pydantic import BaseModel, ValidationError

M = TypeVar("M", bound="BaseModel")


class ScenarioError(ValueError):
    """A scenario (or a script's rule overrides) that cannot be played."""


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


def validated(model: type[M], data: Mapping[str, Any], where: str) -> M:
    """``data`` as a ``model``, or :class:`ScenarioError` naming ``where`` the problem is."""
    from pydantic import ValidationError

    try:
        return model.model_validate(dict(data))
    except ValidationError as error:
        raise ScenarioError(describe_error(error, where)) from None
