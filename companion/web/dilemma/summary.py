"""The warm-up's results to take home as Markdown, in a language: what the phones' results show
(the leaderboard, the house player, silence round by round, the debrief and why), with the
same words, for ``companion dilemma NAME --export``.

The rules give the numbers (the board view and the result rows, in no language); the words are
the catalog's, as on the phones. Names and numbers are the only text not translated.
"""

from __future__ import annotations

from companion.language import Language
from companion.rules.dilemma.results import md, rows
from companion.rules.dilemma.state import DilemmaState
from companion.rules.dilemma.views import BoardView, board
from companion.web.dilemma.pages import (
    missed_rule,
    months,
    percent,
    played_name,
    strategy_how,
    strategy_name,
)


def _table(header: list[str], lines: list[list[str]]) -> list[str]:
    def row(cells: list[str]) -> str:
        return "| " + " | ".join(cells) + " |"

    return [row(header), row(["---"] * len(header)), *(row(cells) for cells in lines)]


def _pairs(state: DilemmaState, view: BoardView) -> tuple[int, int, int, int]:
    """Pairs who stayed silent together, who betrayed each other, where one betrayed the
    other, and the answers not given (served as the rules say), from the result rows."""
    served = view["sentences"]["no_answer"]
    choices: dict[tuple[int, frozenset[str]], list[str]] = {}
    unanswered = 0
    for r in rows(state):
        if not r["partner"]:
            continue  # a round missed
        unanswered += r["choice"] == "no answer"
        choice = served if r["choice"] == "no answer" else r["choice"]
        choices.setdefault((r["round"], frozenset((r["player"], r["partner"]))), []).append(choice)
    silent = sum(1 for c in choices.values() if set(c) == {"silent"})
    betray = sum(1 for c in choices.values() if set(c) == {"betray"})
    return silent, betray, len(choices) - silent - betray, unanswered


