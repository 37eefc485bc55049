"""What a terminal can show of long work: a progress bar on stderr (games done, their rate, the
time left), and results as tables that fit the terminal's width. Rich (which comes with
Textual) is imported only here, and only when a terminal is there to show it; piped, the
commands print their Markdown as before."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Literal, Protocol

if TYPE_CHECKING:
    from rich.console import Console


class Progress(Protocol):
    def games(self, count: int) -> None: ...
    def step(self) -> None: ...
    def say(self, what: str) -> None: ...


class _Silent:
    def say(self, what: str) -> None:
        pass

    def games(self, count: int) -> None:
        pass

    def step(self) -> None:
        pass


def wants_table(markdown: bool = False) -> bool:
    """Whether results go out as a terminal's table: stdout is a terminal and not --markdown."""
    return not markdown and sys.stdout.isatty()


@contextmanager
def progress(what: str, steps: int, unit: str) -> Iterator[Progress]:
    """A progress bar on stderr while the block runs, when stderr is a terminal (else nothing):
    ``steps`` of ``unit`` (sizes, games) to do, with the games played, games a second and the
    time left. ``step()`` marks one step done, ``games(n)`` adds n games played."""
    if not sys.stderr.isatty():
        yield _Silent()
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        TextColumn,
        TimeRemainingColumn,
    )
    from rich.progress import Progress as Bar

    # Under 80 columns: "Balancing 4-12 ━━━━ 3/9 sizes · 12,400 games, 830/s · 0:01:10 left",
    # or counting games themselves: "Simulating 4 ━━━━ 1200/2000 games · 830/s · 0:00:01 left".
    counted = "{task.fields[rate]}" if unit == "games" else "{task.fields[played]} games, " \
        "{task.fields[rate]}"
    bar = Bar(
        TextColumn("{task.description}"), BarColumn(bar_width=12), MofNCompleteColumn(),
        TextColumn(unit), TextColumn(f"· {counted} ·"),
        TimeRemainingColumn(), TextColumn("left"),
        console=Console(stderr=True), transient=True,
    )

    class _Shown:
        def __init__(self) -> None:
            self.played = 0
            self.task = bar.add_task(what, total=steps, played="0", rate="…/s")

        def games(self, count: int) -> None:
            self.played += count
            elapsed = bar.tasks[0].elapsed or 0.0
            rate = f"{self.played / elapsed:,.0f}/s" if elapsed > 0 else "…/s"
            bar.update(self.task, played=f"{self.played:,}", rate=rate)
            if unit == "games":
                bar.update(self.task, completed=self.played)

        def step(self) -> None:
            bar.advance(self.task)

        def say(self, what: str) -> None:  # what the bar is busy with now, in a few words
            bar.update(self.task, description=what if len(what) <= 28 else what[:27] + "…")

    with bar:
        yield _Shown()


def running_total(bar: Progress) -> Callable[[int], None]:
    """A callback for work that reports its games done so far (not the games since the last
    call): it hands the bar only what is new. One such callback per run of games."""
    seen = 0

    def done(total: int) -> None:
        nonlocal seen
        bar.games(total - seen)
        seen = total

    return done


def console() -> Console:
    from rich.console import Console

    return Console(highlight=False, markup=False, emoji=False)


def print_tables(title: str, columns: Sequence[str], rows: Sequence[Sequence[str]],
                 *, key: int = 1, lead: Literal["left", "right"] = "right") -> None:
    """``rows`` as tables that fit the terminal: the first ``key`` columns lead every table
    (justified ``lead``: right for numbers, left for words), and the others fill the first
    table as far as each keeps its widest word whole, then a second one, and so on; cells and
    headings wrap within their column."""
    from rich.table import Table

    out = console()
    width = out.width

    def needs(i: int) -> int:  # the column's widest word, its padding and its border
        words = [w for text in (columns[i], *(r[i] for r in rows)) for w in text.split()]
        return max(map(len, words), default=1) + 3

    groups: list[list[int]] = []
    leading = list(range(key))
    for i in range(key, len(columns)):
        if groups and 1 + sum(needs(c) for c in groups[-1]) + needs(i) <= width:
            groups[-1].append(i)
        else:
            groups.append([*leading, i])
    def whole(i: int) -> int:  # the column's longest cell or heading, unwrapped
        return max(len(text) for text in (columns[i], *(r[i] for r in rows)))

    for number, names in enumerate(groups):
        table = Table(title=title if number == 0 else f"{title} (continued)",
                      title_justify="left")
        widths = {i: needs(i) - 3 for i in names}  # every word whole; then the room left over
        spare = width - 1 - sum(w + 3 for w in widths.values())
        for i in names:
            more = max(0, min(spare, whole(i) - widths[i]))
            widths[i] += more
            spare -= more
        for i in names:
            table.add_column(columns[i], overflow="fold", width=widths[i],
                             justify=lead if i < key else "left")
        for r in rows:
            table.add_row(*(r[i] for i in names))
        out.print(table, width=width)
