"""The epilogue's sentences, as phrases: each step the room is shown (a night as it really
happened, then the end) and each player's own part, from the facts of
:mod:`companion.rules.prison.epilogue`; every face says them in its reader's language.
"""

from __future__ import annotations

from companion.rules.core.phrase import Listed, Phrase, phrase, phrases
from companion.rules.prison.epilogue import (
    EpilogueEnd,
    EpilogueNight,
    EpilogueView,
    NightAccusation,
    NightDeal,
    NightSearch,
    OwnNight,
    WardenNight,
)
from companion.rules.prison.phrases import (
    OUTCOME_TITLES,
    names,
    nights_count,
    nights_of_work,
    word,
)

# ---- what the room is told ------------------------------------------------------------------


def night_head(day: int) -> Phrase:
    return phrase("Night %(day)s", day=day)




def _searched(search: NightSearch) -> Phrase:
    name = search["prisoner"]
    if search["caught"]:
        return phrase("The warden searched %(name)s's cell and caught %(name)s working.", name=name)
    return phrase(
        "The warden searched %(name)s's cell, but %(name)s had chosen to rest: safe.", name=name
    )


def _accusation(a: NightAccusation) -> Phrase:
    if a["result"] == "shived":
        return phrases(
            "%(accuser)s accused %(accused)s, who had taken %(count)s parole token: shived.",
            "%(accuser)s accused %(accused)s, who had taken %(count)s parole tokens: shived.",
            a["tokens"],
            accuser=a["accuser"],
            accused=a["accused"],
        )
    return phrase(
        "%(accuser)s accused %(accused)s, who had never taken a deal: the shiv passed to "
        "%(accused)s.",
        accuser=a["accuser"],
        accused=a["accused"],
    )


def _deal(deal: NightDeal) -> Phrase:
    """A deal and the parole tokens its taker then held in all (not this deal's: one)."""
    name, tokens = deal["prisoner"], deal["tokens"]
    if deal["named"]:
        if tokens == 1:
            return phrase(
                "%(name)s took the warden's deal and named %(names)s: their first parole token.",
                name=name,
                names=names(deal["named"]),
            )
        return phrases(
            "%(name)s took the warden's deal and named %(names)s: %(count)s parole token "
            "in all.",
            "%(name)s took the warden's deal and named %(names)s: %(count)s parole tokens "
            "in all.",
            tokens,
            name=name,
            names=names(deal["named"]),
        )
    if tokens == 1:
        return phrase("%(name)s took the warden's deal: their first parole token.", name=name)
    return phrases(
        "%(name)s took the warden's deal: %(count)s parole token in all.",
        "%(name)s took the warden's deal: %(count)s parole tokens in all.",
        tokens,
        name=name,
    )


def night_phrases(night: EpilogueNight) -> list[Phrase]:
    """One night's lines, in the order it happened."""
    worked, rested = night["worked"], night["rested"]
    lines: list[Phrase] = []
    if night["revealed"]:
        if worked:
            lines.append(
                phrases("%(names)s worked.", "%(names)s worked.", len(worked), names=names(worked))
            )
        else:
            lines.append(phrase("Nobody worked."))
        if rested:
            lines.append(
                phrases("%(names)s rested.", "%(names)s rested.", len(rested), names=names(rested))
            )
    else:
        if worked:
            lines.append(
                phrases(
                    "%(names)s chose to work.",
                    "%(names)s chose to work.",
                    len(worked),
                    names=names(worked),
                )
            )
        if rested:
            lines.append(
                phrases(
                    "%(names)s chose to rest.",
                    "%(names)s chose to rest.",
                    len(rested),
                    names=names(rested),
                )
            )
    lines += [_deal(deal) for deal in night["deals"]]
    if night["no_deal"]:
        lines.append(
            phrases(
                "%(names)s made no deal with the warden.",
                "%(names)s made no deal with the warden.",
                len(night["no_deal"]),
                names=names(night["no_deal"]),
            )
        )
    if night["none_left"]:
        lines.append(
            phrases(
                "%(names)s could get no deal: the warden had made the day's deals already.",
                "%(names)s could get no deal: the warden had made the day's deals already.",
                len(night["none_left"]),
                names=names(night["none_left"]),
            )
        )
    if not night["deals"]:
        lines.append(phrase("Nobody took a deal."))
    lines += [_searched(s) for s in night["searches"]]
    if night["revealed"] and not night["nights_added"]:
        done = nights_count(night["nights_done"], night["nights_to_escape"])
        lines.append(phrase("No night of work was done: %(nights)s.", nights=done))
    elif night["revealed"]:
        lines.append(
            phrases(
                "%(count)s night of work: %(nights)s.",
                "%(count)s nights of work: %(nights)s.",
                night["nights_added"],
                nights=nights_count(night["nights_done"], night["nights_to_escape"]),
            )
        )
    lines += [_accusation(a) for a in night["accusations"]]
    if not night["revealed"]:
        lines.append(phrase("The game ended before the night came."))
    return lines


