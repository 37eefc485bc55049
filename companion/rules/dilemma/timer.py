"""The round timer, read from the session's notes (pure: the notes come in as data).

When a round with a timer starts, the console writes a ``round_timer`` note with the round's
number, its length and its deadline (epoch seconds), so that a resumed session counts down to
the same moment; ``round_seconds`` notes are the game master's setting for the rounds to come
(``seconds`` 0: no timer), over the scenario's ``round_seconds``.

Undoing the reveal of a round opens it again, but its deadline has passed (or soon will): the
console then writes a ``round_timer`` note for it with ``seconds`` 0 (:func:`timer_off_note`),
and the round has no timer from then on; the game master closes it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple


class RoundTimer(NamedTuple):
    round: int
    seconds: int
    deadline: float  # epoch seconds

    def left(self, now: float) -> float:
        return max(0.0, self.deadline - now)


def _last(notes: Iterable[Mapping[str, Any]], number: int) -> Mapping[str, Any] | None:
    found = None
    for body in notes:
        if body.get("what") == "round_timer" and body.get("round") == number:
            found = body
    return found


def round_timer(notes: Iterable[Mapping[str, Any]], number: int) -> RoundTimer | None:
    """The timer of round ``number``: the last ``round_timer`` note written for it (``None``
    when there is none, or when the last one turned it off)."""
    body = _last(notes, number)
    if body is None or not int(body["seconds"]):
        return None
    return RoundTimer(number, int(body["seconds"]), float(body["deadline"]))


def timer_off(notes: Iterable[Mapping[str, Any]], number: int) -> bool:
    """Round ``number`` had a timer, turned off since (its reveal was undone)."""
    body = _last(notes, number)
    return body is not None and not int(body["seconds"])


def timer_off_note(number: int) -> dict[str, Any]:
    """The ``round_timer`` note's data that turns round ``number``'s timer off."""
    return {"round": number, "seconds": 0, "deadline": None, "why": "reveal undone"}


def round_seconds(default: int | None, notes: Iterable[Mapping[str, Any]]) -> int | None:
    """Seconds per round for the next round: the game master's last setting, else the
    scenario's; ``None`` for no timer."""
    seconds = default
    for body in notes:
        if body.get("what") == "round_seconds":
            seconds = int(body["seconds"]) or None
    return seconds
