"""The room's words: pure functions of the game master's view of the tournament."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.rules.core.words import plural

View = Mapping[str, Any]  # a view of the rules (companion.rules.dilemma.views), read by key
NO_ANSWER = "no answer"


def waiting_text(names: list[str], room: int) -> str:
    """Who has not chosen, in at most ``room`` characters with the words around it (two lines
    of the status): as many names as fit, then how many more."""
    room -= len("Waiting for . Press c to close the round now.")
    shown: list[str] = []
    for i, name in enumerate(names):
        more = len(names) - i - 1
        tail = f" and {more} more" if more else ""
        if shown and len(", ".join([*shown, name])) + len(tail) > room:
            return ", ".join(shown) + f" and {len(names) - len(shown)} more"
        shown.append(name)
    return ", ".join(shown)


def cut(text: str, width: int) -> str:
    """``text`` in at most ``width`` characters, an ellipsis where it was cut."""
    return text if len(text) <= width else text[: width - 1] + "…"


def last_round(v: View, pairs: int = 12, width: int = 18) -> str:
    """The last revealed round: up to ``pairs`` pairs (the board and phones show them all)."""
    last = v["last"]
    if last is None:
        return "No round revealed yet."
    closed = " (time ran out)" if last["timed_out"] else " (closed early)"
    lines = [f"Round {last['number']}{closed if last['closed_early'] else ''}:"]
    shown = last["outcomes"][:pairs]

    def word(o: View, side: str) -> str:  # no answer is said, not shown as silent
        if not o[f"answered_{side}"]:
            return NO_ANSWER
        return "silent" if o[f"choice_{side}"] == "silent" else "BETRAY"

    words = max((len(word(o, side)) for o in shown for side in "ab"), default=6)
    width -= words - 6  # the name gives way to a longer word
    for o in shown:  # a pair on two lines, choices and months aligned
        lines.append(f" {cut(o['a'], width):<{width}} {word(o, 'a'):<{words}} {o['months_a']:>2}m")
        lines.append(
            f"   vs {cut(o['b'], width - 5):<{width - 5}} "
            f"{word(o, 'b'):<{words}} {o['months_b']:>2}m"
        )
    more = len(last["outcomes"]) - pairs
    if more > 0:
        lines.append(f" and {plural(more, 'more pair')} (on the board)")
    if last["sitting_out"]:
        lines.append(f" out: {', '.join(last['sitting_out'])}")
    if v["cooperation"]:
        rates = "  ".join(f"R{r['round']} {round(100 * r['rate'])}%" for r in v["cooperation"])
        lines.append(f"Silent: {rates}")
        unanswered = [r for r in v["cooperation"] if r["no_answer"]]
        if unanswered:
            counts = "  ".join(f"R{r['round']} {r['no_answer']}" for r in unanswered)
            lines.append(f"No answer: {counts}")
    return "\n".join(lines)


def leaders(v: View, names: int = 20, width: int = 18) -> str:
    """The leaderboard: up to ``names`` players, least months first."""
    if not v["cooperation"]:
        return "The leaderboard starts after the first round."
    lines = ["Leaderboard (least months):"]
    for row in v["leaderboard"][:names]:
        rank = f"{row['rank']:>2}" if row["rank"] else " –"
        lines.append(f"{rank}. {cut(row['name'], width):<{width}} {row['months']:>4}")
    more = len(v["leaderboard"]) - names
    if more > 0:
        lines.append(f"    and {more} more")
    return "\n".join(lines)


def sentences_text(s: View) -> str:
    """The scenario's sentences, as a player weighs them before choosing."""
    return (
        f"Both silent: {plural(s['both_silent'], 'month')} each.\n"
        f"Both betray: {plural(s['both_betray'], 'month')} each.\n"
        f"One betrays, one stays silent: the betrayer serves {plural(s['betrayer'], 'month')}, "
        f"the silent one {plural(s['betrayed'], 'month')}."
    )
