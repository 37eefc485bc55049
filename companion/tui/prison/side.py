"""The game screen's side panel: what the phase is waiting on, today's results so far, the
phones, and where a seat code is typed."""

from __future__ import annotations

from rich.cells import cell_len

from companion.language import Language
from companion.rules.prison import news
from companion.session import links
from companion.session.prison.seats import join_url
from companion.tui.common.presence import connected_count, phone_words
from companion.tui.prison.context import Context
from companion.tui.prison.text import (
    View,
    can_accuse,
    minutes_seconds,
    names,
    not_interviewed,
    outcome_line,
    searches_left,
)


def side_text(
    ctx: Context, view: View, _: Language, private: bool, with_join: bool = True
) -> str:
    """The game screen's side panel: the phase's progress, today's results, the phones, and
    (``with_join``) where a seat code is typed."""
    phase = view["phase"]
    today = view["today"]
    lines: list[str] = []
    if phase == "planning":
        waiting = [n for n in view["active"] if n not in view["submitted"]]
        # the names said first: a call holding ``_`` inside a message's call hides that
        # message from the extraction
        missing = names(waiting, _)
        lines.append(
            _(
                "Chosen: %(chosen)s of %(count)s",
                chosen=len(view["submitted"]),
                count=len(view["active"]),
            )
        )
        lines.append(
            _.n_("Waiting for: %(names)s", "Waiting for: %(names)s", len(waiting), names=missing)
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
        seen = names(today["interviewed"], _)
        lines.append(
            _.n_("Seen: %(names)s", "Seen: %(names)s", len(today["interviewed"]), names=seen)
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
            _("Interviews: %(length)s each", length=minutes_seconds(ctx.interview_seconds()))
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
        accusers = names(who, _)
        # "nobody" is said in the singular
        lines.append(
            _.n_("May still accuse: %(names)s", "May still accuse: %(names)s", max(len(who), 1),
                 names=accusers)
        )
    if phase == "over":
        lines.append(outcome_line(view, _))
    lines += ["", *phone_lines(ctx, view, _)]
    join = join_line(ctx, view, _)
    if join and with_join:
        lines += ["", join]
    wrong = ctx.wrong_links()
    if wrong:
        lines += ["", *wrong]
    return "\n".join(line for line in lines if line is not None)

def join_line(ctx: Context, view: View, _: Language) -> str | None:
    """Where a phone without a camera types its seat code, while phones may join."""
    base = links.current_base(ctx.session)
    if base and view["phase"] != "over" and ctx.phones_down is None:
        return _("No QR code? Type the seat code at %(url)s", url=join_url(base))
    return None


def phone_lines(ctx: Context, view: View, _: Language) -> list[str]:
    """The warden's phone, and how many of the prisoners' phones are connected."""
    presence = ctx.presence
    prisoners = [p["name"] for p in view["prisoners"]]
    return [
        _("Warden's phone:"),
        f"  {phone_words(presence.get(view['warden']), _)}",
        _("Prisoners' phones:"),
        "  "
        + _(
            "%(connected)s of %(count)s connected",
            connected=connected_count(presence, prisoners),
            count=len(prisoners),
        ),
    ]


def fold(text: str, width: int) -> str:
    """``text`` folded to ``width`` cells a line, between words: a word too long for a line
    (an address, a long name) goes whole to a line of its own when it fits there, else an
    address is folded after its '/', a name after its '-', and only a part longer than a
    whole line is cut inside, so that no line starts with the punctuation that followed it
    (", Ravi and Tom"). Only a plain space parts words: a no-break space keeps French's colon
    with the word before it ("prisonniers\u00a0:")."""
    if width <= 0:
        return text
    out: list[str] = []
    for line in text.split("\n"):
        indent = line[: len(line) - len(line.lstrip(" "))]
        room = max(width - len(indent), 1)
        current = ""
        for word in filter(None, line.split(" ")):
            for piece in pieces(word, room):
                joined = f"{current} {piece}" if current else piece
                if cell_len(joined) <= room:
                    current = joined
                    continue
                out.append(indent + current)
                current = piece
        out.append(indent + current)
    return "\n".join(out)


def pieces(word: str, width: int) -> list[str]:
    """``word`` as it may be laid on lines ``width`` cells wide: whole when it fits; an
    address in pieces that end at a '/', a hyphenated name in pieces that end at a '-'
    ("Fitzgerald-" then "Okonkwo"); only a part still too long for a line is cut, the last
    piece keeping a letter with the punctuation after it."""
    if cell_len(word) <= width:
        return [word]
    mark = "/" if "/" in word else "-" if "-" in word.strip("-") else None
    if mark is None:
        return cut(word, width)
    parts = [p + mark for p in word.split(mark)]
    parts[-1] = parts[-1][: -len(mark)]
    out: list[str] = []
    for part in (p for p in parts if p):
        if out and cell_len(out[-1] + part) <= width:
            out[-1] += part
        else:
            out += cut(part, width)
    return out


def cut(word: str, width: int) -> list[str]:
    """``word`` cut into pieces ``width`` cells wide, the last keeping a letter with the
    punctuation after it."""
    out: list[str] = []
    rest = word
    while cell_len(rest) > width:
        at = width
        while at > 1 and cell_len(rest[:at]) > width:
            at -= 1
        tail = rest[at:]
        if tail and not any(c.isalnum() for c in tail) and at > 1:
            at -= 1  # a letter goes along with the comma
        out.append(rest[:at])
        rest = rest[at:]
    return [*out, rest] if rest else out
