"""Parsing commands from JSON-like data, shared by every game: pydantic models with a ``do``
discriminator, strict types, and one sentence for whatever is malformed."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, TypeAdapter, ValidationError

from companion.rules.core.game import MalformedCommand

C = TypeVar("C")


class StrictModel(BaseModel):
    """A command, event or scenario read from JSON: unknown keys refused, no coercion, frozen."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


def describe_command_error(
    error: ValidationError, names: Sequence[str], fields: Mapping[str, str] | None = None
) -> str:
    """One sentence for a malformed command, from pydantic's first complaint.

    ``fields`` gives a game's own wording for a field whose value is wrong (for example
    "'pile' must be a pile number or \\"new\\"")."""
    first = error.errors()[0]
    # Drop the union members pydantic names in the location (int, literal[...], ...).
    loc = [str(p) for p in first["loc"] if not str(p).startswith(("int", "literal", "str"))]
    field = loc[-1] if loc else ""
    kind = first["type"]
    if kind == "union_tag_invalid":
        return f"unknown command {first['input'].get('do')!r}; use one of {', '.join(names)}"
    if kind == "union_tag_not_found":
        return "the command has no 'do' field"
    if kind == "missing":
        return f"the field '{field}' is missing"
    if kind == "extra_forbidden":
        return f"the field '{field}' is not part of this command"
    if fields and field in fields:
        return fields[field]
    if kind == "literal_error":
        return f"'{field}' must be {first['msg'].removeprefix('Input should be ')}"
    if kind == "bool_type":
        return f"'{field}' must be true or false"
    if kind == "string_type":
        return f"'{field}' must be text"
    if kind in ("int_type", "int_parsing"):
        return f"'{field}' must be a whole number"
    return f"'{field}': {first['msg']}" if field else str(first["msg"])


class CommandParser(Generic[C]):
    """Turns JSON-like data into one of a game's typed commands, or raises MalformedCommand."""

    def __init__(
        self,
        adapter: TypeAdapter[C],
        names: Sequence[str],
        fields: Mapping[str, str] | None = None,
    ) -> None:
        self.adapter = adapter
        self.names = tuple(names)
        self.fields = dict(fields or {})

    def parse(self, data: Mapping[str, Any] | Any) -> C:
        if not isinstance(data, Mapping):
            raise MalformedCommand("a command must be a JSON object")
        try:
            return self.adapter.validate_python(dict(data))
        except ValidationError as error:
            raise MalformedCommand(describe_command_error(error, self.names, self.fields)) from None
