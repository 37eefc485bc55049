"""The notebook's charts as SVG, drawn by hand: for each figure, the real tables' rate and the
bots' as two bars with their 95% intervals as whiskers, on a 0-100% axis. Plain SVG 1.1 with the
fonts a browser or a Markdown viewer has; no libraries."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from companion.sim.stats import Rate

REAL, BOTS = "#c0392b", "#2c6fbb"
LABEL_W, BAR_W, RIGHT = 220, 420, 120
ROW_H, BAR_H, TOP = 46, 14, 58


def _x(rate: float) -> float:
    return LABEL_W + BAR_W * max(0.0, min(1.0, rate))


def _bar(y: float, rate: Rate, colour: str, caption: str) -> list[str]:
    if not rate.games:
        return [f'<text x="{LABEL_W + 4}" y="{y + BAR_H - 3}" class="note">no {caption}</text>']
    x1, lo, hi = _x(rate.rate), _x(rate.low), _x(rate.high)
    mid = y + BAR_H / 2
    return [
        f'<rect x="{LABEL_W}" y="{y}" width="{x1 - LABEL_W:.1f}" height="{BAR_H}" '
        f'fill="{colour}" fill-opacity="0.75"/>',
        f'<line x1="{lo:.1f}" y1="{mid}" x2="{hi:.1f}" y2="{mid}" stroke="#222" '
        'stroke-width="1.5"/>',
        f'<line x1="{lo:.1f}" y1="{y + 2}" x2="{lo:.1f}" y2="{y + BAR_H - 2}" stroke="#222"/>',
        f'<line x1="{hi:.1f}" y1="{y + 2}" x2="{hi:.1f}" y2="{y + BAR_H - 2}" stroke="#222"/>',
        f'<text x="{LABEL_W + BAR_W + 8}" y="{y + BAR_H - 3}" class="value">'
        f"{rate.rate:.0%} ({rate.hits}/{rate.games})</text>",
    ]


def rate_chart(title: str, rows: Sequence[tuple[str, Rate, Rate]], bots_label: str) -> str:
    """One chart: a row per figure (its label, the real tables' rate, the bots' rate)."""
    width = LABEL_W + BAR_W + RIGHT
    height = TOP + ROW_H * len(rows) + 34
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Arial, sans-serif">',
        "<style>text{font-size:12px;fill:#222}.title{font-size:15px;font-weight:bold}"
        ".label{font-size:13px}.note{font-style:italic;fill:#666}.tick{fill:#555}"
        ".value{font-size:11px}</style>",
        f'<rect width="{width}" height="{height}" fill="white"/>',
        f'<text x="10" y="22" class="title">{escape(title)}</text>',
        f'<rect x="{LABEL_W}" y="32" width="12" height="10" fill="{REAL}" fill-opacity="0.75"/>',
        f'<text x="{LABEL_W + 16}" y="41">real tables</text>',
        f'<rect x="{LABEL_W + 110}" y="32" width="12" height="10" fill="{BOTS}" '
        'fill-opacity="0.75"/>',
        f'<text x="{LABEL_W + 126}" y="41">{escape(bots_label)}</text>',
        f'<text x="{LABEL_W + BAR_W - 4}" y="41" text-anchor="end" class="note">'
        "whiskers: 95% interval</text>",
    ]
    bottom = TOP + ROW_H * len(rows)
    for tick in (0, 0.25, 0.5, 0.75, 1):
        x = _x(tick)
        out.append(f'<line x1="{x}" y1="{TOP - 6}" x2="{x}" y2="{bottom}" stroke="#ddd"/>')
        out.append(f'<text x="{x}" y="{bottom + 16}" text-anchor="middle" class="tick">'
                   f"{tick:.0%}</text>")
    for i, (label, real, bots) in enumerate(rows):
        y = TOP + ROW_H * i
        out.append(f'<text x="{LABEL_W - 10}" y="{y + BAR_H + 6}" text-anchor="end" '
                   f'class="label">{escape(label)}</text>')
        out += _bar(y, real, REAL, "real games")
        out += _bar(y + BAR_H + 4, bots, BOTS, "bot games")
    out.append("</svg>")
    return "\n".join(out) + "\n"
