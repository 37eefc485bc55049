"""Keep the essential keys in a narrow footer.

At 80 columns the game screen has more keys than the footer can show, and the footer cuts off
whatever comes last (Quit, Help). :func:`fit_footer` hides the optional keys (the ones the help
screen and the command palette also offer), least needed first, until the rest fits. Only the
footer changes: every key still works.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

from textual.app import ComposeResult
from textual.binding import ActiveBinding, Binding
from textual.widgets import Footer
from textual.widgets._footer import FooterKey, FooterLabel

from companion.language import N_
from companion.tui.common.language import words

# Textual's own words in the footer: the command palette's key and its tooltip.
PALETTE_WORDS = (N_("palette"), N_("Open the command palette"))

PALETTE_WIDTH = 12  # the "^p palette" key docked at the footer's right


def key_width(
    binding: Binding, display: Callable[[Binding], str], describe: Callable[[str], str] = str
) -> int:
    """Columns one key takes in a compact footer: "k Description " (``describe`` gives the
    description as the footer shows it: translated)."""
    return len(display(binding)) + len(describe(binding.description)) + 2


def fit_footer(
    active: dict[str, ActiveBinding],
    width: int,
    display: Callable[[Binding], str],
    optional: Sequence[str],
    describe: Callable[[str], str] = str,
) -> dict[str, ActiveBinding]:
    """``active`` with the footer flag off for the ``optional`` actions (dropped in that
    order) until the shown keys fit in ``width`` columns (descriptions as ``describe`` gives
    them: in the console's language)."""

    def used(bindings: dict[str, ActiveBinding]) -> int:
        seen: set[str] = set()
        total = PALETTE_WIDTH
        for item in bindings.values():
            b = item.binding
            if b.show and b.action not in seen:  # one footer key per action
                seen.add(b.action)
                total += key_width(b, display, describe)
        return total

    fitted = dict(active)
    for action in optional:
        if used(fitted) <= width:
            break
        for key, item in fitted.items():
            if item.binding.action == action and item.binding.show:
                fitted[key] = item._replace(binding=dataclasses.replace(item.binding, show=False))
    return fitted


class Keys(Footer):
    """The footer in the console's language: each key's description (and tooltip) goes through
    the catalog, so bindings are declared in English (``Binding("f1", "help", "Help")``, which
    the catalog tools extract) and shown in the game master's language."""

    def compose(self) -> ComposeResult:
        _ = words(self)
        for child in super().compose():
            if isinstance(child, FooterKey):
                child.description = _(child.description) if child.description else ""
                tip = child.tooltip
                if isinstance(tip, str) and tip:
                    child.tooltip = _(tip)
            elif isinstance(child, FooterLabel):
                child.update(_(str(child.content)))
            yield child
