"""The game screen's side panel: what the phase is waiting on, today's results so far, the
phones, and where a seat code is typed."""

from __future__ import annotations

from companion.language import Language
from companion.rules.prison import news
from companion.session import links
from companion.session.prison.seats import join_url
from companion.tui.common.presence import connected_count, phone_words
from companion.tui.prison.context import Context
from companion.tui.prison.text import (
    View,
    can_accuse,
    clock,
    names,
    not_interviewed,
    outcome_line,
    searches_left,
)


def side_text(ctx: Context, view: View, _: Language, private: bool) -> str:
    """The game screen's side panel: the phase's progress, today's results, the phones."""
    phase = view["phase"]
    today = view["today"]
    lines: list[str] = []
    if phase == "planning":
        waiting = [n for n in view["active"] if n not in view["submitted"]]
        lines.append(
            _(
                "Chosen: %(chosen)s of %(count)s",
                chosen=len(view["submitted"]),
                count=len(view["active"]),
            )
        )
        lines.append(
            _("Waiting for: %(names)s", names=names(waiting, _))
            if waiting
            else _("Everyone has chosen.")
        )
        lines.append("")
        lines.append(_("Choices stay sealed until the search."))
    elif phase == "interviews":
        queue = not_interviewed(view)
        lines.append(
            _("Queue: %(names)s", names=", ".join(queue))
            if queue
            else _("Queue: everyone was seen")
        )
        lines.append(
            _("Seen: %(names)s", names=names(today["interviewed"], _))
            if today["interviewed"]
            else ""
        )
        limit = view["rules"]["parole_tokens_per_day"]
        if private:
            made = limit - view["deals_left_today"]
            lines.append(_("Deals today: %(made)s of %(limit)s", made=made, limit=limit))
            if view["deals_left_today"] == 0:
                lines.append(_("Deal limit reached"))
        else:
            # today's count would tell the room who took a deal (it saw who went in)
            lines.append(_("Deals: at most %(limit)s a day (T: today's count)", limit=limit))
        lines.append(
            _("Interviews: %(length)s each", length=clock(ctx.interview_seconds()))
        )
    elif phase == "search":
        lines.append(_("Cells left to search today: %(count)s", count=searches_left(view)))
    lines += [_.say(news.searched_today(s["prisoner"], s["caught"])) for s in today["searches"]]
    lines += [
        _.say(news.accused_today(a["accuser"], a["accused"], a["result"]))
        for a in today["accusations"]
    ]
    if phase == "accusations":
        who = can_accuse(view)
        lines.append(_("May still accuse: %(names)s", names=names(who, _)))
    if phase == "over":
        lines.append(outcome_line(view, _))
    lines += ["", *phone_lines(ctx, view, _)]
    base = links.current_base(ctx.session)
    if base and phase != "over" and ctx.phones_down is None:
        lines += ["", _("No QR code? Type the seat code at %(url)s", url=join_url(base))]
    wrong = ctx.wrong_links()
    if wrong:
        lines += ["", *wrong]
    return "\n".join(line for line in lines if line is not None)

def phone_lines(ctx: Context, view: View, _: Language) -> list[str]:
    """The warden's phone, and how many of the prisoners' phones are connected."""
    presence = ctx.presence
    prisoners = [p["name"] for p in view["prisoners"]]
    return [
        _("Warden's phone:"),
        f"  {phone_words(presence.get(view['warden']))}",
        _("Prisoners' phones:"),
        "  "
        + _(
            "%(connected)s of %(count)s connected",
            connected=connected_count(presence, prisoners),
            count=len(prisoners),
        ),
    ]
