"""The tournament's results to take home (pure: the files are written by the command line).

- :func:`rows`: one row per player per revealed round, people and the house player alike:
  round, player, partner, choice (``silent``, ``betray``, ``no answer``, or ``missed`` for a
  round a player took no part in), months, and whether the player and the partner are the
  house player. A person's months add up to their total on the leaderboard.
- :func:`summary_markdown`: the leaderboard, the house player, silence round by round, the
  debrief and why, as Markdown.
"""

from __future__ import annotations

from typing import TypedDict

from companion.rules.dilemma.state import DilemmaState, is_house
from companion.rules.dilemma.views import board, missed_rule

COLUMNS = ("round", "player", "partner", "choice", "months", "house", "partner_house")


class ResultRow(TypedDict):
    round: int
    player: str
    partner: str
    choice: str
    months: int
    house: bool
    partner_house: bool


def cell(name: str) -> str:
    """A name as a spreadsheet shows it, never as a formula (a leading = + - @ is quoted)."""
    return "'" + name if name[:1] in ("=", "+", "-", "@") else name


def md(name: str) -> str:
    """A name inside a Markdown table."""
    return name.replace("|", "\\|")


def rows(state: DilemmaState, *, spreadsheet: bool = False) -> list[ResultRow]:
    """The rows; with ``spreadsheet``, names are made safe to open in a spreadsheet."""
    n = (lambda pid: cell(state.name(pid))) if spreadsheet else state.name
    out: list[ResultRow] = []
    for r in state.rounds:
        if not r.revealed:
            continue
        for o in r.outcomes:
            for me, other, choice, answered, months in (
                (o.a, o.b, o.choice_a, o.answered_a, o.months_a),
                (o.b, o.a, o.choice_b, o.answered_b, o.months_b),
            ):
                out.append(
                    {
                        "round": r.number,
                        "player": n(me),
                        "partner": n(other),
                        "choice": choice if answered else "no answer",
                        "months": months,
                        "house": is_house(me),
                        "partner_house": is_house(other),
                    }
                )
        for pid in (*r.sitting_out, *state.missed(r)):
            out.append(
                {
                    "round": r.number,
                    "player": n(pid),
                    "partner": "",
                    "choice": "missed",
                    "months": r.sitting_out_months,
                    "house": False,
                    "partner_house": False,
                }
            )
    return out


def summary_markdown(session_name: str, state: DilemmaState) -> str:
    v = board(state)
    out = [f"# {session_name}: the two-prisoner dilemma", ""]
    played = len(v["cooperation"])
    status = "over" if v["phase"] == "over" else "not over"
    out.append(
        f"{len(v['players'])} players, {played} of {v['rounds']} rounds played; "
        f"the tournament is {status}{' (ended early)' if v['ended_early'] else ''}."
    )
    s = v["sentences"]
    out.append("")
    out.append(
        f"Months: both silent {s['both_silent']} each, both betray {s['both_betray']} each, "
        f"a betrayer {s['betrayer']} and the partner betrayed {s['betrayed']}. "
        f"No answer served as {'silent' if s['no_answer'] == 'silent' else 'betraying'}. "
        + missed_rule(state)
    )
    out += ["", "## Leaderboard", "", "| # | player | months | rounds played | silent |"]
    out.append("| --- | --- | --- | --- | --- |")
    for row in v["leaderboard"]:
        rank = str(row["rank"]) if row["rank"] else "–"
        name = md(row["name"]) + ("" if row["present"] else " (left)")
        out.append(f"| {rank} | {name} | {row['months']} | {row['rounds']} | {row['silent']} |")
    house = v["house"]
    if house["rounds"]:
        out += [
            "",
            f"{house['name']}, the house player ({house['how']}), filled the empty seat in "
            f"{house['rounds']} rounds and served {house['months']} months; it is not ranked.",
        ]
    if v["cooperation"]:
        out += ["", "## Who stayed silent, round by round", ""]
        out += ["| round | silent | betrayed | no answer | silent share |"]
        out.append("| --- | --- | --- | --- | --- |")
        for c in v["cooperation"]:
            out.append(
                f"| {c['round']} | {c['silent']} | {c['betray']} | {c['no_answer']} | "
                f"{round(100 * c['rate'])}% |"
            )
    d = v["debrief"]
    if d is not None and d["seats"]:
        out += ["", "## Had a famous strategy sat in each seat", ""]
        out.append(
            "Each strategy replayed in every player's seat against the choices their partners "
            f"actually made. The players themselves served {d['people']:.1f} months each."
        )
        out += ["", "| strategy | how it plays | months each | rounds it served less |"]
        out.append("| --- | --- | --- | --- |")
        for strategy in d["strategies"]:
            out.append(
                f"| {strategy['name']} | {strategy['how']} | {strategy['months']:.1f} | "
                f"{strategy['ahead']} of {strategy['rounds']} |"
            )
    if v["explanation"]:
        out += ["", "## Why betray, and why not", "", v["explanation"]]
    return "\n".join(out) + "\n"
