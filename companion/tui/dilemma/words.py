"""The room's words: pure functions of the game master's view of the tournament, in the
console's language (``lang``, from :func:`companion.tui.common.language.words`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from babel.numbers import format_decimal

from companion.language import N_, Language
from companion.rules.dilemma.events import DilemmaEvent, Ended, Outcome, RoundRevealed
from companion.rules.dilemma.seen import PAIRS_NAMED
from companion.rules.dilemma.state import DilemmaState, is_house
from companion.rules.dilemma.strategies import HOW, NAMES

View = Mapping[str, Any]  # a view of the rules (companion.rules.dilemma.views), read by key
NO_ANSWER = N_("no answer")
# The famous strategies' names and ways are the rules' own messages (strategies.NAMES, HOW), as
# on the phones' pages. A peeked choice in the roster, as the phones' buttons say it.
CHOICE_WORDS = {"silent": N_("SILENT"), "betray": N_("BETRAY")}


def strategy_name(lang: Language, key: str) -> str:
    _ = lang
    return _(NAMES[key]) if key in NAMES else key


def strategy_how(lang: Language, key: str) -> str:
    _ = lang
    return _(HOW[key]) if key in HOW else key


def house_name(lang: Language, v: View) -> str:
    """The house player's name, ``House (Tit for Tat)``, in this language."""
    _ = lang
    return _("House (%(strategy)s)", strategy=strategy_name(lang, v["house"]["strategy"]))


def played_name(lang: Language, v: View) -> str:
    """The house player over its revealed rounds, in this language: ``House (Tit for Tat)``,
    or ``House (Tit for Tat and Always Betray)`` when it was changed between them."""
    _ = lang
    played = v["house"]["played"]
    if not played:
        return house_name(lang, v)
    names = lang.joined([strategy_name(lang, key) for key in played])
    return _("House (%(strategy)s)", strategy=names)


def shown_name(lang: Language, v: View, name: str) -> str:
    """A name as the room shows it: the house player's in this language."""
    return house_name(lang, v) if name == v["house"]["name"] else name


def months(lang: Language, n: int) -> str:
    """``1 month``, ``2 months``."""
    return lang.n_("%(count)s month", "%(count)s months", n)


def decimal(lang: Language, value: float) -> str:
    """``12.5``, ``12,5``: one decimal, in this language."""
    return str(format_decimal(value, format="0.0", locale=lang.locale))


def doing_word(lang: Language, doing: str, short: bool = False) -> str:
    """What a player is doing now (the view's words), as the roster says it; ``short`` for the
    two long ones."""
    _ = lang
    words = {
        "left": lang.pgettext("player", "left"),
        "waiting for a round": _("waiting") if short else _("waiting for a round"),
        "sits out": _("sits out"),
        "chosen": _("chosen"),
        "choosing": _("choosing"),
        "joins next round": _("next round") if short else _("joins next round"),
    }
    return words.get(doing, doing)


def waiting_text(lang: Language, names: list[str], room: int) -> str:
    """Who has not chosen, in at most ``room`` characters with the words around it (two lines
    of the status): as many names as fit, then how many more."""
    room -= len(waiting_sentence(lang, ""))

    def more(n: int) -> str:
        return lang.n_("%(count)s more", "%(count)s more", n)

    shown: list[str] = []
    for i, name in enumerate(names):
        left = len(names) - i - 1
        tail = len(lang.joined(["", more(left)])) if left else 0
        if shown and len(", ".join([*shown, name])) + tail > room:
            return lang.joined([", ".join(shown), more(len(names) - len(shown))])
        shown.append(name)
    return ", ".join(shown)


def waiting_sentence(lang: Language, names: str) -> str:
    _ = lang
    return _("Waiting for %(names)s. Press c to close the round now.", names=names)


def cut(text: str, width: int) -> str:
    """``text`` in at most ``width`` characters, an ellipsis where it was cut."""
    return text if len(text) <= width else text[: width - 1] + "…"


