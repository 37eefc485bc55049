"""Clearing a flood of joins: the players present grouped by the device address they joined
from and by how recently they joined, for the game master to remove one group in one step
(``remove_many``: one undo brings them all back). Addresses are the game master's alone: they
come from the seats in the session file, never from a view the phones or the board see."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import NamedTuple

from companion.language import Language
from companion.session.dilemma.seats import Origin
from companion.tui.dilemma.words import View

WINDOWS = (1, 5, 15)  # minutes: "joined in the last 1/5/15 minutes"
MOST_ADDRESSES = 8  # address groups offered (the largest first)
NAMES_SHOWN = 3  # names in a group's line


class Group(NamedTuple):
    """Present players to remove together: those from one ``address``, or who joined in the
    last ``minutes``."""

    key: str
    pids: tuple[str, ...]
    names: tuple[str, ...]
    first: float | None
    last: float | None
    address: str | None = None
    minutes: int | None = None


def flood_groups(roster: Sequence[View], origins: Mapping[str, Origin], now: float) -> list[Group]:
    """The groups a flood can be cleared by: each address two or more present players joined
    from (the largest first), then each time window that holds someone (none twice the same)."""
    present = [row for row in roster if row["present"] and row["pid"] in origins]
    by_address: dict[str, list[View]] = {}
    for row in present:
        address = origins[row["pid"]].address
        if address is not None:
            by_address.setdefault(address, []).append(row)
    groups = [
        _group(f"address:{address}", rows, origins, address=address)
        for address, rows in sorted(by_address.items(), key=lambda item: (-len(item[1]), item[0]))
        if len(rows) >= 2
    ][:MOST_ADDRESSES]
    seen: set[tuple[str, ...]] = set()
    for minutes in WINDOWS:
        rows = [
            row
            for row in present
            if (joined := origins[row["pid"]].joined) is not None and joined >= now - 60 * minutes
        ]
        pids = tuple(row["pid"] for row in rows)
        if rows and pids not in seen:
            seen.add(pids)
            groups.append(_group(f"last:{minutes}", rows, origins, minutes=minutes))
    return groups


def _group(
    key: str,
    rows: list[View],
    origins: Mapping[str, Origin],
    *,
    address: str | None = None,
    minutes: int | None = None,
) -> Group:
    times = [t for row in rows if (t := origins[row["pid"]].joined) is not None]
    return Group(
        key,
        tuple(row["pid"] for row in rows),
        tuple(row["name"] for row in rows),
        min(times, default=None),
        max(times, default=None),
        address,
        minutes,
    )


def clock(moment: float | None) -> str:
    """A join's time of day as the console says it (``?`` when the seat has none)."""
    return "?" if moment is None else time.strftime("%H:%M:%S", time.localtime(moment))


def group_line(lang: Language, group: Group) -> str:
    """One group as the dialog offers it: who, how many, when, and a few names (as typed)."""
    _ = lang
    names = ", ".join(group.names[:NAMES_SHOWN]) + ("…" if len(group.names) > NAMES_SHOWN else "")
    count = len(group.pids)
    if group.address is not None:
        return _.n_(
            "From %(address)s: %(count)s player, joined %(first)s to %(last)s (%(names)s)",
            "From %(address)s: %(count)s players, joined %(first)s to %(last)s (%(names)s)",
            count,
            address=group.address,
            first=clock(group.first),
            last=clock(group.last),
            names=names,
        )
    return _.n_(
        "Joined in the last %(minutes)s min: %(count)s player (%(names)s)",
        "Joined in the last %(minutes)s min: %(count)s players (%(names)s)",
        count,
        minutes=group.minutes,
        names=names,
    )


def removed_words(lang: Language, group: Group) -> str:
    """The notice once a group is removed."""
    _ = lang
    count = len(group.pids)
    if group.address is not None:
        return _.n_(
            "Removed %(count)s player who joined from %(address)s; u to undo.",
            "Removed %(count)s players who joined from %(address)s; u to undo.",
            count,
            address=group.address,
        )
    return _.n_(
        "Removed %(count)s player who joined in the last %(minutes)s min; u to undo.",
        "Removed %(count)s players who joined in the last %(minutes)s min; u to undo.",
        count,
        minutes=group.minutes,
    )
