"""The tournament's results to take home (pure: the files are written by the command line).

- :func:`rows`: one row per player per revealed round, people and the house player alike:
  round, player, partner, choice (``silent``, ``betray``, ``no answer``, or ``missed`` for a
  round a player took no part in), months, and whether the player and the partner are the
  house player. A person's months add up to their total on the leaderboard.
- :func:`md`: a name as a Markdown table cell (the summary in the reader's language is
  :mod:`companion.rules.dilemma.summary`'s phrases).
"""

from __future__ import annotations

from typing import TypedDict

from companion.rules.core.export import markdown_text, spreadsheet_cell
from companion.rules.dilemma.state import DilemmaState, Round, is_house

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
    """A name as a spreadsheet shows it, never as a formula (see :func:`spreadsheet_cell`)."""
    return spreadsheet_cell(name)


def md(name: str) -> str:
    """A name in Markdown, in a table or not, shown as typed (see :func:`markdown_text`)."""
    return markdown_text(name)


def rows(state: DilemmaState, *, spreadsheet: bool = False) -> list[ResultRow]:
    """The rows; with ``spreadsheet``, names are made safe to open in a spreadsheet."""
    out: list[ResultRow] = []
    for r in state.rounds:
        if not r.revealed:
            continue

        def n(pid: str, r: Round = r) -> str:  # the house as it played this round
            name = state.seat_name(r, pid)
            return cell(name) if spreadsheet else name

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
