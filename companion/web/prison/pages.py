"""The HTML pages: a seat's private page, the board and the join form.

Every page is rendered by Jinja2 with autoescaping from one view (never from the raw state);
the live parts (``part_*.html``) are what the browser swaps in when the game changes.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

import jinja2
from aiohttp import web
from markupsafe import Markup

from companion.rules.core.words import joined, plural
from companion.session.seats import Seat, board_url, join_url
from companion.web.common.context import Problem, read_form
from companion.web.common.rendering import PRIVATE_HEADERS, html, make_environment, qr_svg
from companion.web.prison.phones import BoardView, SeatView, phones_of

STATUS_WORDS = {
    "active": "in the game",
    "caught": "caught working and out of the game",
    "shived": "shived and out of the game",
    "paroled": "paroled",
    "escaped": "escaped",
}
PHASE_TITLES = {
    "planning": "Planning",
    "interviews": "Interviews",
    "search": "The search",
    "accusations": "Accusations",
    "over": "Game over",
}
# What is happening while the game master steps through a search's reveal.
REVEALING = "The search: the game master reveals it to the room, step by step."
# A private page left untouched this long puts its cover back (a phone put down on the table).
COVER_AFTER_SECONDS = 30
OUTCOME_WORDS = {
    "escape": "The prisoners escaped!",
    "parole": "A prisoner was paroled: the game is over.",
    "all_caught": "No prisoner is left: the warden wins.",
    "time_up": "Time is up: the warden wins.",
}


def clock_text(seconds: float) -> str:
    """Seconds left as the countdowns show them: 4:05, 0:09 (rounded up: 0:00 is the end)."""
    whole = max(0, int(-(-seconds // 1)))
    return f"{whole // 60}:{whole % 60:02d}"


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    return make_environment(
        "companion.web.prison",
        status_words=STATUS_WORDS,
        phase_titles=PHASE_TITLES,
        outcome_words=OUTCOME_WORDS,
        clock_text=clock_text,
    )


def reveal_lines(reveal: Mapping[str, Any] | None) -> list[tuple[str, str, str]]:
    """The steps of a search's reveal the room has been shown, each as (step, headline,
    sentence): what the board shows in large type, one by one."""
    if reveal is None:
        return []
    name = reveal["prisoner"]
    lines = []
    for step in reveal["shown"]:
        if step == "search":
            lines.append((step, f"The warden searches {name}'s cell…", ""))
        elif step == "result" and reveal["caught"]:
            lines.append(("caught", "CAUGHT", f"{name} was working: out of the game."))
        elif step == "result":
            lines.append(("safe", "SAFE", f"{name} was not working."))
        elif step == "night":
            workers = reveal["workers"] or []
            if workers:
                nights = plural(reveal["nights_added"] or 0, "night")
                lines.append((step, f"{joined(workers)} worked tonight", f"{nights} of work."))
            else:
                lines.append((step, "Nobody worked tonight", "No night of work was done."))
        elif step == "outcome":
            winners = reveal["winners"]
            words = OUTCOME_WORDS.get(reveal["outcome"] or "", "The game is over.")
            if winners:
                words += f" Winners: {joined(winners)}."
            lines.append((step, "GAME OVER", words))
    return lines


def shown_now(view: Mapping[str, Any]) -> dict[str, Any]:
    """The nights and the prisoners' statuses as the room has been shown them: while a reveal
    is held, the view is the game before the search, and its shown steps tell the rest."""
    reveal = view["stage"]["reveal"]
    nights = view["nights_done"]
    statuses = {p["name"]: p["status"] for p in view["prisoners"]}
    if reveal is not None and reveal["held"]:
        nights += reveal["nights_added"] or 0
        if reveal["caught"]:
            statuses[reveal["prisoner"]] = "caught"
    return {"nights": nights, "statuses": statuses}


def results(day: Mapping[str, Any]) -> list[str]:
    """A day's public results in plain sentences (from a view's ``today`` or ``history``)."""
    lines = []
    for s in day["searches"]:
        how = "was caught working" if s["caught"] else "was safe"
        lines.append(f"The warden searched {s['prisoner']}'s cell: {s['prisoner']} {how}.")
    if day["revealed"]:
        workers = day["workers"]
        if workers:
            nights = plural(day["nights_added"], "night")
            lines.append(f"{joined(workers)} worked: {nights} of work done.")
        else:
            lines.append("Nobody worked successfully: no night of work was done.")
    for a in day["accusations"]:
        if a["result"] == "shived":
            lines.append(f"{a['accuser']} accused {a['accused']}, who had parole tokens: shived.")
        else:
            lines.append(f"{a['accuser']} accused {a['accused']}, who had none: a shiv passed.")
    return lines


def now_words(view: Mapping[str, Any]) -> str:
    """What is happening now, for the person holding this view."""
    me = view.get("me", {})
    phase = view["phase"]
    if phase == "over":
        winners = view["winners"]
        text = OUTCOME_WORDS.get(view["outcome"] or "", "The game is over.")
        if me.get("name") in winners:
            text += " You win."
        elif me:
            text += " You lose."
        return text
    if me.get("role") == "prisoner" and me.get("status") != "active":
        return f"You are {STATUS_WORDS[me['status']]}. Watch the others finish the game."
    warden = me.get("role") == "warden"
    if phase == "planning":
        if warden:
            return "Planning: the prisoners plan and choose in secret. Wait outside."
        if me:
            return (
                "Planning: talk with the others, then choose WORK or REST for tonight. "
                "You can change your mind until the game master closes planning."
            )
        return "Planning: the prisoners plan, then each chooses in secret on their phone."
    if phase == "interviews":
        if warden:
            left = view["deals_left_today"]
            may = (
                f"You may give {plural(left, 'more parole token')} today."
                if left
                else "You have made all of today's deals."
            )
            return f"Interviews: see each prisoner in private. {may} Searching a cell ends them."
        return "Interviews: the warden sees each prisoner in private."
    if phase == "search":
        if warden:
            return "The search: pick the next cell to search."
        return "The search: the warden is searching the cells."
    if me.get("role") == "prisoner":
        if me["shivs"] and me["accusations_left"]:
            return (
                "Accusations: you hold a shiv and may accuse someone of collaborating "
                "(tell the game master)."
            )
        return "Accusations: prisoners holding a shiv may accuse someone of collaborating."
    return "Accusations: prisoners holding a shiv may accuse someone of collaborating."


# What the shared lower part of every page (_results.html) reads from a view.
_RESULTS_KEYS = (
    "phase",
    "nights_done",
    "nights_to_escape",
    "outcome",
    "winners",
    "prisoners",
    "parole_tokens",
)


@lru_cache(maxsize=256)
def _results_part(key: str) -> Markup:
    """The nights bar, the results and the roster, rendered once for every phone that shows
    the same (the roster makes it the costly part with many prisoners)."""
    view, today, yesterday = json.loads(key)
    part = (
        environment()
        .get_template("_results.html")
        .render(v=view, today_results=today, yesterday_results=yesterday)
    )
    return Markup(part)


def _common(view: Mapping[str, Any]) -> dict[str, object]:
    yesterday = view["history"][-1] if view["history"] else None
    today_results = results(view["today"])
    yesterday_results = results(yesterday) if yesterday else []
    shown = {k: view[k] for k in _RESULTS_KEYS if k in view}
    shown.update(shown_now(view))
    key = json.dumps([shown, today_results, yesterday_results], sort_keys=True)
    stage = view["stage"]
    held = stage["reveal"] is not None and stage["reveal"]["held"]
    return {
        "v": view,
        "st": stage,
        "phase_title": PHASE_TITLES["search" if held else view["phase"]],
        "now": REVEALING if held else now_words(view),
        "reveal_lines": reveal_lines(stage["reveal"]),
        "today_results": today_results,
        "yesterday_results": yesterday_results,
        "results_part": _results_part(key),
    }


def render_seat_part(view: SeatView, seat: Seat) -> str:
    """The live part of a seat's page, from that seat's view only."""
    name = "part_warden.html" if seat.role == "warden" else "part_prisoner.html"
    return environment().get_template(name).render(**_common(view), seat_name=seat.name)


@lru_cache(maxsize=4)
def join_qr(join: str) -> Markup:
    return Markup(qr_svg(join, scalable=True))


def render_board_part(view: BoardView, base: str | None) -> str:
    join = join_url(base) if base else "/join"
    return (
        environment()
        .get_template("part_board.html")
        .render(**_common(view), shown=shown_now(view), join=join, qr=join_qr(join))
    )


def render_seat_page(view: SeatView, seat: Seat) -> str:
    return (
        environment()
        .get_template("seat.html")
        .render(
            seat_name=seat.name,
            role=seat.role,
            token=seat.token,
            part=render_seat_part(view, seat),
            cover_after=COVER_AFTER_SECONDS,
        )
    )


def render_board_page(view: BoardView, base: str | None) -> str:
    return (
        environment()
        .get_template("board.html")
        .render(part=render_board_part(view, base), board=board_url(base) if base else "/board")
    )


def render_join(message: str | None = None, code: str = "") -> str:
    return environment().get_template("join.html").render(message=message, code=code)


def render_problem(message: str) -> str:
    return environment().get_template("problem.html").render(message=message)


async def seat_page(request: web.Request) -> web.Response:
    phones = phones_of(request)
    seat = phones.seat_for(request, request.match_info["token"])
    return html(render_seat_page(phones.seat_view(seat), seat))


async def seat_part(request: web.Request) -> web.Response:
    phones = phones_of(request)
    seat = phones.seat_for(request, request.match_info["token"])
    return html(render_seat_part(phones.seat_view(seat), seat))


async def board_page(request: web.Request) -> web.Response:
    phones = phones_of(request)
    return html(render_board_page(phones.board_view(), phones.base_url), private=False)


async def board_part(request: web.Request) -> web.Response:
    phones = phones_of(request)
    return html(render_board_part(phones.board_view(), phones.base_url), private=False)


async def join_page(request: web.Request) -> web.Response:
    return html(render_join(), private=False)


async def join_submit(request: web.Request) -> web.Response:
    phones = phones_of(request)
    form = await read_form(request)
    code = str(form.get("code", ""))[:40]
    try:
        seat = phones.seat_for_code(request, code)
    except Problem as paused:  # on the join form, where the code is typed again
        return html(render_join(paused.message, code), status=paused.status, private=False)
    if seat is None:
        message = (
            "That seat code is not known; check the 8 letters and digits on your card "
            "and try again."
        )
        return html(render_join(message, code), status=404, private=False)
    raise web.HTTPSeeOther(f"/p/{seat.token}", headers=PRIVATE_HEADERS)


async def home(request: web.Request) -> web.Response:
    raise web.HTTPFound("/join")


def problem_page(problem: Problem) -> web.Response:
    return html(render_problem(problem.message), status=problem.status, private=False)

