"""The table of ``companion balance`` results, as Markdown (one row as each size is done) or as CSV
(``--csv``): the recommendation, how surely it beats its runner-up, and the base scenario's own
numbers measured at the same size, side by side."""

from __future__ import annotations

import csv
import io
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.sim.balance import SizeResult
    from companion.sim.stats import Rate

HEADER = (
    "| prisoners | nights to escape | parole tokens to win | team escapes (95% interval) "
    "| parole | all caught | time up | mean days | games | runner-up: nights, tokens, escapes "
    "| closer than the runner-up by (99.7% interval) | designers' nights, tokens "
    "| designers' escapes (95% interval) | games searched |"
)
RULE = "|" + " --- |" * HEADER.count(" | ") + " --- |"


def _interval(r: Rate) -> str:
    return f"{r.rate:.1%} ({r.low:.1%}–{r.high:.1%})"


def _points(value: float) -> str:
    return f"{100 * value:+.1f}"


COLUMNS = [c.strip() for c in HEADER.strip("|").split(" | ")]


def row(result: SizeResult) -> str:
    """One Markdown row for one group size."""
    return "| " + " | ".join(cells(result)) + " |"


def cells(result: SizeResult) -> list[str]:
    """One group size's cells, one for each of :data:`COLUMNS`."""
    r = result.rates()
    b = result.best
    out = [
        str(result.prisoners), str(b.nights), str(b.tokens), _interval(r["escape"]),
        f"{r['parole'].rate:.1%}", f"{r['all_caught'].rate:.1%}", f"{r['time_up'].rate:.1%}",
        f"{b.tally.days / b.tally.games:.2f}", str(b.tally.games),
    ]
    up, m = result.runner_up, result.margin
    out.append(f"{up.nights}, {up.tokens}, {up.escape.rate:.1%}" if up else "none")
    if m is None:
        out.append("")
    else:
        verdict = "settled" if result.settled else "a tie"
        out.append(f"{_points(m.gap)} ({_points(m.low)} to {_points(m.high)}): {verdict}")
    d = result.designers
    out += [f"{d.nights}, {d.tokens}", _interval(d.escape)] if d else ["", ""]
    out.append(str(result.games))
    return out


CSV_COLUMNS = [
    "prisoners", "nights_to_escape", "parole_tokens_to_win", "games", "escape", "escape_low",
    "escape_high", "parole", "all_caught", "time_up", "mean_days", "settled",
    "runner_up_nights", "runner_up_tokens", "runner_up_escape", "runner_up_games",
    "closer_by", "closer_by_low", "closer_by_high", "designers_nights", "designers_tokens",
    "designers_escape", "designers_escape_low", "designers_escape_high", "designers_games",
    "games_searched",
]


def csv_row(result: SizeResult) -> dict[str, object]:
    """One CSV row: rates as fractions (0.5 is half the games), differences of rates too."""
    r = result.rates()
    b, up, m, d = result.best, result.runner_up, result.margin, result.designers
    esc = r["escape"]
    return {
        "prisoners": result.prisoners,
        "nights_to_escape": b.nights,
        "parole_tokens_to_win": b.tokens,
        "games": b.tally.games,
        "escape": round(esc.rate, 4),
        "escape_low": round(esc.low, 4),
        "escape_high": round(esc.high, 4),
        "parole": round(r["parole"].rate, 4),
        "all_caught": round(r["all_caught"].rate, 4),
        "time_up": round(r["time_up"].rate, 4),
        "mean_days": round(b.tally.days / b.tally.games, 2),
        "settled": "yes" if result.settled else "no",
        "runner_up_nights": up.nights if up else "",
        "runner_up_tokens": up.tokens if up else "",
        "runner_up_escape": round(up.escape.rate, 4) if up else "",
        "runner_up_games": up.tally.games if up else "",
        "closer_by": round(m.gap, 4) if m else "",
        "closer_by_low": round(m.low, 4) if m else "",
        "closer_by_high": round(m.high, 4) if m else "",
        "designers_nights": d.nights if d else "",
        "designers_tokens": d.tokens if d else "",
        "designers_escape": round(d.escape.rate, 4) if d else "",
        "designers_escape_low": round(d.escape.low, 4) if d else "",
        "designers_escape_high": round(d.escape.high, 4) if d else "",
        "designers_games": d.tally.games if d else "",
        "games_searched": result.games,
    }


def as_csv(results: list[SizeResult]) -> str:
    out = io.StringIO()
    # Lines end in CRLF, as RFC 4180 has them and as every CSV the app writes.
    writer = csv.DictWriter(out, CSV_COLUMNS, lineterminator="\r\n")
    writer.writeheader()
    for result in results:
        writer.writerow(csv_row(result))
    return out.getvalue()
