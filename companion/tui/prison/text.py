"""The console's words: banners, spoiler-free descriptions, the timeline and the debrief report.

Pure functions of the views in :mod:`companion.rules.prison.views` (and of command dicts from
the log), so they can be tested without a terminal and never see anything a view hides.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from companion.language import N_, Language, language
from companion.rules.core.export import markdown_text
from companion.tui.common.guesses import wrong_links as guessed
from companion.tui.common.guesses import wrong_words

View = Mapping[str, Any]  # a view of the rules (companion.rules.prison.views), read by key

PHASE_TITLES = {
    "planning": N_("Planning"),
    "interviews": N_("Interviews"),
    "search": N_("Search"),
    "accusations": N_("Accusations"),
    "over": N_("Game over"),
}

OUTCOME_TITLES = {
    "escape": N_("The prisoners escaped"),
    "parole": N_("A prisoner was paroled"),
    "all_caught": N_("No prisoner is left: the warden wins"),
    "time_up": N_("Time is up: the warden wins"),
}

# A prisoner's status, an accusation's result and a secret choice, as the console says them.
STATUS_WORDS = {
    "active": N_("active"),
    "caught": N_("caught"),
    "shived": N_("shived"),
    "paroled": N_("paroled"),
    "escaped": N_("escaped"),
}
RESULT_WORDS = {"shived": N_("shived"), "shiv passed": N_("shiv passed")}
CHOICE_WORDS = {"work": N_("work"), "rest": N_("rest")}


def _lang(lang: Language | None) -> Language:
    return lang if lang is not None else language()


def said(words: Mapping[str, str], value: str, lang: Language | None = None) -> str:
    """``value`` (a status, a result, a choice) in words, translated; unknown ones as they
    are."""
    return _lang(lang)(words[value]) if value in words else value


@dataclass(frozen=True)
class Banner:
    title: str
    say: str  # what the game master says aloud
    do: str  # what the game master does next (with the keys)


def names(items: list[str], lang: Language | None = None) -> str:
    """Names as the console says them: ``Ada, Ben and Cy``, or ``nobody``."""
    _ = _lang(lang)
    return _.joined(items, _("nobody"))


def nights_count(done: int, total: int, lang: Language | None = None) -> str:
    """``4 of 6``; the last night's work may take the count past the target (two prisoners
    working when one night was left): the target reached is ``6 of 6``, never ``7 of 6``."""
    _ = _lang(lang)
    return _("%(done)s of %(total)s", done=_.number(min(done, total)), total=_.number(total))


def nights_words(done: int, total: int, lang: Language | None = None) -> str:
    """The count, with the nights worked beyond the target said in words."""
    _ = _lang(lang)
    count = nights_count(done, total, _)
    if done <= total:
        return count
    return _.n_(
        "%(nights)s (they worked %(count)s night more than they needed)",
        "%(nights)s (they worked %(count)s nights more than they needed)",
        done - total,
        nights=count,
    )


def nights_bar(done: int, total: int, width: int = 12, lang: Language | None = None) -> str:
    """``■■■■□□ 4 of 6``; long games are drawn to scale in at most ``width`` squares."""
    shown = min(done, total)
    if total <= width:
        full, cells = shown, total
    else:
        full, cells = round(shown * width / total), width
    return "■" * full + "□" * (cells - full) + f" {nights_count(done, total, lang)}"


def night_work(day: View, lang: Language | None = None) -> str:
    """Who worked on a revealed night, from the public day: a prisoner caught in a search
    worked too (the search says so in front of everyone), so a night with a catch is never
    "nobody worked"."""
    _ = _lang(lang)
    workers = list(day["workers"])
    caught = [s["prisoner"] for s in day["searches"] if s["caught"]]
    # (the names first: a nested ``_`` would hide the plural from the catalog tools)
    who, whom = names(workers, _), names(caught, _)
    worked = _.n_("%(names)s worked", "%(names)s worked", len(workers), names=who)
    if not caught:
        return worked if workers else _("nobody worked")
    were = _.n_(
        "%(names)s was caught working",
        "%(names)s were caught working",
        len(caught),
        names=whom,
    )
    if workers:
        return _("%(worked)s, and %(caught)s", worked=worked, caught=were)
    return _("%(caught)s and nobody else worked", caught=were)


def not_interviewed(view: View) -> list[str]:
    return list(view["not_interviewed"])


def unsearched(view: View) -> list[str]:
    return list(view["unsearched"])


def searches_left(view: View) -> int:
    return int(view["searches_left"])


def can_accuse(view: View) -> list[str]:
    """Who may still accuse today: active, holding a shiv, under the daily limit."""
    return list(view["may_accuse"])


def outcome_line(view: View, lang: Language | None = None) -> str:
    _ = _lang(lang)
    outcome = view["outcome"]
    if outcome is None:
        return ""
    return _(
        "%(outcome)s. Winners: %(winners)s.",
        outcome=_(OUTCOME_TITLES[outcome]),
        winners=names(list(view["winners"]), _),
    )


def day_title(day: int, phase: str, lang: Language | None = None) -> str:
    """``Day 3 · Interviews``."""
    _ = _lang(lang)
    return _("Day %(day)s · %(phase)s", day=day, phase=_(PHASE_TITLES[phase]))


def banner(view: View, inside: str | None = None, lang: Language | None = None) -> Banner:
    """What the game master says and does now, from the game master's (sealed) view;
    ``inside``: the prisoner in with the warden now (the stage's), if any."""
    _ = _lang(lang)
    phase = view["phase"]
    day = view["day"]
    title = day_title(day, phase, _)
    active = view["active"]
    if phase == "planning":
        chosen = len(view["submitted"])
        return Banner(
            title,
            _(
                "“Warden, please leave the room. Prisoners: plan together, then each of you "
                "make your secret choice.”"
            ),
            _.n_(
                "C: enter a player's choice in private. %(chosen)s of %(count)s has chosen. "
                "X: close planning. M: a time limit.",
                "C: enter a player's choice in private. %(chosen)s of %(count)s have chosen. "
                "X: close planning. M: a time limit.",
                len(active),
                chosen=_.number(chosen),
            ),
        )
    if phase == "interviews":
        # Never today's count of deals: with the order of interviews in view, the count
        # would tell the room who took one (the private view shows it).
        queue = not_interviewed(view)
        if not queue:
            return Banner(
                title,
                _("“Warden, the interviews are over: search a cell.”"),
                _("S: search a cell."),
            )
        first = not view["today"]["interviewed"]
        if inside is not None:
            return Banner(
                title,
                _("“Warden, please come back. %(name)s, please come in.”", name=inside)
                if first
                else _("“%(name)s, please come in.”", name=inside),
                _(
                    "%(name)s is with the warden. The interview's keys: D deal, N no deal, "
                    "P pause, + extend.",
                    name=inside,
                ),
            )
        return Banner(
            title,
            _("“Warden, please come back. %(name)s, please come in.”", name=queue[0])
            if first
            else _("“%(name)s, please come in.”", name=queue[0]),
            _(
                "I: interview (countdown, then deal or no deal). "
                "S: search a cell (ends the interviews)."
            ),
        )
    if phase == "search":
        more = searches_left(view)
        return Banner(
            title,
            _.n_(
                "“Warden, search %(count)s more cell.”",
                "“Warden, search %(count)s more cells.”",
                more,
            ),
            _("S: pick the next cell to search."),
        )
    if phase == "accusations":
        worked = night_work(view["today"], _)
        accusers = can_accuse(view)
        hint = (
            _("A: record an accusation. E: end the day.")
            if accusers
            else _("Nobody can accuse any more. E: end the day.")
        )
        done = nights_count(view["nights_done"], view["nights_to_escape"], _)
        return Banner(
            title,
            _(
                "“Tonight %(worked)s: %(nights)s nights done. Anyone with a shiv may accuse "
                "someone.”",
                worked=worked,
                nights=done,
            )
            if accusers
            else _("“Tonight %(worked)s: %(nights)s nights done.”", worked=worked, nights=done),
            hint,
        )
    return Banner(
        day_title(day, "over", _),
        _("“%(outcome)s”", outcome=outcome_line(view, _)),
        _("H: history and the full story. R: export the report. Ctrl+Z: take back the last move."),
    )


def describe_command(command: dict[str, Any], lang: Language | None = None) -> str:
    """A spoiler-free description of a logged command: never a choice or a deal."""
    _ = _lang(lang)
    do = command.get("do")
    if do == "choose":
        return _("%(name)s's secret choice", name=command["prisoner"])
    if do == "close_planning":
        return _("closing planning")
    if do == "interview":
        return _("%(name)s's interview", name=command["prisoner"])
    if do == "search":
        return _("the search of %(name)s's cell", name=command["prisoner"])
    if do == "accuse":
        return _(
            "%(accuser)s's accusation of %(accused)s",
            accuser=command["accuser"],
            accused=command["accused"],
        )
    if do == "end_day":
        return _("ending the day")
    return str(do)


Extras = Sequence[tuple[int, float, str]]  # (day, where in the history, line): the log's notes
Record = Sequence[View]  # the rules' record (companion.rules.prison.views.record)
_WHO = ("prisoner", "accuser", "accused")  # a move's names

# The end of a game as a correction or an undo's question names it, inside a sentence.
ENDED_WORDS = {
    "escape": N_("the prisoners escaped"),
    "parole": N_("a prisoner was paroled"),
    "all_caught": N_("no prisoner was left: the warden won"),
    "time_up": N_("time was up: the warden won"),
}


def record_lines(record: Record, lang: Language | None = None) -> list[tuple[int, float, str]]:
    """The moves taken back, each marked where it was made, and each correction where the
    game master made it, from the rules' record: (day, where in the history, line)."""
    _ = _lang(lang)
    out: list[tuple[int, float, str]] = []
    for row in record:
        if not row["undone"]:
            continue
        move = describe_command(row["move"], _)
        if row["kind"] == "move":
            out.append((row["day"], row["seq"], _("%(move)s (taken back)", move=move)))
        elif row["ended"]:
            out.append(
                (
                    row["day"],
                    row["seq"],
                    _(
                        "Correction: the game master took back %(move)s, and with it the end "
                        "of the game (%(ended)s).",
                        move=move,
                        ended=said(ENDED_WORDS, row["ended"], _),
                    ),
                )
            )
        else:
            out.append(
                (
                    row["day"],
                    row["seq"],
                    _("Correction: the game master took back %(move)s.", move=move),
                )
            )
    return out


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
        chose = ", ".join(
            f"{n}: {said(CHOICE_WORDS, c, _)}" for n, c in day["choices"].items()
        ) or _("no choices")
        items.append((at("close_planning", 0), "", _("choices: %(choices)s", choices=chose)))
    for i, name in enumerate(day["interviewed"]):
        items.append((at("interview", i), "interview", name))
    if full and "deals" in day:
        after = max([where for where, kind, _line in items] or [_NOWHERE])
        items.append((after, "", _("deals: %(names)s", names=names(day["deals"], _))))
    for i, s in enumerate(day["searches"]):
        line = (
            _("search: %(name)s's cell, CAUGHT", name=s["prisoner"])
            if s["caught"]
            else _("search: %(name)s's cell, safe", name=s["prisoner"])
        )
        items.append((at("search", i), "", line))
    if day["revealed"]:
        nights = _.n_("%(count)s night", "%(count)s nights", len(day["workers"]))
        line = _("night: %(work)s (+%(nights)s)", work=night_work(day, _), nights=nights)
        items.append((at("search", len(day["searches"]) - 1), "", line))
    for i, a in enumerate(day["accusations"]):
        line = _(
            "accusation: %(accuser)s accused %(accused)s: %(result)s",
            accuser=a["accuser"],
            accused=a["accused"],
            result=said(RESULT_WORDS, a["result"], _),
        )
        items.append((at("accuse", i), "", line))
    items += [(where, "", line) for where, line in sorted(extras, key=lambda e: e[0])]
    if record:  # in the order of the history (the sort is stable: ties keep the day's order)
        items.sort(key=lambda item: item[0])
    lines = [_("Day %(day)s", day=day["day"])]
    run: list[str] = []  # interviews one after another: one line
    for _where, kind, line in [*items, (0.0, "end", "")]:
        if kind == "interview":
            run.append(line)
            continue
        if run:
            lines.append("  " + _("interviewed: %(names)s", names=", ".join(run)))
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
    _ = _lang(lang)
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
) -> str:
    """The debrief report as Markdown: every night's choices and every deal, and where each
    prisoner ended (``view`` is the game master's, so the parole tokens are in it). Names are
    shown as typed (see :func:`markdown_text`), never as links, images or emphasis."""
    _ = _lang(lang)
    typed = {view["warden"], *(p["name"] for p in view["prisoners"])}
    view = _literal_names(view, typed)
    story = [_literal_names(day, typed) for day in story]
    record = [
        {**row, "move": {k: markdown_text(v) if k in _WHO else v for k, v in row["move"].items()}}
        for row in record
    ]
    out = [_("# %(session)s: the prison break", session=markdown_text(session_name)), ""]
    out.append(
        _(
            "Warden: %(warden)s. Prisoners: %(prisoners)s.",
            warden=view["warden"],
            prisoners=names([p["name"] for p in view["prisoners"]], _),
        )
    )
    out.append("")
    out.append(f"**{outcome_line(view, _)}**" if view["outcome"] else _("The game is not over."))
    out.append(
        _(
            "Nights of work: %(nights)s.",
            nights=nights_words(view["nights_done"], view["nights_to_escape"], _),
        )
    )
    out.append("")
    tokens = view["parole_tokens"]
    out.append(_("| prisoner | status | parole tokens | shivs |"))
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
        out.append("## " + _("Day %(day)s", day=day["day"]))
        out.append("")
        lines = _day_lines(
            day, full=True, lang=_, record=record, extras=_extras_of(day, extras, last)
        )
        out += [f"- {line.strip()}" for line in lines[1:]]
    return "\n".join(out) + "\n"