def last_round(lang: Language, v: View, pairs: int = 12, width: int = 18) -> str:
    """The last revealed round: up to ``pairs`` pairs (the board and phones show them all)."""
    _ = lang
    last = v["last"]
    if last is None:
        return _("No round revealed yet.")
    if not last["closed_early"]:
        title = _("Round %(round)s:", round=last["number"])
    elif last["timed_out"]:
        title = _("Round %(round)s (time ran out):", round=last["number"])
    else:
        title = _("Round %(round)s (closed early):", round=last["number"])
    lines = [title]
    shown = last["outcomes"][:pairs]

    def word(o: View, side: str) -> str:  # no answer is said, not shown as silent
        if not o[f"answered_{side}"]:  # short: a name gives way to it
            return _.pgettext("last round", "no answer")
        return _("silent") if o[f"choice_{side}"] == "silent" else _("BETRAY")

    def served(n: int) -> str:  # "12m": months, abbreviated
        return _("%(months)sm", months=f"{n:>2}")

    def name(o: View, side: str) -> str:  # the house under the strategy it played then
        strategy = o[f"strategy_{side}"]
        if strategy is None:
            return str(o[side])
        return _("House (%(strategy)s)", strategy=strategy_name(_, strategy))

    words = max((len(word(o, side)) for o in shown for side in "ab"), default=6)
    width -= words - 6  # the name gives way to a longer word
    versus = _.pgettext("last round", "vs")  # short: the partner's name gives way to it
    vs = f"{versus:>5} "  # "   vs ": the partner's line
    second = max(3, width + 1 - len(vs))
    for o in shown:  # a pair on two lines, choices and months aligned
        lines.append(
            f" {cut(name(o, 'a'), width):<{width}} {word(o, 'a'):<{words}} {served(o['months_a'])}"
        )
        lines.append(
            f"{vs}{cut(name(o, 'b'), second):<{second}} "
            f"{word(o, 'b'):<{words}} {served(o['months_b'])}"
        )
    more = len(last["outcomes"]) - pairs
    if more > 0:
        lines.append(
            " "
            + _.n_(
                "and %(count)s more pair (on the board)",
                "and %(count)s more pairs (on the board)",
                more,
            )
        )
    if last["sitting_out"]:
        lines.append(" " + _("out: %(names)s", names=", ".join(last["sitting_out"])))
    if v["cooperation"]:
        rates = "  ".join(
            _("R%(round)s %(percent)s%%", round=r["round"], percent=round(100 * r["rate"]))
            for r in v["cooperation"]
        )
        lines.append(_("Silent: %(rates)s", rates=rates))
        unanswered = [r for r in v["cooperation"] if r["no_answer"]]
        if unanswered:
            counts = "  ".join(
                _("R%(round)s %(count)s", round=r["round"], count=r["no_answer"])
                for r in unanswered
            )
            lines.append(_("No answer: %(counts)s", counts=counts))
    return "\n".join(lines)


def leaders(lang: Language, v: View, names: int = 20, width: int = 18) -> str:
    """The leaderboard: up to ``names`` players, least months first."""
    _ = lang
    if not v["cooperation"]:
        return _("The leaderboard starts after the first round.")
    lines = [_("Leaderboard (least months):")]
    for row in v["leaderboard"][:names]:
        rank = f"{row['rank']:>2}" if row["rank"] else " –"
        lines.append(f"{rank}. {cut(row['name'], width):<{width}} {row['months']:>4}")
    more = len(v["leaderboard"]) - names
    if more > 0:
        lines.append("    " + _.n_("and %(count)s more", "and %(count)s more", more))
    return "\n".join(lines)


def sentences_text(lang: Language, s: View) -> str:
    """The scenario's sentences, as a player weighs them before choosing."""
    _ = lang
    return "\n".join(
        [
            _("Both silent: %(months)s each.", months=months(_, s["both_silent"])),
            _("Both betray: %(months)s each.", months=months(_, s["both_betray"])),
            _(
                "One betrays, one stays silent: the betrayer serves %(betrayer)s, "
                "the silent one %(betrayed)s.",
                betrayer=months(_, s["betrayer"]),
                betrayed=months(_, s["betrayed"]),
            ),
        ]
    )


def missed_rule(lang: Language, s: View) -> str:
    """How a round missed is served, and why (the phones' sentence)."""
    _ = lang
    rule = s["sitting_out"]
    if rule == "mean":
        return _(
            "A round missed (joined late, or away) counts the mean of that round's sentences, "
            "so it neither rewards nor punishes."
        )
    return _(
        "A round missed (joined late, or away) counts %(months)s.", months=months(lang, int(rule))
    )


