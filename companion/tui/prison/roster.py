"""What is wrong with a roster the set-up screen is given, in the console's language: a name
(empty, too long, spaces at its ends, a control character), a name used twice, a group size the
scenario is not balanced for; as the rules' checks judge it."""

from __future__ import annotations

from companion.language import N_, Language, language
from companion.rules.core.roster import MAX_NAME, RosterError, check_roster, name_keys
from companion.tui.prison.picker import group_size

# What is wrong with a name, for the warden and for a prisoner (the rules' checks, in the
# console's language): empty, too long, spaces at its ends, a control character.
NAME_REFUSALS = {
    "warden": (
        N_("The warden's name is empty; give every player a name."),
        N_("The warden's name %(name)s... is %(length)s characters long; use at most %(most)s."),
        N_("The warden's name %(name)s has spaces at its ends; remove them."),
        N_("The warden's name %(name)s holds a control character; retype it."),
    ),
    "prisoner": (
        N_("The prisoner's name is empty; give every player a name."),
        N_("The prisoner's name %(name)s... is %(length)s characters long; use at most %(most)s."),
        N_("The prisoner's name %(name)s has spaces at its ends; remove them."),
        N_("The prisoner's name %(name)s holds a control character; retype it."),
    ),
}


def name_refusal(name: str, role: str, lang: Language | None = None) -> str | None:
    """Why ``name`` cannot be the ``role``'s (``warden`` or ``prisoner``), in ``lang``; ``None``
    when it can (as :func:`~companion.rules.core.roster.check_name` judges it)."""
    _ = lang or language()
    empty, long, spaces, control = NAME_REFUSALS[role]
    clean = name.strip()
    if not clean:
        return _(empty)
    if len(clean) > MAX_NAME:
        return _(long, name=repr(clean[:20]), length=_.number(len(clean)), most=MAX_NAME)
    if clean != name:
        return _(spaces, name=repr(name))
    if any(ord(c) < 32 for c in name):
        return _(control, name=repr(name))
    return None


def roster_refusal(
    warden: str, prisoners: list[str], low: int, high: int, lang: Language | None = None
) -> str | None:
    """Why the roster cannot play a scenario for ``low`` to ``high`` prisoners, in ``lang``
    (as :func:`~companion.rules.core.roster.check_roster` judges it); ``None`` when it can."""
    _ = lang or language()
    try:
        check_roster(warden, prisoners, low, high)
    except RosterError as error:
        refused = _.refused(error.refused)
    else:
        return None
    said = name_refusal(warden, "warden", _)
    if said:
        return said
    for name in prisoners:
        if name_refusal(name, "prisoner", _):
            return refused  # the set-up lets no such name in: the rules' own words
    seen = set(name_keys(warden))
    for name in prisoners:
        if not seen.isdisjoint(name_keys(name)):
            return _(
                "The name %(name)s is used twice; every player needs their own name.",
                name=repr(name),
            )
        seen |= name_keys(name)
    if not low <= len(prisoners) <= high:
        if low == high:
            return _(
                "This scenario is balanced for exactly %(size)s prisoners, but the roster has "
                "%(count)s; pick a scenario for this group size (see 'companion scenarios').",
                size=_.number(low),
                count=_.number(len(prisoners)),
            )
        return _(
            "This scenario is balanced for %(size)s prisoners, but the roster has %(count)s; "
            "pick a scenario for this group size (see 'companion scenarios').",
            size=group_size(low, high, _),
            count=_.number(len(prisoners)),
        )
    return refused