def parse_duration(text: str) -> int | None:
    """Seconds from ``90``, ``1:30`` or ``2m``; ``None`` if it is not a duration."""
    text = text.strip().lower()
    try:
        if ":" in text:
            minutes, seconds = text.split(":", 1)
            value = int(minutes) * 60 + int(seconds)
        elif text.endswith("m"):
            value = int(text[:-1]) * 60
        else:
            value = int(text.removesuffix("s"))
    except ValueError:
        return None
    return value if 10 <= value <= 3600 else None


def clock(seconds: int) -> str:
    seconds = max(0, seconds)
    return f"{seconds // 60}:{seconds % 60:02d}"


def wrong_links(body: dict[str, Any], *, paused: bool, lang: Language | None = None) -> str:
    """A ``bad_tokens`` note (an address that reached the limit of wrong links) in words."""
    return guessed(body, paused=paused, lang=_lang(lang))


def _earlier(body: Mapping[str, Any], when: str, lang: Language) -> str:
    _ = lang
    return _(
        "At %(time)s, wrong links from %(address)s: %(count)s in %(window)s; that device was "
        "paused",
        time=when,
        **wrong_words(body, _),
    )


def note_line(body: Mapping[str, Any], at: str, lang: Language | None = None) -> str | None:
    """A note of the log as the history and the report say it (``None``: not worth a line)."""
    _ = _lang(lang)
    what = body.get("what")
    if what == "peek":
        return _("The game master peeked at the sealed choices.")
    if what == "seat_reissued":
        return _("%(seat)s's seat was reissued (new link and code).", seat=body.get("seat"))
    if what == "address_pinned":
        url = body.get("url")
        return (
            _("The players' links were pinned to %(url)s.", url=url)
            if url
            else _("The players' links were unpinned (the served address again).")
        )
    if what == "bad_tokens":
        try:
            when = datetime.fromisoformat(at).astimezone().strftime("%H:%M")
        except ValueError:
            when = "?"
        return _earlier(body, when, _) + "."
    return None


def wrong_link_lines(
    notes: Iterable[tuple[float, dict[str, Any]]],
    now: float,
    *,
    earlier: bool,
    limit: int = 4,
    lang: Language | None = None,
) -> list[str]:
    """The latest ``bad_tokens`` note of each address (given as (unix time, body)), newest
    first: "paused" while its window lasts; older ones only when ``earlier``, with their time."""
    _ = _lang(lang)
    latest: dict[str, tuple[float, dict[str, Any]]] = {}
    for at, body in notes:
        address = str(body.get("address"))
        if address not in latest or at >= latest[address][0]:
            latest[address] = (at, body)
    lines = []
    for at, body in sorted(latest.values(), key=lambda item: -item[0]):
        seconds = body.get("seconds")
        window = float(seconds) if isinstance(seconds, (int, float)) else 60.0
        if now - at < window:
            lines.append(wrong_links(body, paused=True, lang=_))
        elif earlier:
            when = datetime.fromtimestamp(at).strftime("%H:%M")
            lines.append(_earlier(body, when, _))
    return lines[:limit]
