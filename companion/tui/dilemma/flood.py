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
# A burst: joins no more than BURST_GAP seconds apart, at least BURST_JOINS of them from
# devices that each took two seats or more in it (a script with many addresses); a real
# player who joined in the middle of it, alone on their device, is not one of them.
BURST_GAP = 1.0
BURST_JOINS = 10
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
    devices: int | None = None  # a burst's: how many device addresses its joins came from


def flood_groups(roster: Sequence[View], origins: Mapping[str, Origin], now: float) -> list[Group]:
    """The groups a flood can be cleared by: each burst of joins (:func:`bursts`, the
    largest first), each address two or more present players joined from (the largest
    first), then each time window that holds someone (no window twice the same players; a
    burst from one address is offered as that address's group)."""
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
    seen: set[frozenset[str]] = {frozenset(group.pids) for group in groups}
    burst_groups = [g for g in bursts(present, origins) if frozenset(g.pids) not in seen]
    groups = burst_groups + groups
    seen = set()  # the windows are offered beside the groups, each once
    for minutes in WINDOWS:
        rows = [
            row
            for row in present
            if (joined := origins[row["pid"]].joined) is not None and joined >= now - 60 * minutes
        ]
        pids = frozenset(row["pid"] for row in rows)
        if rows and pids not in seen:
            seen.add(pids)
            groups.append(_group(f"last:{minutes}", rows, origins, minutes=minutes))
    return groups


def bursts(roster: Sequence[View], origins: Mapping[str, Origin]) -> list[Group]:
    """The bursts among the players present in ``roster``, the largest first: runs of joins
    at most :data:`BURST_GAP` apart, of which the seats of devices that took two or more in
    the run, when they are :data:`BURST_JOINS` or more."""
    timed = sorted(
        (
            (joined, i, row)
            for i, row in enumerate(roster)
            if row["present"]
            and (origin := origins.get(row["pid"])) is not None
            and (joined := origin.joined) is not None
            and origin.address is not None
        ),
        key=lambda item: (item[0], item[1]),
    )
    runs: list[list[View]] = []
    last: float | None = None
    for joined, _, row in timed:
        if last is None or joined - last > BURST_GAP:
            runs.append([])
        runs[-1].append(row)
        last = joined
    found: list[Group] = []
    for run in runs:
        per_device: dict[str | None, int] = {}
        for row in run:
            address = origins[row["pid"]].address
            per_device[address] = per_device.get(address, 0) + 1
        rows = [row for row in run if per_device[origins[row["pid"]].address] >= 2]
        if len(rows) >= BURST_JOINS:
            devices = len({origins[row["pid"]].address for row in rows})
            group = _group("", rows, origins)
            found.append(group._replace(key=f"burst:{group.first}", devices=devices))
    return sorted(found, key=lambda g: -len(g.pids))


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


def time_of_day(moment: float | None) -> str:
    """A join's time of day as the console says it (``?`` when the seat has none)."""
    return "?" if moment is None else time.strftime("%H:%M:%S", time.localtime(moment))


def group_line(lang: Language, group: Group) -> str:
    """One group as the dialog offers it: who, how many, when, and a few names (as typed)."""
    _ = lang
    names = ", ".join(group.names[:NAMES_SHOWN]) + ("…" if len(group.names) > NAMES_SHOWN else "")
    count = len(group.pids)
    if group.devices is not None:
        return _.n_(
            "A burst at %(first)s: %(count)s player from %(devices)s devices in %(seconds)s s "
            "(%(names)s)",
            "A burst at %(first)s: %(count)s players from %(devices)s devices in %(seconds)s s "
            "(%(names)s)",
            count,
            first=time_of_day(group.first),
            devices=group.devices,
            seconds=_.number(burst_seconds(group), 1),
            names=names,
        )
    if group.address is not None:
        return _.n_(
            "From %(address)s: %(count)s player, joined %(first)s to %(last)s (%(names)s)",
            "From %(address)s: %(count)s players, joined %(first)s to %(last)s (%(names)s)",
            count,
            address=group.address,
            first=time_of_day(group.first),
            last=time_of_day(group.last),
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
    if group.devices is not None:
        return _.n_(
            "Removed the burst's %(count)s player; u to undo.",
            "Removed the burst's %(count)s players; u to undo.",
            count,
        )
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


def burst_seconds(group: Group) -> float:
    """How long a burst lasted, from its first join to its last."""
    return (group.last or 0.0) - (group.first or 0.0)


def burst_news(lang: Language, group: Group) -> str:
    """What the console says as a burst happens."""
    _ = lang
    return _.n_(
        "A burst of joins: %(count)s player from %(devices)s devices in %(seconds)s s. "
        "X removes the burst's players in one step (u brings them back).",
        "A burst of joins: %(count)s players from %(devices)s devices in %(seconds)s s. "
        "X removes the burst's players in one step (u brings them back).",
        len(group.pids),
        devices=group.devices,
        seconds=_.number(burst_seconds(group), 1),
    )
