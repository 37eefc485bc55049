"""The HTML pages: a seat's private page, the board and the join form.

Every page is rendered by Jinja2 with autoescaping from one view (never from the raw state);
the live parts (``part_*.html``) are what the browser swaps in when the game changes.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import lru_cache
from typing import Any, TypeVar

import jinja2
from markupsafe import Markup

from companion.language import N_, Language, available, language
from companion.rules.prison import news
from companion.rules.prison.phrases import STATUS_WORDS
from companion.rules.prison.room import RevealView
from companion.rules.prison.room import shown as shown_now
from companion.rules.prison.views import PublicDay
from companion.session.prison.seats import Seat, board_url, join_url
from companion.web.common.rendering import make_environment, qr_svg, render
from companion.web.prison.epilogue import board_epilogue, own_epilogue
from companion.web.prison.phones import BoardView, NightContext, SeatView, room_version

PHASE_TITLES = {
    "planning": N_("Planning"),
    "interviews": N_("Interviews"),
    "search": N_("The search"),
    "accusations": N_("Accusations"),
    "over": N_("Game over"),
}
# What is happening while the game master steps through a search's reveal.
REVEALING = N_("The search: the game master reveals it to the room, step by step.")
# A private page left untouched this long puts its cover back (a phone put down on the table).
COVER_AFTER_SECONDS = 30


def clock_text(seconds: float) -> str:
    """Seconds left as the countdowns show them: 4:05, 0:09 (rounded up: 0:00 is the end)."""
    whole = max(0, int(-(-seconds // 1)))
    return f"{whole // 60}:{whole % 60:02d}"


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    env = make_environment(
        "companion.web.prison",
        status_news=news.STATUS_NEWS,
        status_labels=STATUS_WORDS,
        phase_titles=PHASE_TITLES,
        outcome_news=news.news,
        winners=news.winners,
        reveal_heads=news.REVEAL_HEADS,
        clock_text=clock_text,
    )
    # the templates ship with the package: every stream renders at every change, and asking
    # the disk whether each template (and each one it includes) changed was a tenth of that
    env.auto_reload = False
    return env


def warm_up(night: NightContext | None = None) -> None:
    """Compile every template before the server listens, so that the first phone of the rush
    does not wait for them (a third of a second, more on a busy laptop). With ``night``,
    also render once, in every language, a prisoner's page, the warden's and the board's
    part, so that no phone waits for a first render's caches either (a first load costs
    five times another: 13 ms against 2.5 ms at 50 phones)."""
    env = environment()
    for name in env.list_templates(extensions=["html"]):
        env.get_template(name)
    if night is None:
        return
    seats = night.seats()
    wanted = [next((s for s in seats if s.role == role), None) for role in ("prisoner", "warden")]
    for code in available():
        lang = language(code)
        for seat in wanted:
            if seat is not None:
                render_seat_page(night.seat_view(seat), seat, lang, room_version(night.session))
        render_board_part(night.board_view(), night.base_url, lang, night.wifi_name())


def outcome_words(_: Language, outcome: str | None, winners: list[str]) -> str:
    """How the game ended, and who won (:func:`companion.rules.prison.news.announced`)."""
    return _.say(news.announced(outcome, winners))


def reveal_lines(
    reveal: RevealView | None, lang: Language | None = None
) -> list[tuple[str, str, str]]:
    """The steps of a search's reveal the room has been shown, each as (step, headline,
    sentence), said in ``lang``: what the board shows in large type, one by one."""
    _ = lang or language()
    if reveal is None:
        return []
    return [
        (step, _.say(head), _.say(line) if line is not None else "")
        for step, head, line in news.reveal_lines(reveal)
    ]


def results(day: PublicDay, lang: Language | None = None) -> list[str]:
    """A day's public results in plain sentences (from a view's ``today`` or ``history``)."""
    _ = lang or language()
    return [_.say(line) for line in news.results(day)]


def now_words(view: Mapping[str, Any], lang: Language | None = None) -> str:
    """What is happening now, for the person holding this view."""
    _ = lang or language()
    me = view.get("me", {})
    phase = view["phase"]
    if phase == "over":
        winners = view["winners"]
        if me:
            return _.say(news.yours(view["outcome"], won=me.get("name") in winners))
        return _.say(news.news(view["outcome"]))
    if me.get("role") == "prisoner" and me.get("status") != "active":
        return _(
            "You are %(status)s. Watch the others finish the game.",
            status=_.say(news.STATUS_NEWS[me["status"]]),
        )
    warden = me.get("role") == "warden"
    if phase == "planning":
        if warden:
            return _("Planning: the prisoners plan and choose in secret. Wait outside.")
        if me:
            return _(
                "Planning: talk with the others, then choose WORK or REST for tonight. "
                "You can change your mind until the game master closes planning."
            )
        return _("Planning: the prisoners plan, then each chooses in secret on their phone.")
    if phase == "interviews":
        if warden:
            left = view["deals_left_today"]
            if left:
                return _.n_(
                    "Interviews: see each prisoner in private. You may give %(count)s more "
                    "parole token today. Searching a cell ends them.",
                    "Interviews: see each prisoner in private. You may give %(count)s more "
                    "parole tokens today. Searching a cell ends them.",
                    left,
                )
            return _(
                "Interviews: see each prisoner in private. You have made all of today's deals. "
                "Searching a cell ends them."
            )
        return _("Interviews: the warden sees each prisoner in private.")
    if phase == "search":
        if warden:
            return _("The search: pick the next cell to search.")
        return _("The search: the warden is searching the cells.")
    if me.get("role") == "prisoner" and me["shivs"] and me["accusations_left"]:
        return _(
            "Accusations: you hold a shiv and may accuse someone of collaborating "
            "(tell the game master)."
        )
    return _("Accusations: prisoners holding a shiv may accuse someone of collaborating.")


K = TypeVar("K")
T = TypeVar("T")

_KEPT = 256  # parts kept in each cache below (the oldest made goes first)
_RESULTS: dict[tuple[object, ...], Markup] = {}  # the lower parts made, by what they show
_HEADS: dict[tuple[object, ...], Markup] = {}  # prisoners' own cards and stages, likewise


def kept(cache: dict[K, T], key: K, make: Callable[[], T]) -> T:
    """What ``make()`` makes for ``key`` (a part, a message), made once while it is kept (the
    ``_KEPT`` made last)."""
    part = cache.get(key)
    if part is None:
        if len(cache) >= _KEPT:
            cache.pop(next(iter(cache)))
        part = cache[key] = make()
    return part


def _results_part(view: SeatView | BoardView, today: list[str], yesterday: list[str],
                  lang: Language) -> Markup:
    """The nights bar, the results and the roster (_results.html), rendered once for every
    phone that shows the same in the same language (the roster makes it the costly part with
    many prisoners). What it shows is told by a tuple of what the template reads (its JSON
    text, sorted, was a fifth of a prisoner's part at 50 prisoners)."""
    whole: Mapping[str, Any] = view
    now = shown_now(view)
    statuses, tokens = now["statuses"], whole.get("parole_tokens")
    roster = tuple(
        (p["name"], statuses[p["name"]], p["shivs"], None if tokens is None else tokens[p["name"]])
        for p in view["prisoners"]
    )
    key = (
        lang.code, view["phase"], now["nights"], view["nights_to_escape"], view["outcome"],
        tuple(view["winners"]), roster, tokens is not None, tuple(today), tuple(yesterday),
    )

    def make() -> Markup:
        shown: dict[str, Any] = {
            "phase": view["phase"], "nights": now["nights"],
            "nights_to_escape": view["nights_to_escape"], "outcome": view["outcome"],
            "winners": view["winners"], "prisoners": view["prisoners"], "statuses": statuses,
        }
        if tokens is not None:
            shown["parole_tokens"] = tokens
        return Markup(render(
            environment(), "_results.html", lang, v=shown, today_results=today,
            yesterday_results=yesterday,
        ))

    return kept(_RESULTS, key, make)


def _prisoner_head(common: dict[str, Any], lang: Language) -> Markup:
    """A prisoner's own card, the verdict and the stage (_prisoner_head.html): half of their
    part, and the same before and after their choice (which the card below them shows). Found by
    the JSON text of what it reads: the prisoner's own part but their choice, the phase, the
    rules, the winners, the stage and the reveal's lines."""
    view, stage = common["v"], common["st"]
    me = {k: v for k, v in view["me"].items() if k != "choice"}
    shown = [me, view["phase"], view["rules"], view["winners"], stage, common["reveal_lines"]]
    key = (lang.code, json.dumps(shown, ensure_ascii=False))
    return kept(
        _HEADS, key, lambda: Markup(render(environment(), "_prisoner_head.html", lang, **common))
    )


def _common(view: SeatView | BoardView, lang: Language) -> dict[str, object]:
    yesterday = view["history"][-1] if view["history"] else None
    today_results = results(view["today"], lang)
    yesterday_results = results(yesterday, lang) if yesterday else []
    stage = view["stage"]
    held = stage["reveal"] is not None and stage["reveal"]["held"]
    return {
        "v": view,
        "st": stage,
        "phase_title": lang(PHASE_TITLES["search" if held else view["phase"]]),
        "now": lang(REVEALING) if held else now_words(view, lang),
        "reveal_lines": reveal_lines(stage["reveal"], lang),
        "today_results": today_results,
        "yesterday_results": yesterday_results,
        "results_part": _results_part(view, today_results, yesterday_results, lang),
        "outcome_text": outcome_words(lang, view.get("outcome"), view.get("winners") or []),
    }


def render_seat_part(view: SeatView, seat: Seat, lang: Language | None = None) -> str:
    """The live part of a seat's page, from that seat's view only."""
    lang = lang or language()
    own = own_epilogue(view["me"], lang)
    common = _common(view, lang)
    if seat.role == "warden":
        name = "part_warden.html"
        return render(environment(), name, lang, **common, seat_name=seat.name, own=own)
    # their status as the room has been shown it: CAUGHT as soon as a held reveal says so
    me: Mapping[str, Any] = view["me"]
    common["my_status"] = shown_now(view)["statuses"].get(me["name"], me.get("status"))
    head = _prisoner_head(common, lang)
    return render(
        environment(), "part_prisoner.html", lang, **common, seat_name=seat.name, own=own, head=head
    )


def render_progress(view: Mapping[str, Any], lang: Language | None = None) -> str:
    """The line "k of n prisoners have chosen tonight" of a view, as plain text (what a page
    shows in its ``progress`` element)."""
    text = render(environment(), "_progress.html", lang or language(), v=view)
    return Markup(text).unescape()


@lru_cache(maxsize=4)
def join_qr(join: str) -> Markup:
    return Markup(qr_svg(join, scalable=True))


@lru_cache(maxsize=64)
def _board_footer(key: str, code: str) -> Markup:
    """The board's nights bar and roster, rendered once for as long as they show the same in
    the same language (a choice changes the count above them, not them)."""
    view, shown = json.loads(key)
    return Markup(render(environment(), "_board_footer.html", language(code), v=view, shown=shown))


def render_board_part(
    view: BoardView, base: str | None, lang: Language | None = None, wifi: str | None = None
) -> str:
    """The board's live part; ``wifi``: the venue's network's name, whose code
    (``/wifi.svg``) is shown beside the join code."""
    lang = lang or language()
    join = join_url(base) if base else "/join"
    shown = shown_now(view)
    footer = {"nights_to_escape": view["nights_to_escape"], "prisoners": view["prisoners"]}
    key = json.dumps([footer, shown], sort_keys=True)
    return render(
        environment(), "part_board.html", lang, **_common(view, lang), shown=shown,
        join=join, qr=join_qr(join), board_footer=_board_footer(key, lang.code), wifi=wifi,
        epilogue=board_epilogue(view["epilogue"], lang),
        took_back=lang.say(news.taken_back(view["taken_back"])) if view["taken_back"] else None,
    )


def render_seat_page(
    view: SeatView, seat: Seat, lang: Language | None = None, version: int | None = None
) -> str:
    """A seat's whole page; its live part tells the ``version`` it shows (``data-version``)."""
    lang = lang or language()
    return render(
        environment(),
        "seat.html",
        lang,
        seat_name=seat.name,
        role=seat.role,
        token=seat.token,
        part=render_seat_part(view, seat, lang),
        cover_after=COVER_AFTER_SECONDS,
        version=version,
    )


def render_board_page(
    view: BoardView,
    base: str | None,
    lang: Language | None = None,
    version: int | None = None,
    wifi: str | None = None,
) -> str:
    lang = lang or language()
    return render(
        environment(), "board.html", lang, part=render_board_part(view, base, lang, wifi),
        board=board_url(base) if base else "/board", version=version,
    )


def render_join(message: str | None = None, code: str = "", lang: Language | None = None) -> str:
    lang = lang or language()
    return render(environment(), "join.html", lang, message=message, code=code)


def render_problem(message: str, lang: Language | None = None) -> str:
    lang = lang or language()
    return render(environment(), "problem.html", lang, message=message)