def end_phrases(ended: EpilogueEnd) -> list[Phrase]:
    said = [
        phrase("Winners: %(names)s.", names=names(ended["winners"])),
        nights_of_work(ended["nights_done"], ended["nights_to_escape"]),
    ]
    if ended["tokens"]:
        held = tuple(
            phrase("%(name)s %(count)s", name=row["prisoner"], count=row["tokens"])
            for row in ended["tokens"]
        )
        said.append(phrase("Parole tokens at the end: %(tokens)s.", tokens=Listed(held, "comma")))
    else:
        said.append(phrase("Nobody ever took the warden's deal."))
    return said


def step_phrases(view: EpilogueView) -> list[tuple[Phrase, list[Phrase]]]:
    """(headline, lines) of each step the room has seen."""
    out: list[tuple[Phrase, list[Phrase]]] = [
        (night_head(night["day"]), night_phrases(night)) for night in view["nights"]
    ]
    if view["end"] is not None:
        head = word(OUTCOME_TITLES, view["end"]["outcome"] or "")
        out.append((head, end_phrases(view["end"])))
    return out


# ---- each player's own part -------------------------------------------------------------------


def _own_items(night: OwnNight) -> list[Phrase]:
    work = night["choice"] == "work"
    if night["caught"]:
        items = [phrase("you worked and the warden caught you working")]
    elif night["revealed"]:
        items = [phrase("you worked") if work else phrase("you rested")]
    else:
        items = [phrase("you chose to work") if work else phrase("you chose to rest")]
    if night["deal"] is True and night["named"]:
        items.append(phrase("you took a deal and named %(names)s", names=names(night["named"])))
    elif night["deal"] is True:
        items.append(phrase("you took a deal"))
    elif night["deal"] is False:
        items.append(phrase("you made no deal"))
    if night["searched"] and not night["caught"]:
        items.append(phrase("the warden searched your cell and found nothing"))
    for a in night["accused"]:
        if a["result"] == "shived":
            items.append(phrase("you accused %(name)s, who was shived", name=a["accused"]))
        else:
            items.append(phrase("you accused %(name)s and your shiv passed", name=a["accused"]))
    for a in night["accused_by"]:
        if a["result"] == "shived":
            items.append(phrase("%(name)s accused you and you were shived", name=a["accuser"]))
        else:
            items.append(
                phrase("%(name)s accused you and their shiv passed to you", name=a["accuser"])
            )
    return items


def own_phrases(part: list[OwnNight]) -> list[Phrase]:
    """A prisoner's own part, a sentence a night: ``Night 2: you rested and you took a
    deal.``"""
    return [
        phrase("Night %(day)s: %(what)s.", day=n["day"], what=Listed(tuple(_own_items(n))))
        for n in part
    ]


def _warden_items(night: WardenNight) -> list[Phrase]:
    items = [phrase("you made a deal with %(name)s", name=n) for n in night["deals"]]
    if night["no_deal"]:
        items.append(phrase("no deal with %(names)s", names=names(night["no_deal"])))
    if night["none_left"]:
        items.append(
            phrase("no deal was left for %(names)s", names=names(night["none_left"]))
        )
    for s in night["searches"]:
        name = s["prisoner"]
        if s["caught"]:
            items.append(phrase("you searched %(name)s's cell and caught them working", name=name))
        else:
            items.append(phrase("you searched %(name)s's cell and found nothing", name=name))
    return items or [phrase("you made no deal and searched no cell")]


def warden_phrases(part: list[WardenNight]) -> list[Phrase]:
    """The warden's own part, a sentence a night."""
    return [
        phrase("Night %(day)s: %(what)s.", day=n["day"], what=Listed(tuple(_warden_items(n))))
        for n in part
    ]
