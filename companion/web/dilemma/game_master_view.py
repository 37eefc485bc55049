"""What the warm-up's game master's phone shows: the console's room for a hand.

It shows what the console's room shows by default and nothing more: where the tournament
stands (the round, how many have chosen, who has not, the countdown), the doors, the house
player and the rounds' time, the roster (who faces whom, who has chosen, months, each phone),
the finale's steps once it is over, and each move the console offers now with the question the
console asks before it (the same sentences: closing a round with players still choosing,
removing a player, finishing early, an undo the room saw), and the console's offer for a round
held (its time ran out while the night's server was not running). Like the console without its peek,
it never shows a choice (the peek is the laptop's alone, and noted in the log).
"""

from __future__ import annotations

import time
import zlib
from dataclasses import dataclass
from typing import Any

from companion.language import Language
from companion.rules.core.game import Refused
from companion.rules.dilemma.asked import close_round_asked, time_back_asked, undo_asked
from companion.rules.dilemma.finale import STEP_WORDS, finale_view
from companion.rules.dilemma.phrases import house
from companion.rules.dilemma.seen import seen_by_the_room
from companion.rules.dilemma.strategies import HOW, NAMES
from companion.rules.dilemma.views import GmView, RosterRow, gm
from companion.session.dilemma import DilemmaSession
from companion.web.common.context import Presence
from companion.web.common.rendering import render
from companion.web.dilemma import pages

# The rounds' times offered (seconds; 0: no timer), as the console's t takes them.
ROUND_TIMES = (0, 30, 60, 90, 120, 180, 300)
LEADERS = 20  # the leaderboard's rows on the page (the console's shows what fits)


@dataclass(frozen=True)
class Ask:
    """A confirmation: the console's title and question, and the tap that confirms."""

    title: str
    question: str
    yes: str


def phase_words(lang: Language, v: GmView) -> str:
    """Where the tournament stands, in the game master's words (the console's, without keys)."""
    _ = lang
    phase = v["phase"]
    if phase == "lobby":
        return _("Players are joining: start round 1 when everyone is in.")
    if phase == "choosing":
        return lang.n_(
            "Round %(round)s of %(rounds)s: %(count)s of %(total)s has chosen.",
            "Round %(round)s of %(rounds)s: %(count)s of %(total)s have chosen.",
            v["chosen_count"],
            round=v["round"],
            rounds=v["rounds"],
            total=lang.number(v["to_choose"]),
        )
    if phase == "revealed":
        return _("Round %(round)s of %(rounds)s is revealed.", round=v["round"],
                 rounds=v["rounds"])
    return _("The tournament is over.")


def doing_word(lang: Language, doing: str) -> str:
    """What a player is doing now, as the console's roster says it."""
    _ = lang
    words = {
        "left": lang.pgettext("player", "left"),
        "waiting for a round": _("waiting for a round"),
        "sits out": _("sits out"),
        "chosen": _("chosen"),
        "choosing": _("choosing"),
        "joins next round": _("joins next round"),
    }
    return words.get(doing, doing)


def phone_said(presence: Presence | None, pid: str, lang: Language) -> str:
    """A player's phone as the console says it: connected, away since 21:04, or -."""
    _ = lang
    since = presence.since(pid) if presence is not None else None
    if presence is None or since is None:
        return "-"
    if presence.connected(pid):
        return _("connected")
    return _("away since %(time)s", time=time.strftime("%H:%M", time.localtime(since)))


def _remove_ask(lang: Language, row: RosterRow) -> Ask:
    """The console's question before a player is removed."""
    _ = lang
    name = row["name"]
    question = _("%(name)s sits out every round from now on; you can bring them back.",
                 name=name)
    if row["facing"] and not row["facing_house"]:
        question += " " + _(
            "The house player takes their seat against %(name)s.", name=row["facing"]
        )
    return Ask(_("Remove %(name)s?", name=name), question, _("Remove"))


def _roster(
    lang: Language, v: GmView, presence: Presence | None
) -> list[dict[str, Any]]:
    house_now = lang.say(house([v["house"]["strategy"]]))
    rows = []
    for row in v["roster"]:
        facing = house_now if row["facing_house"] else row["facing"]
        rows.append({
            "pid": row["pid"], "name": row["name"], "present": row["present"],
            "months": row["months"], "doing": doing_word(lang, row["doing"]),
            "chosen": row["doing"] == "chosen", "facing": facing,
            "phone": phone_said(presence, row["pid"], lang),
            "remove": _remove_ask(lang, row) if row["present"] else None,
        })
    return rows


def _close_ask(lang: Language, v: GmView) -> Ask | None:
    """The console's question before a round is closed with players still choosing."""
    asked = close_round_asked(v)
    if asked is None:
        return None
    return Ask(lang.say(asked[0]), lang.say(asked[1]), lang("Yes"))


