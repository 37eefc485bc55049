"""Hostile names for the consoles' tests (no tests here): names that look like markup, brackets,
backslashes, emoji, right-to-left letters and long names, as the rules accept them."""

from __future__ import annotations

from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st

from companion.rules.core.roster import RosterError, check_name

MARKUP = [
    "[/]",
    "[/b]",
    "[/word]",
    "[@click=app.quit]Quitter[/]",
    "[@click=app.quit]x[/]",
    "[link=x]y",
    "[bold red]Boss",
    "Dee [guest]",
    "Ben [/]",
    "[b]",
    "]x[",
    "[[/]]",
    "\\[b]Esc",
    "back\\",
    "\\\\[/]",
    "[$accent]A",
    "[on red]",
    "%(name)s",
    "50%",
    "😀 Zoë",
    "שלום",
    "مرحبا [/]",
    "x" * 37 + "[/]",
    "A very long name that goes on and on..",
]
PIECES = ["[", "]", "/", "\\", "@", "=", "b", "Ann", " ", "😀", "ש", "%", "(", ")", "s", "click"]


def accepted(name: str) -> bool:
    try:
        check_name(name, "player")
    except RosterError:
        return False
    return True


def names() -> st.SearchStrategy[str]:
    """A name the rules accept, mostly one that a console could read as markup."""
    built = st.lists(st.sampled_from(PIECES), min_size=1, max_size=12).map("".join)
    made = st.one_of(st.sampled_from(MARKUP), built, st.sampled_from(MARKUP).map(lambda m: "Z" + m))
    return made.map(lambda n: " ".join(n.split())).filter(accepted)


SIZES = st.sampled_from([(80, 24), (120, 36)])
# A few examples each, never shrunk (a console's run takes a second): the whole file stays short.
HOSTILE = settings(
    max_examples=8,
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
