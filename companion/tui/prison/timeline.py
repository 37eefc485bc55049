"""The history and the debrief report: each day's lines in the order things happened, the
moves taken back and the corrections, the log's notes where they were written.

Pure functions of the rules' views and record (:mod:`companion.rules.prison.views`): every
line is a phrase of the rules (:mod:`companion.rules.prison.phrases`), said in the console's
language, names as typed (in the report, as literal Markdown).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from companion.language import Language
from companion.rules.core.export import markdown_text
from companion.rules.prison import phrases
from companion.rules.prison.epilogue import EpilogueView
from companion.rules.prison.epilogue_phrases import step_phrases
from companion.tui.prison.text import (
    STATUS_WORDS,
    View,
    caught,
    outcome_line,
    said,
    spoken,
)

Extras = Sequence[tuple[int, float, str]]  # (day, where in the history, line): the log's notes
Record = Sequence[View]  # the rules' record (companion.rules.prison.views.record)
_WHO = ("prisoner", "accuser", "accused")  # a move's names


def record_lines(record: Record, lang: Language | None = None) -> list[tuple[int, float, str]]:
    """The moves taken back, each marked where it was made, and each correction where the
    game master made it, from the rules' record: (day, where in the history, line)."""
    _ = spoken(lang)
    return [
        (
            row["day"],
            row["seq"],
            _.say(phrases.taken_back(row["move"], row["ended"], correction=row["kind"] != "move")),
        )
        for row in record
        if row["undone"]
    ]


def _extras_of(day: View, extras: Extras, last: int) -> list[tuple[float, str]]:
    """The extras of ``day``; the last day also takes those of days taken back since."""
    number = day["day"]
    return [
        (at, line) for on, at, line in extras if on == number or (number == last and on > last)
    ]


_NOWHERE = -1.0  # a line whose move the record does not give: in the order of the day's facts


def _day_lines(
    day: View,
    *,
    full: bool,
    lang: Language,
    record: Record = (),
    extras: Sequence[tuple[float, str]] = (),
) -> list[str]:
    """A day's lines in the order things happened: each fact where the move that made it
    stands in the record (without a record, in the day's order), the extras where they were
    made."""
    _ = lang
    standing = [r for r in record if r["kind"] == "move" and not r["undone"]]
    standing = [r for r in standing if r["day"] == day["day"]]

    def at(do: str, index: int) -> float:
        """Where the ``index``-th standing ``do`` of the day is in the history."""
        seqs = [float(r["seq"]) for r in standing if r["move"]["do"] == do]
        return seqs[index] if index < len(seqs) else _NOWHERE

    items: list[tuple[float, str, str]] = []  # (where, kind, line); kind "interview" merges
    if full and "choices" in day:
        items.append((at("close_planning", 0), "", _.say(phrases.choices(day["choices"]))))
    for i, name in enumerate(day["interviewed"]):
        items.append((at("interview", i), "interview", name))
    if full and "deals" in day:
        after = max([where for where, kind, _line in items] or [_NOWHERE])
        items.append((after, "", _.say(phrases.deals(day["deals"]))))
    for i, s in enumerate(day["searches"]):
        items.append((at("search", i), "", _.say(phrases.search(s["prisoner"], s["caught"]))))
    if day["revealed"]:
        line = _.say(phrases.night(list(day["workers"]), caught(day)))
        items.append((at("search", len(day["searches"]) - 1), "", line))
    for i, a in enumerate(day["accusations"]):
        line = _.say(phrases.accusation(a["accuser"], a["accused"], a["result"]))
        items.append((at("accuse", i), "", line))
    items += [(where, "", line) for where, line in sorted(extras, key=lambda e: e[0])]
    if record:  # in the order of the history (the sort is stable: ties keep the day's order)
        items.sort(key=lambda item: item[0])
    lines = [_.say(phrases.day(day["day"]))]
    run: list[str] = []  # interviews one after another: one line
    for _where, kind, line in [*items, (0.0, "end", "")]:
        if kind == "interview":
            run.append(line)
            continue
        if run:
            lines.append("  " + _.say(phrases.interviewed(run)))
            run = []
        if kind != "end":
            lines.append("  " + line)
    return lines


