"""The few English helpers every face shares when it writes about players and counts: one
plural, one list of names; and the rules' own ``N_`` marker. Pure functions, so the rules core
may use them too."""

from __future__ import annotations

from collections.abc import Sequence


def N_(message: str) -> str:  # noqa: N802 - the marker's conventional name
    """Marks ``message`` for the catalogs where it is defined (a table of refusals' sentences,
    raised later as a :class:`~companion.rules.core.game.Refusal`); the rules never translate
    it, the faces do."""
    return message


def plural(count: int, one: str, many: str | None = None) -> str:
    """``1 night``, ``2 nights``; ``many`` for a plural that is not ``one + "s"``
    (``plural(2, "process", "processes")``)."""
    return f"{count} {one if count == 1 else (many or one + 's')}"


def joined(names: Sequence[str], nobody: str = "", *, last: str = "and") -> str:
    """``Ada``, ``Ada and Ben``, ``Ada, Ben and Cy``; ``nobody`` when the list is empty;
    ``last="or"`` for ``Ada, Ben or Cy``."""
    if not names:
        return nobody
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + f" {last} " + names[-1]
