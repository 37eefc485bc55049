"""The console's words: banners, spoiler-free descriptions, the timeline and the debrief report.

Pure functions of the views in :mod:`companion.rules.prison.views` (and of command dicts from
the log), so they can be tested without a terminal and never see anything a view hides.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from companion.rules.core.words import joined, plural

View = Mapping[str, Any]  # a view of the rules (companion.rules.prison.views), read by key

PHASE_TITLES = {
    "planning": "Planning",
    "interviews": "Interviews",
    "search": "Search",
    "accusations": "Accusations",
    "over": "Game over",
}

OUTCOME_TITLES = {
    "escape": "The prisoners escaped",
    "parole": "A prisoner was paroled",
    "all_caught": "No prisoner is left: the warden wins",
    "time_up": "Time is up: the warden wins",
}


@dataclass(frozen=True)
class Banner:
    title: str
    say: str  # what the game master says aloud
    do: str  # what the game master does next (with the keys)


def names(items: list[str]) -> str:
    """Names as the console says them: ``Ada, Ben and Cy``, or ``nobody``."""
    return joined(items, "nobody")


def nights_count(done: int, total: int) -> str:
    """``4 of 6``; the last night's work may take the count past the target (two prisoners
    working when one night was left): the target reached is ``6 of 6``, never ``7 of 6``."""
    return f"{min(done, total)} of {total}"


def nights_words(done: int, total: int) -> str:
    """The count, with the nights worked beyond the target said in words."""
    count = nights_count(done, total)
    if done <= total:
        return count
    return f"{count} (they worked {plural(done - total, 'night')} more than they needed)"


def nights_bar(done: int, total: int, width: int = 12) -> str:
    """``■■■■□□ 4 of 6``; long games are drawn to scale in at most ``width`` squares."""
    shown = min(done, total)
    if total <= width:
        full, cells = shown, total
    else:
        full, cells = round(shown * width / total), width
    return "■" * full + "□" * (cells - full) + f" {nights_count(done, total)}"


def night_work(day: View) -> str:
    """Who worked on a revealed night, from the public day: a prisoner caught in a search
    worked too (the search says so in front of everyone), so a night with a catch is never
    "nobody worked"."""
    workers = list(day["workers"])
    caught = [s["prisoner"] for s in day["searches"] if s["caught"]]
    if not caught:
        return f"{names(workers)} worked" if workers else "nobody worked"
    was = "was" if len(caught) == 1 else "were"
    if workers:
        return f"{names(workers)} worked, and {names(caught)} {was} caught working"
    return f"{names(caught)} {was} caught working and nobody else worked"


def not_interviewed(view: View) -> list[str]:
    return list(view["not_interviewed"])


def unsearched(view: View) -> list[str]:
    return list(view["unsearched"])


def searches_left(view: View) -> int:
    return int(view["searches_left"])


def can_accuse(view: View) -> list[str]:
    """Who may still accuse today: active, holding a shiv, under the daily limit."""
    return list(view["may_accuse"])


def outcome_line(view: View) -> str:
    outcome = view["outcome"]
    if outcome is None:
        return ""
    return f"{OUTCOME_TITLES[outcome]}. Winners: {names(list(view['winners']))}."


def banner(view: View, inside: str | None = None) -> Banner:
    """What the game master says and does now, from the game master's (sealed) view;
    ``inside``: the prisoner in with the warden now (the stage's), if any."""
    phase = view["phase"]
    day = view["day"]
    title = f"Day {day} · {PHASE_TITLES[phase]}"
    active = view["active"]
    if phase == "planning":
        chosen = len(view["submitted"])
        return Banner(
            title,
            "“Warden, please leave the room. Prisoners: plan together, then each of you "
            "make your secret choice.”",
            f"C: enter a player's choice in private. {chosen} of {len(active)} have chosen. "
            "X: close planning. M: a time limit.",
        )
    if phase == "interviews":
        # Never today's count of deals: with the order of interviews in view, the count
        # would tell the room who took one (the private view shows it).
        queue = not_interviewed(view)
        if not queue:
            return Banner(
                title,
                "“Warden, the interviews are over: search a cell.”",
                "S: search a cell.",
            )
        back = "" if view["today"]["interviewed"] else "Warden, please come back. "
        if inside is not None:
            return Banner(
                title,
                f"“{back}{inside}, please come in.”",
                f"{inside} is with the warden. The interview's keys: D deal, N no deal, "
                "P pause, + extend.",
            )
        return Banner(
            title,
            f"“{back}{queue[0]}, please come in.”",
            "I: interview (countdown, then deal or no deal). "
            "S: search a cell (ends the interviews).",
        )
    if phase == "search":
        more = searches_left(view)
        return Banner(
            title,
            f"“Warden, search {plural(more, 'more cell')}.”",
            "S: pick the next cell to search.",
        )
    if phase == "accusations":
        worked = night_work(view["today"])
        accusers = can_accuse(view)
        hint = "A: record an accusation. " if accusers else "Nobody can accuse any more. "
        invite = " Anyone with a shiv may accuse someone." if accusers else ""
        return Banner(
            title,
            f"“Tonight {worked}: {nights_count(view['nights_done'], view['nights_to_escape'])} "
            f"nights done.{invite}”",
            hint + "E: end the day.",
        )
    return Banner(
        f"Day {day} · Game over",
        f"“{outcome_line(view)}”",
        "H: history and the full story. R: export the report. Ctrl+Z: take back the last move.",
    )


def describe_command(command: dict[str, Any]) -> str:
    """A spoiler-free description of a logged command: never a choice or a deal."""
    do = command.get("do")
    if do == "choose":
        return f"{command['prisoner']}'s secret choice"
    if do == "close_planning":
        return "closing planning"
    if do == "interview":
        return f"{command['prisoner']}'s interview"
    if do == "search":
        return f"the search of {command['prisoner']}'s cell"
    if do == "accuse":
        return f"{command['accuser']}'s accusation of {command['accused']}"
    if do == "end_day":
        return "ending the day"
    return str(do)


def _day_lines(day: View, *, full: bool) -> list[str]:
    lines = [f"Day {day['day']}"]
    if full and "choices" in day:
        chose = ", ".join(f"{n}: {c}" for n, c in day["choices"].items()) or "no choices"
        lines.append(f"  choices: {chose}")
    if day["interviewed"]:
        lines.append(f"  interviewed: {', '.join(day['interviewed'])}")
    if full and "deals" in day:
        lines.append(f"  deals: {names(day['deals'])}")
    for s in day["searches"]:
        lines.append(f"  search: {s['prisoner']}'s cell, {'CAUGHT' if s['caught'] else 'safe'}")
    if day["revealed"]:
        nights = plural(len(day["workers"]), "night")
        lines.append(f"  night: {night_work(day)} (+{nights})")
    for a in day["accusations"]:
        lines.append(f"  accusation: {a['accuser']} accused {a['accused']}: {a['result']}")
    return lines


Extras = Sequence[tuple[int, str]]  # (day, line): corrections and notes from the log


def _extras_of(day: View, extras: Extras, last: int) -> list[str]:
    """The extras of ``day``; the last day also takes those of days taken back since."""
    number = day["day"]
    return [line for on, line in extras if on == number or (number == last and on > last)]


def timeline(view: View, story: Sequence[View] | None, extras: Extras) -> list[str]:
    """The game day by day: public facts only, unless ``story`` (after the game) is given;
    each day's corrections and notes under it."""
    lines: list[str] = []
    days = story if story is not None else [*view["history"], view["today"]]
    last = days[-1]["day"] if days else 0
    for day in days:
        lines += _day_lines(day, full=story is not None)
        lines += [f"  {line}" for line in _extras_of(day, extras, last)]
    if view["outcome"]:
        lines.append(outcome_line(view))
    return lines


def story_markdown(session_name: str, view: View, story: Sequence[View], extras: Extras) -> str:
    """The debrief report as Markdown: every night's choices and every deal, and where each
    prisoner ended (``view`` is the game master's, so the parole tokens are in it)."""
    out = [f"# {session_name}: the prison break", ""]
    out.append(
        f"Warden: {view['warden']}. Prisoners: {names([p['name'] for p in view['prisoners']])}."
    )
    out.append("")
    out.append(f"**{outcome_line(view)}**" if view["outcome"] else "The game is not over.")
    out.append(f"Nights of work: {nights_words(view['nights_done'], view['nights_to_escape'])}.")
    out.append("")
    tokens = view["parole_tokens"]
    out.append("| prisoner | status | parole tokens | shivs |")
    out.append("| --- | --- | --- | --- |")
    for p in view["prisoners"]:
        out.append(f"| {p['name']} | {p['status']} | {tokens.get(p['name'], 0)} | {p['shivs']} |")
    last = story[-1]["day"] if story else 0
    for day in story:
        out.append("")
        out.append(f"## Day {day['day']}")
        out.append("")
        for line in _day_lines(day, full=True)[1:]:
            out.append(f"- {line.strip()}")
        out += [f"- {line}" for line in _extras_of(day, extras, last)]
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


def wrong_links(body: dict[str, Any], *, paused: bool) -> str:
    """A ``bad_tokens`` note (an address that reached the limit of wrong links) in words."""
    seconds = body.get("seconds")
    window = (
        "a minute"
        if seconds in (None, 60)
        else f"{seconds:g} seconds"
        if isinstance(seconds, (int, float))
        else "a minute"
    )
    text = f"Wrong links from {body.get('address', 'an unknown address')}: "
    text += f"{body.get('count', 'too many')} in {window}"
    return text + ("; that device is paused" if paused else "")


def note_line(body: Mapping[str, Any], at: str) -> str | None:
    """A note of the log as the history and the report say it (``None``: not worth a line)."""
    what = body.get("what")
    if what == "peek":
        return "The game master peeked at the sealed choices."
    if what == "seat_reissued":
        return f"{body.get('seat')}'s seat was reissued (new link and code)."
    if what == "address_pinned":
        url = body.get("url")
        return (
            f"The players' links were pinned to {url}."
            if url
            else "The players' links were unpinned (the served address again)."
        )
    if what == "bad_tokens":
        try:
            when = datetime.fromisoformat(at).astimezone().strftime("%H:%M")
        except ValueError:
            when = "?"
        text = wrong_links(dict(body), paused=False)
        return f"At {when}, {text[0].lower()}{text[1:]}; that device was paused."
    return None


def wrong_link_lines(
    notes: Iterable[tuple[float, dict[str, Any]]], now: float, *, earlier: bool, limit: int = 4
) -> list[str]:
    """The latest ``bad_tokens`` note of each address (given as (unix time, body)), newest
    first: "paused" while its window lasts; older ones only when ``earlier``, with their time."""
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
            lines.append(wrong_links(body, paused=True))
        elif earlier:
            when = datetime.fromtimestamp(at).strftime("%H:%M")
            text = wrong_links(body, paused=False)
            lines.append(f"At {when}, {text[0].lower()}{text[1:]}; that device was paused")
    return lines[:limit]