def _undo(session: DilemmaSession, lang: Language) -> dict[str, Any] | None:
    """The move an undo takes back now and the console's question, when the room saw it."""
    _ = lang
    target = session.history.undo_target()
    if isinstance(target, Refused):
        return None
    seen = seen_by_the_room(session.state, target.events)
    if seen is None:
        return {"hseq": target.seq, "ask": None}
    title, question = undo_asked(seen)
    return {"hseq": target.seq, "ask": Ask(lang.say(title), lang.say(question), _("Undo anyway"))}


def _finale(session: DilemmaSession, lang: Language) -> dict[str, Any] | None:
    """Where the room is in the finale and what the next tap shows it (the console's line)."""
    _ = lang
    finale = finale_view(session.state, session.room.finale)
    if finale is None:
        return None
    steps, shown = finale["steps"], finale["shown"]
    if shown >= len(steps):
        return {"line": _("Finale: the room has seen it all and sees the results as a whole."),
                "next": None}
    coming = _.say(STEP_WORDS[steps[shown]])
    if shown == 0:
        line = _("Finale for the room, in %(count)s steps; the board shows the results as a "
                 "whole until you show it the first.", count=len(steps))
    else:
        line = _("Finale: the room sees step %(shown)s of %(count)s (%(now)s).",
                 shown=shown, count=len(steps), now=_.say(STEP_WORDS[steps[shown - 1]]))
    return {"line": line, "next": _("Show the room %(next)s", next=coming)}


def _time_back(session: DilemmaSession, lang: Language) -> dict[str, Any] | None:
    """The console's offer for the open round held (its time ran out while nothing counted
    it down): give the time it had left back, or close it now."""
    _ = lang
    r = session.state.open_round()
    hold = session.room.held(r.number) if r is not None else None
    if hold is None:
        return None
    heard = time.strftime("%H:%M:%S", time.localtime(hold.heard))
    title, question = time_back_asked(hold, heard)
    return {
        "round": hold.round, "title": lang.say(title), "question": lang.say(question),
        "give": _("Give %(seconds)s s back", seconds=hold.seconds), "close": _("Close it now"),
    }


def stamp(session: DilemmaSession) -> str:
    """What a tap on the page means depends on: the phase, the round, the history's length
    and the room's timers, rounds' time and finale (a tap kept while the laptop did not answer
    is sent again only while this is the same; the same after the server starts again)."""
    state, room = session.state, session.room
    held = (sorted(room.timers.items()), room.seconds, room.finale,  # (not the last row's time)
            sorted(room.holds))
    return f"{state.phase}:{len(state.rounds)}:{len(session.history.entries)}:" + format(
        zlib.crc32(repr(held).encode("utf-8")), "x"
    )


def gm_part_context(
    session: DilemmaSession, lang: Language, now: float, presence: Presence | None = None
) -> dict[str, Any]:
    """What the part's template reads, said in ``lang``."""
    _ = lang
    v = gm(session.state)
    room = session.room
    r = session.state.open_round()
    timer = room.timer(r.number) if r is not None else None
    timer_off = r is not None and room.timer_off(r.number)
    strategies = [
        {"key": key, "name": pages.strategy_name(lang, key), "how": _(HOW[key]),
         "current": key == session.state.house}
        for key in NAMES
    ]
    return {
        "v": v,
        "title": phase_words(lang, v),
        "players_line": lang.n_(
            "%(count)s player in the tournament.",
            "%(count)s players in the tournament.",
            len(v["players"]),
        ),
        "timer": pages.Timer.of(timer.left(now)) if timer is not None else None,
        "timed": timer is not None or timer_off,
        "timer_off": timer_off,
        "seconds": room.seconds,
        "round_times": ROUND_TIMES,
        "house_name": lang.say(house([session.state.house])),
        "strategies": strategies,
        "roster": _roster(lang, v, presence),
        "close": _close_ask(lang, v),
        "time_back": _time_back(session, lang),
        "finish": Ask(_("Finish the tournament?"), _("No more rounds will be played."),
                      _("Yes")),
        "finale": _finale(session, lang) if v["phase"] == "over" else None,
        "undo": _undo(session, lang),
        "stamp": stamp(session),
        "next_round": min(v["round"] + 1, v["rounds"]),
        "leaders": LEADERS,
    }


def render_gm_part(
    session: DilemmaSession, lang: Language, now: float, presence: Presence | None = None
) -> str:
    """The live part of the game master's phone, from the session as the console reads it."""
    context = gm_part_context(session, lang, now, presence)
    return render(pages.environment(), "game_master_part.html", lang, **context)


def render_gm_page(
    session: DilemmaSession, secret: str, lang: Language, now: float, version: int,
    presence: Presence | None = None,
) -> str:
    """The whole page: its live part, the script's sentences, the language switch."""
    part = render_gm_part(session, lang, now, presence)
    return render(
        pages.environment(), "game_master.html", lang, part=part, secret=secret,
        version=version, session_name=session.name,
    )
