"""What the referee's page shows: the referee's console for a hand.

The same table as the console (:class:`~companion.tui.sucker.referee.RefereeScreen`): what the
table waits for, the piles (top chip first), the players with their supply, prisoners and
standing, the dead chips, the log's last lines; and a button for each move the rules allow
now (:func:`companion.rules.sucker.engine.legal_moves`, never guessed here): the move awaited
first, then the prisoners' gifts and kills, open at any time, then undo. Each button carries
its command, which the server parses and submits as the desk does the console's.
Everything at this table is public: the page hides nothing the console shows.
"""

from __future__ import annotations

import json
from typing import Any

from companion.language import N_, Language
from companion.rules.core.game import Refused
from companion.rules.sucker.commands import (
    Kill,
    KillPrisoner,
    Next,
    Play,
    Refuse,
    SuckerCommand,
    Transfer,
    command_to_dict,
)
from companion.rules.sucker.engine import legal_moves
from companion.rules.sucker.views import (
    TableView,
    command_phrase,
    event_phrase,
    says,
    standing,
    table,
)
from companion.session.sucker import SuckerSession
from companion.web.common.rendering import make_environment, render

LOG_LINES = 8  # the log's lines on the page (the latest last)
# The console's words for its panels (the same messages).
PILES = N_("Piles (top chip first)")
PLAYERS = N_("Players")
LOG = N_("Log")
UNDONE = N_("Undone: %(what)s.")
DEAD = N_("dead %(chips)s")

_env = make_environment("companion.web.sucker")


def _button(command: SuckerCommand, label: str, kind: str = "") -> dict[str, str]:
    return {"value": json.dumps(command_to_dict(command), ensure_ascii=False),
            "label": label, "kind": kind}


def _moves(lang: Language, view: TableView, legal: list[SuckerCommand]) -> list[dict[str, Any]]:
    """The moves the rules allow now, in groups with a title: the awaited move, then each
    holder's prisoners."""
    _ = lang
    a = view["awaiting"]
    groups: list[dict[str, Any]] = []
    rescue = a["what"] == "rescue"
    if a["what"] == "play":
        plays = [c for c in legal if isinstance(c, Play)]
        for color in a.get("colors", []):
            buttons = [
                _button(c, _("New pile") if c.pile == "new" else _("Pile %(pile)s", pile=c.pile),
                        "main" if c.pile == "new" else "")
                for c in plays if c.color == color
            ]
            groups.append({"id": f"play-{color}",
                           "title": _("%(name)s plays %(color)s", name=a["player"], color=color),
                           "color": color, "buttons": buttons, "pile_row": True})
    elif a["what"] == "next":
        groups.append({"id": "next", "title": _("Who moves next?"),
                       "buttons": [_button(c, c.player, "main") for c in legal
                                   if isinstance(c, Next)]})
    elif a["what"] == "kill":
        groups.append({"id": "kill",
                       "title": _("Which color dies from pile %(pile)s?", pile=a.get("pile")),
                       "buttons": [_button(c, c.color, "main") for c in legal
                                   if isinstance(c, Kill)]})
    elif rescue:
        need = a["player"]
        gifts = [_button(c, _("%(name)s gives %(color)s", name=c.player, color=c.color), "main")
                 for c in legal if isinstance(c, Transfer) and c.to == need]
        refusals = [_button(c, _("%(name)s refuses", name=c.player), "quiet")
                    for c in legal if isinstance(c, Refuse)]
        groups.append({"id": "rescue", "title": _("Rescue %(name)s", name=need),
                       "buttons": gifts + refusals})
    holders: dict[str, list[dict[str, str]]] = {}
    for c in legal:
        if isinstance(c, Transfer) and not (rescue and c.to == a["player"]):
            holders.setdefault(c.player, []).append(
                _button(c, _("Give %(color)s to %(name)s", color=c.color, name=c.to)))
        elif isinstance(c, KillPrisoner):
            holders.setdefault(c.player, []).append(
                _button(c, _("Kill a %(color)s prisoner", color=c.color), "kill"))
    keys = view["keys"]
    held = {p["name"]: [(c, keys[c], n) for c, n in p["prisoners"].items()]
            for p in view["players"]}
    for holder, buttons in holders.items():
        groups.append({"id": f"prisoners-{holder}", "title": holder, "buttons": buttons,
                       "prisoners": True, "held": held[holder]})
    for group in groups:
        group.setdefault("prisoners", False)
        group.setdefault("pile_row", False)
    return groups


def _log(lang: Language, session: SuckerSession) -> list[str]:
    """The console's log's last lines: each move's events, and each undo."""
    lines: list[str] = []
    entries = session.history.entries
    engine = session.rules.engine
    for entry in entries[-LOG_LINES:]:
        if entry.kind == "undo":
            assert entry.reverts is not None
            taken = entries[entry.reverts - 1].command
            what = lang.say(command_phrase(engine.command_to_dict(taken)))
            lines.append(lang(UNDONE, what=what))
            continue
        for event in entry.events:
            said = event_phrase(event)
            if said is not None:
                lines.append(lang.say(said))
    return lines[-LOG_LINES:]


def _undo(lang: Language, session: SuckerSession) -> dict[str, Any] | None:
    """The move an undo takes back now, named as the console's log names it."""
    target = session.history.undo_target()
    if isinstance(target, Refused):
        return None
    what = command_phrase(session.rules.engine.command_to_dict(target.command))
    return {"hseq": target.seq, "what": lang.say(what)}


def gm_context(session: SuckerSession, lang: Language) -> dict[str, Any]:
    view = table(session.state)
    keys = view["keys"]
    players = []
    for p in view["players"]:
        said, mark = standing(view, p["name"])
        players.append({
            **p, "key": keys[p["color"]], "mark": mark,
            "status": lang.say(said) if said is not None else "",
            "held": [(color, keys[color], n) for color, n in p["prisoners"].items()],
        })
    dead = "  ".join(f"{keys[c]}×{n}" for c, n in view["dead"].items())
    return {
        "says": lang.say(says(view["awaiting"], view["winner"])),
        "what": view["awaiting"]["what"],
        "piles": [(n, [(c, keys[c]) for c in reversed(chips)]) for n, chips in
                  view["piles"].items()],
        "players": players,
        "dead": lang(DEAD, chips=dead) if dead else "",
        "groups": _moves(lang, view, legal_moves(session.state)),
        "log": _log(lang, session),
        "undo": _undo(lang, session),
        "stamp": str(view["plays"]),
        "titles": {"piles": lang(PILES), "players": lang(PLAYERS), "log": lang(LOG)},
    }


def render_gm_part(session: SuckerSession, lang: Language) -> str:
    return render(_env, "game_master_part.html", lang, **gm_context(session, lang))


def render_gm_page(session: SuckerSession, secret: str, lang: Language, version: int) -> str:
    return render(
        _env, "game_master.html", lang, session_name=session.name, secret=secret,
        version=version, part=render_gm_part(session, lang),
    )


def render_problem(message: str, lang: Language) -> str:
    return render(_env, "problem.html", lang, message=message)
