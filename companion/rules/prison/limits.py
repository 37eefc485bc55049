"""The bounds of the prison break's scenario numbers, in the standard library only.

:class:`~companion.rules.prison.scenario.PrisonRules` declares its fields from :data:`LIMITS`,
so the two cannot differ. :func:`plain_numbers` reads a scenario's numbers without building the
model, for ``companion scenarios``, which lists every file at once: it answers only for data the
model certainly accepts, and leaves anything else (what to say about a wrong file) to the model.
"""

from __future__ import annotations

from collections.abc import Mapping

# Each number a scenario sets: its least and its greatest value.
LIMITS: dict[str, tuple[int, int]] = {
    "min_prisoners": (2, 60),
    "max_prisoners": (2, 60),
    "nights_to_escape": (1, 200),
    "parole_tokens_to_win": (1, 50),
    "parole_tokens_per_day": (0, 60),
    "searches_per_day": (1, 60),
    "shivs_per_prisoner": (0, 20),
    "accusations_per_day": (0, 20),
}
OPTIONAL_LIMITS: dict[str, tuple[int, int]] = {"max_days": (1, 1000)}  # may be left out
TEXT_KEYS = ("game", "description")


def plain_numbers(data: Mapping[str, object]) -> dict[str, int] | None:
    """The numbers of a prison-break scenario the rules' model certainly accepts; ``None`` for
    anything else (an unknown key, a wrong type, a number out of range, a roster range upside
    down), about which the model is to be asked."""
    if any(key not in LIMITS and key not in OPTIONAL_LIMITS and key not in TEXT_KEYS
           for key in data):
        return None
    if data.get("game", "prison-break") != "prison-break" or type(data.get("game", "")) is not str:
        return None
    if type(data.get("description", "")) is not str:
        return None
    numbers: dict[str, int] = {}
    for key, (low, high) in (*LIMITS.items(), *OPTIONAL_LIMITS.items()):
        value = data.get(key)
        if value is None and key in OPTIONAL_LIMITS:
            continue
        if type(value) is not int or not low <= value <= high:  # strict: no bool, no float
            return None
        numbers[key] = value
    if numbers["max_prisoners"] < numbers["min_prisoners"]:
        return None
    return numbers
