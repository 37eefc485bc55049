"""What the game master's phone shows: the console's game screen for a hand, phase by phase.

It shows what the console shows by default and nothing more: the table (who has chosen, who
is interviewed, the statuses and shivs), the stage (the running clock, who is in with the
warden, a held reveal as far as the room has seen it), and each move the console offers now
with the question the console asks before it (:mod:`companion.rules.prison.asked`: the same
sentences). Like the console, it never shows the sealed choices, the parole tokens or today's
deals (the console's peek and private view are the laptop's alone), and while a search's
reveal is held it shows the reveal only, as the console's reveal screen covers the day.
"""

from __future__ import annotations

import time
import zlib
from dataclasses import dataclass
from typing import Any

from companion.language import N_, Language
from companion.rules.core.game import Refused
from companion.rules.prison import asked, news, phrases
from companion.rules.prison.epilogue import epilogue_view
from companion.rules.prison.epilogue_phrases import step_phrases
from companion.rules.prison.room import stage_view
from companion.rules.prison.today import TODAY_WORDS, tonight
from companion.rules.prison.views import table
from companion.session.prison import PrisonSession
from companion.web.common.context import Presence
from companion.web.common.rendering import render
from companion.web.prison.pages import PHASE_TITLES, environment, reveal_lines

# What the room is shown by the next tap, step by step (the console's reveal screen says the
# same after "Space:").
NEXT_STEP = {
    "search": N_("Show the room “The warden searches %(name)s's cell…”"),
    "result": N_("Show the room whether %(name)s was working"),
    "night": N_("Show the room who worked tonight and the nights"),
    "outcome": N_("Show the room how the game ends"),
}
PLANNING_LIMITS = (120, 300, 600)  # the planning time limits offered (seconds)


@dataclass(frozen=True)
class Ask:
    """A confirmation: the console's title and question, and the tap that confirms."""

    title: str
    question: str
    yes: str


def _ask(lang: Language, pair: asked.Asked | None, yes: str) -> Ask | None:
    if pair is None:
        return None
    return Ask(lang.say(pair[0]), lang.say(pair[1]), yes)


def _undo(session: PrisonSession, lang: Language) -> dict[str, Any] | None:
    """The move an undo takes back now and the console's question about it."""
    _ = lang
    target = session.history.undo_target()
    if isinstance(target, Refused):
        return None
    pair = asked.undo_asked(session.room, session.history.entries, target.seq, on_phone=True)
    return {"hseq": target.seq, "ask": _ask(lang, pair, _("Undo"))}


def _held(session: PrisonSession, view: Any, lang: Language, now: float) -> dict[str, Any] | None:
    """The held reveal: what the room has seen of it, and what the next tap shows."""
    _ = lang
    reveal = session.room.held
    if reveal is None:
        return None
    seen = stage_view(session.room.stage, now)["reveal"]
    step = reveal.steps[reveal.shown]
    return {
        "head": _("The search of %(name)s's cell", name=reveal.prisoner),
        "lines": reveal_lines(seen, lang),
        "nothing_yet": reveal.shown == 0,
        "next": _(NEXT_STEP[step], name=reveal.prisoner),
    }


def _epilogue(session: PrisonSession, lang: Language) -> dict[str, Any] | None:
    _ = lang
    room = session.room
    view = epilogue_view(room.game, room.stage.epilogue)
    if view is None or room.held is not None:
        return None
    if view["shown"] == 0:
        count = lang.n_(
            "What really happened, in %(count)s step",
            "What really happened, in %(count)s steps",
            view["steps"],
        )
        head, lines = _("What really happened"), [
            _("The room has seen nothing yet: the board waits for you.")
        ]
    else:
        count = _(
            "What really happened: %(shown)s of %(steps)s",
            shown=view["shown"], steps=view["steps"],
        )
        said, told = step_phrases(view)[-1]
        head, lines = lang.say(said), [lang.say(line) for line in told]
    last = view["shown"] + 1 == view["steps"]
    return {
        "count": count, "head": head, "lines": lines, "held": view["held"],
        "next": _("Show the room how the game ends") if last
        else _("Show the room the next night"),
    }


def _time_up(session: PrisonSession, now: float) -> bool:
    """Planning's time limit reached: the console asks then, whoever has chosen."""
    planning = session.room.stage.planning
    return planning is not None and planning.remaining(now) <= 0