def timeline(
    view: View,
    story: Sequence[View] | None,
    extras: Extras,
    lang: Language | None = None,
    record: Record = (),
) -> list[str]:
    """The game day by day, in the order things happened (``record``, the rules' record, says
    where each move stands and what was taken back): public facts only, unless ``story``
    (after the game) is given; the log's notes (``extras``) where they were written."""
    _ = spoken(lang)
    lines: list[str] = []
    days = story if story is not None else [*view["history"], view["today"]]
    last = days[-1]["day"] if days else 0
    extras = [*extras, *record_lines(record, _)]
    for day in days:
        lines += _day_lines(
            day,
            full=story is not None,
            lang=_,
            record=record,
            extras=_extras_of(day, extras, last),
        )
    if view["outcome"]:
        lines.append(outcome_line(view, _))
    return lines


def _literal_names(data: Any, typed: set[str]) -> Any:
    """``data`` (a view, a day of the story) with each of the ``typed`` names, wherever it is
    a whole text or a key, as literal Markdown."""
    if isinstance(data, str):
        return markdown_text(data) if data in typed else data
    if isinstance(data, dict):
        return {_literal_names(k, typed): _literal_names(v, typed) for k, v in data.items()}
    if type(data) in (list, tuple):
        return type(data)(_literal_names(item, typed) for item in data)
    return data


def story_markdown(
    session_name: str,
    view: View,
    story: Sequence[View],
    extras: Extras,
    lang: Language | None = None,
    record: Record = (),
    epilogue: EpilogueView | None = None,
) -> str:
    """The debrief report as Markdown: every night's choices and every deal, and where each
    prisoner ended (``view`` is the game master's, so the parole tokens are in it), then the
    ``epilogue`` as the room was told it, night by night. Names are shown as typed (see
    :func:`markdown_text`), never as links, images or emphasis."""
    _ = spoken(lang)
    typed = {view["warden"], *(p["name"] for p in view["prisoners"])}
    view = _literal_names(view, typed)
    story = [_literal_names(day, typed) for day in story]
    record = [
        {**row, "move": {k: markdown_text(v) if k in _WHO else v for k, v in row["move"].items()}}
        for row in record
    ]
    out = [_.say(phrases.report_title(markdown_text(session_name))), ""]
    out.append(_.say(phrases.cast(view["warden"], [p["name"] for p in view["prisoners"]])))
    out.append("")
    out.append(f"**{outcome_line(view, _)}**" if view["outcome"] else _.say(phrases.NOT_OVER))
    out.append(_.say(phrases.nights_of_work(view["nights_done"], view["nights_to_escape"])))
    out.append("")
    tokens = view["parole_tokens"]
    out.append(_.say(phrases.TABLE_HEADER))
    out.append("| --- | --- | --- | --- |")
    for p in view["prisoners"]:
        status = said(STATUS_WORDS, p["status"], _)
        out.append(f"| {p['name']} | {status} | {tokens.get(p['name'], 0)} | {p['shivs']} |")
    last = story[-1]["day"] if story else 0
    # the log's notes may name a player (a reissued seat): literal too, as every name here
    notes = [(on, at, markdown_text(line)) for on, at, line in extras]
    extras = [*notes, *record_lines(record, _)]
    for day in story:
        out.append("")
        out.append("## " + _.say(phrases.day(day["day"])))
        out.append("")
        lines = _day_lines(
            day, full=True, lang=_, record=record, extras=_extras_of(day, extras, last)
        )
        out += [f"- {line.strip()}" for line in lines[1:]]
    if epilogue is not None:
        told: EpilogueView = _literal_names(epilogue, typed)
        out += ["", "## " + _("What really happened")]
        for head, said_lines in step_phrases(told):
            out += ["", "### " + _.say(head), ""]
            out += [f"- {_.say(line)}" for line in said_lines]
    return "\n".join(out) + "\n"
