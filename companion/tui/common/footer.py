"""Keep the essential keys in a narrow footer.

At 80 columns the game screen has more keys than the footer can show, and the footer cuts off
whatever comes last (Quit, Help). :func:`fit_footer` hides the optional keys (the ones the help
screen and the command palette also offer), least needed first, until the rest fits. Only the
footer changes: every key still works.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

from textual.binding import ActiveBinding, Binding

PALETTE_WIDTH = 12  # the "^p palette" key docked at the footer's right


def key_width(binding: Binding, display: Callable[[Binding], str]) -> int:
    """Columns one key takes in a compact footer: "k Description "."""
    return len(display(binding)) + len(binding.description) + 2


def fit_footer(
    active: dict[str, ActiveBinding],
    width: int,
    display: Callable[[Binding], str],
    optional: Sequence[str],
) -> dict[str, ActiveBinding]:
    """``active`` with the footer flag off for the ``optional`` actions (dropped in that
    order) until the shown keys fit in ``width`` columns."""

    def used(bindings: dict[str, ActiveBinding]) -> int:
        seen: set[str] = set()
        total = PALETTE_WIDTH
        for item in bindings.values():
            b = item.binding
            if b.show and b.action not in seen:  # one footer key per action
                seen.add(b.action)
                total += key_width(b, display)
        return total

    fitted = dict(active)
    for action in optional:
        if used(fitted) <= width:
            break
        for key, item in fitted.items():
            if item.binding.action == action and item.binding.show:
                fitted[key] = item._replace(binding=dataclasses.replace(item.binding, show=False))
    return fitted