def explanation(lang: Language, s: View, tally: Mapping[str, int]) -> str:
    """Why betrayal dominates each single round, yet silent pairs did better together;
    ``tally``: the tournament's pairs ``both_silent``, ``both_betray`` and ``mixed``, and the
    ``unanswered`` choices."""
    _ = lang

    def pairs(n: int) -> str:
        return _.n_("%(count)s pair", "%(count)s pairs", n)

    said = [
        _(
            "Whatever your partner does, betraying shortens your own sentence: against a silent "
            "partner you serve %(betrayer)s months instead of %(both_silent)s, against a "
            "betrayer %(both_betray)s instead of %(betrayed)s. So in any single round betrayal "
            "dominates, and two careful egoists both betray. Yet a pair who both stay silent "
            "serves %(silent_pair)s months between them, while a pair who both betray serves "
            "%(betray_pair)s: each choice that is best alone leaves both worse off together.",
            betrayer=s["betrayer"],
            both_silent=s["both_silent"],
            both_betray=s["both_betray"],
            betrayed=s["betrayed"],
            silent_pair=2 * s["both_silent"],
            betray_pair=2 * s["both_betray"],
        ),
        _(
            "In this tournament %(silent_pairs)s stayed silent together and served "
            "%(silent_pair)s months a pair, %(betray_pairs)s betrayed each other and served "
            "%(betray_pair)s, and in %(mixed_pairs)s one betrayed the other and together they "
            "served %(mixed_pair)s.",
            silent_pairs=pairs(tally["both_silent"]),
            silent_pair=2 * s["both_silent"],
            betray_pairs=pairs(tally["both_betray"]),
            betray_pair=2 * s["both_betray"],
            mixed_pairs=pairs(tally["mixed"]),
            mixed_pair=s["betrayer"] + s["betrayed"],
        ),
    ]
    if n := tally["unanswered"]:  # served as silent, but nobody chose it: said, not hidden
        if s["no_answer"] == "silent":
            said.append(
                _.n_(
                    "%(count)s time a player gave no answer and served as if silent.",
                    "%(count)s times a player gave no answer and served as if silent.",
                    n,
                )
            )
        else:
            said.append(
                _.n_(
                    "%(count)s time a player gave no answer and served as if they had betrayed.",
                    "%(count)s times a player gave no answer and served as if they had betrayed.",
                    n,
                )
            )
    return " ".join(said)


def pair_words(lang: Language, state: DilemmaState, v: View, o: Outcome) -> str:
    """``Ann betrayed Bob``, ``Cy and Dee stayed silent``, ``Eve and Fay betrayed each other``."""
    _ = lang

    def name(pid: str) -> str:
        return house_name(lang, v) if is_house(pid) else state.name(pid)

    a, b = name(o.a), name(o.b)
    if o.choice_a == o.choice_b == "silent":
        return _("%(a)s and %(b)s stayed silent", a=a, b=b)
    if o.choice_a == o.choice_b == "betray":
        return _("%(a)s and %(b)s betrayed each other", a=a, b=b)
    if o.choice_a == "betray":
        return _("%(a)s betrayed %(b)s", a=a, b=b)
    return _("%(a)s betrayed %(b)s", a=b, b=a)


def seen_words(
    lang: Language, state: DilemmaState, events: Iterable[DilemmaEvent], v: View
) -> tuple[str, str] | None:
    """What the room has seen of ``events`` (as :func:`companion.rules.dilemma.seen.
    seen_by_the_room` finds it), in this language: a short title (``round 3's reveal``) and
    the full words (``round 3's choices (Ann betrayed Bob, …)``); ``None`` when nothing."""
    _ = lang
    reveal: RoundRevealed | None = None
    ended = False
    for event in events:
        if isinstance(event, RoundRevealed):
            reveal = event
        elif isinstance(event, Ended):
            ended = True
    if reveal is None:
        return (_("the end of the tournament"), _("the final results")) if ended else None
    named = ", ".join(pair_words(_, state, v, o) for o in reveal.outcomes[:PAIRS_NAMED])
    rest = len(reveal.outcomes) - PAIRS_NAMED
    if rest > 0:
        named = _.n_(
            "%(pairs)s, and %(count)s more pair",
            "%(pairs)s, and %(count)s more pairs",
            rest,
            pairs=named,
        )
    if named:
        said = _("round %(round)s's choices (%(pairs)s)", round=reveal.number, pairs=named)
    else:
        said = _("round %(round)s's choices", round=reveal.number)
    if ended:
        said = _("%(what)s and the final results", what=said)
    return _("round %(round)s's reveal", round=reveal.number), said