def today_said(word: str, lang: Language) -> str:
    """:func:`~companion.rules.prison.today.tonight`'s word as the console's Today column
    says it."""
    if word in ("escaped", "paroled"):
        return lang.pgettext("board today", word)
    if word in TODAY_WORDS:
        return lang.say(TODAY_WORDS[word])
    return lang.say(phrases.word(phrases.STATUS_WORDS, word))


def phone_said(seen: tuple[bool, float | None] | None, lang: Language) -> str:
    """A seat's phone as the console's board says it: connected, away since 21:04, or -."""
    _ = lang
    if seen is None or seen[1] is None:
        return "-"
    if seen[0]:
        return _("connected")
    return _("away since %(time)s", time=time.strftime("%H:%M", time.localtime(seen[1])))


def _prisoners(
    session: PrisonSession, view: Any, lang: Language, phones: Presence | None
) -> list[dict[str, Any]]:
    """Each prisoner's line as the console's board shows it without its private view."""
    inside = session.room.stage.interview
    rows = []
    for p in view["prisoners"]:
        name = p["name"]
        word = tonight(view, name, p["status"], inside.prisoner if inside else None)
        seen = (phones.connected(name), phones.since(name)) if phones is not None else None
        rows.append({
            "name": name, "status": lang.say(phrases.word(phrases.STATUS_WORDS, p["status"])),
            "shivs": p["shivs"], "today": today_said(word, lang),
            "phone": phone_said(seen, lang), "active": p["status"] == "active",
        })
    return rows


def stamp(session: PrisonSession) -> str:
    """What a tap on the page means depends on: the day, the phase, the history's length and
    the stage (a tap kept while the laptop did not answer is sent again only while this is
    the same; the same after the server starts again)."""
    state, stage = session.state, session.room.stage
    return f"{state.day.number}:{state.phase}:{len(session.history.entries)}:" + format(
        zlib.crc32(repr(stage).encode("utf-8")), "x"
    )


def gm_part_context(
    session: PrisonSession, lang: Language, now: float, phones: Presence | None = None
) -> dict[str, Any]:
    """What the part's template reads, said in ``lang``; ``phones``: the seats' phones (who
    is connected), as the console's board shows them."""
    _ = lang
    state = session.state
    view = table(state)
    stage = stage_view(session.room.stage, now)
    held = _held(session, view, lang, now)
    phase = view["phase"]
    bar = lang.say(phrases.nights_count(view["nights_done"], view["nights_to_escape"]))
    return {
        "v": view,
        "st": stage,
        "title": _("Day %(day)s · %(phase)s", day=view["day"],
                      phase=_(PHASE_TITLES["search" if held else phase])),
        "nights": _("Nights %(bar)s", bar=bar),
        "held": held,
        "epilogue": _epilogue(session, lang) if phase == "over" else None,
        "outcome": lang.say(phrases.outcome(view["outcome"], view["winners"]))
        if view["outcome"] else "",
        "prisoners": _prisoners(session, view, lang, phones),
        "close_planning": _ask(
            lang, asked.close_planning_asked(view, time_up=_time_up(session, now)),
            lang.pgettext("the answer yes", "Close planning"),
        ),
        "search": _ask(lang, asked.search_asked(view), _("Search")),
        "end_day": _ask(lang, asked.end_day_asked(view), _("End the day")),
        "undo": _undo(session, lang),
        "limits": PLANNING_LIMITS,
        "stamp": stamp(session),
        "today_results": [lang.say(line) for line in news.results(view["today"])]
        if phase == "accusations" else [],
    }


def render_gm_part(
    session: PrisonSession, lang: Language, now: float, phones: Presence | None = None
) -> str:
    """The live part of the game master's phone, from the session as the console reads it."""
    context = gm_part_context(session, lang, now, phones)
    return render(environment(), "game_master_part.html", lang, **context)


def render_gm_page(
    session: PrisonSession, secret: str, lang: Language, now: float, version: int,
    phones: Presence | None = None,
) -> str:
    """The whole page: its live part, the script's sentences, the language switch."""
    part = render_gm_part(session, lang, now, phones)
    return render(
        environment(), "game_master.html", lang, part=part, secret=secret, version=version,
        session_name=session.name,
    )