def summary_markdown(session_name: str, state: DilemmaState, _: Language) -> str:
    """The summary of the tournament in ``state`` in the language ``_``."""
    v = board(state)
    s = v["sentences"]
    played = len(v["cooperation"])
    out = ["# " + _("%(session)s: the two-prisoner dilemma", session=md(session_name)), ""]
    if v["phase"] != "over":
        status = _("The tournament is not over.")
    elif v["ended_early"]:
        status = _("The tournament is over (ended early).")
    else:
        status = _("The tournament is over.")
    out.append(
        _.n_(
            "%(count)s player, %(played)s of %(rounds)s rounds played.",
            "%(count)s players, %(played)s of %(rounds)s rounds played.",
            len(v["players"]),
            played=_.number(played),
            rounds=_.number(v["rounds"]),
        )
        + " "
        + status
    )
    no_answer = (
        _("No answer served as silent.")
        if s["no_answer"] == "silent"
        else _("No answer served as betraying.")
    )
    out += [
        "",
        _(
            "Months: both silent %(both_silent)s each, both betray %(both_betray)s each, "
            "a betrayer %(betrayer)s and the partner betrayed %(betrayed)s.",
            both_silent=_.number(s["both_silent"]),
            both_betray=_.number(s["both_betray"]),
            betrayer=_.number(s["betrayer"]),
            betrayed=_.number(s["betrayed"]),
        )
        + " "
        + no_answer
        + " "
        + missed_rule(_, s),
    ]
    out += ["", "## " + _("Leaderboard"), ""]
    out += _table(
        ["#", _("Name"), _("Months"), _("Silent")],
        [
            [
                _.number(row["rank"]) if row["rank"] else "–",
                md(row["name"]) + ("" if row["present"] else " " + _("(left)")),
                _.number(row["months"]),
                _("%(silent)s of %(rounds)s", silent=_.number(row["silent"]),
                  rounds=_.number(row["rounds"])),
            ]
            for row in v["leaderboard"]
        ],
    )
    house = v["house"]
    if house["rounds"]:
        out += [
            "",
            _.ngettext(
                "%(name)s, the house player: %(months)s in %(num)s round, not ranked (it fills "
                "the empty seat).",
                "%(name)s, the house player: %(months)s in %(num)s rounds, not ranked (it fills "
                "the empty seat).",
                house["rounds"],
            )
            % {
                "name": md(played_name(_, v)),
                "months": months(_, house["months"]),
                "num": _.number(house["rounds"]),
            }
            + "".join(  # each strategy that played its rounds (the rounds keep their own)
                " " + _("It plays %(strategy)s: %(how)s.", strategy=strategy_name(_, key),
                        how=strategy_how(_, key))
                for key in house["played"]
            ),
        ]
    if v["cooperation"]:
        out += ["", "## " + _("Who stayed silent, round by round"), ""]
        out += _table(
            [_("Round"), _("Silent"), _("Betrayed"), _("No answer"), _("Silent share")],
            [
                [
                    _.number(c["round"]),
                    _.number(c["silent"]),
                    _.number(c["betray"]),
                    _.number(c["no_answer"]),
                    percent(_, c["rate"]),
                ]
                for c in v["cooperation"]
            ],
        )
    d = v["debrief"]
    if d is not None and d["seats"]:
        out += ["", "## " + _("Had a famous strategy sat in each seat"), ""]
        out.append(
            _(
                "Each strategy replayed in every player's seat against the choices their "
                "partners actually made; months per player, as the room served %(months)s.",
                months=_.number(round(d["people"], 1)),
            )
        )
        out.append("")
        out += _table(
            [_("Strategy"), _("How it plays"), _("Months"), _("Beat partner")],
            [
                [
                    strategy_name(_, row["strategy"]),
                    strategy_how(_, row["strategy"]),
                    _.number(round(row["months"], 1)),
                    _("%(silent)s of %(rounds)s", silent=_.number(row["ahead"]),
                      rounds=_.number(row["rounds"])),
                ]
                for row in d["strategies"]
            ],
        )
        out += [
            "",
            _(
                "Serving little and beating your partner are not the same thing: %(tft)s never "
                "serves less than its partner in a round.",
                tft=strategy_name(_, "tit_for_tat"),
            ),
        ]
    if v["explanation"]:
        silent, betray, mixed, unanswered = _pairs(state, v)
        why = [
            _(
                "Whatever your partner does, betraying shortens your own sentence "
                "(%(betrayer)s months instead of %(both_silent)s, %(both_betray)s instead of "
                "%(betrayed)s). Yet two who both stay silent serve %(silent_pair)s months "
                "between them; two who both betray serve %(betray_pair)s.",
                betrayer=s["betrayer"],
                both_silent=s["both_silent"],
                both_betray=s["both_betray"],
                betrayed=s["betrayed"],
                silent_pair=2 * s["both_silent"],
                betray_pair=2 * s["both_betray"],
            ),
            _("In this tournament:"),
            _.n_("%(count)s pair stayed silent together;", "%(count)s pairs stayed silent "
                 "together;", silent),
            _.n_("%(count)s pair betrayed each other;", "%(count)s pairs betrayed each other;",
                 betray),
            _.n_("in %(count)s pair one betrayed the other.",
                 "in %(count)s pairs one betrayed the other.", mixed),
        ]
        if unanswered:
            if s["no_answer"] == "silent":
                why.append(_.n_("%(count)s time a player gave no answer and served as silent.",
                                "%(count)s times a player gave no answer and served as silent.",
                                unanswered))
            else:
                why.append(_.n_(
                    "%(count)s time a player gave no answer and served as betraying.",
                    "%(count)s times a player gave no answer and served as betraying.",
                    unanswered,
                ))
        out += ["", "## " + _("Why betray, and why not"), "", " ".join(why)]
    return "\n".join(out) + "\n"
