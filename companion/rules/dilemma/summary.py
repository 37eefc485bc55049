"""The warm-up's results to take home as Markdown (``companion dilemma NAME --export``): what the
phones' results show (the leaderboard, the house player, silence round by round, the debrief
and why), every sentence a phrase of the rules (:mod:`companion.rules.core.phrase`).

Pure: :func:`markdown` is given the reader's ``say`` (``Language.say``) and gives the text;
names are shown as typed (see :func:`~companion.rules.dilemma.results.md`), the only text not
translated with the numbers.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from companion.rules.core.phrase import Arg, Listed, Number, Percent, Phrase, phrase, phrases
from companion.rules.dilemma import phrases as words
from companion.rules.dilemma.debrief import StrategyRow
from companion.rules.dilemma.results import md, rows
from companion.rules.dilemma.state import DilemmaState
from companion.rules.dilemma.strategies import HOW
from companion.rules.dilemma.views import BoardView, board

Text = Phrase | Listed
Say = Callable[[Text], str]


@dataclass(frozen=True)
class Heading:
    level: int
    text: Text


@dataclass(frozen=True)
class Table:
    header: tuple[Text, ...]
    rows: tuple[tuple[Arg, ...], ...]


Block = Heading | Table | Phrase | Listed  # a phrase or a list of sentences: a paragraph


def _sentences(*said: Phrase) -> Listed:
    return Listed(said, "sentences")


_HOW: dict[str, str] = {str(key): how for key, how in HOW.items()}


def _how(key: str) -> Phrase:
    """How a famous strategy plays (a message of its own); an unknown key as it is."""
    return Phrase(_HOW.get(key, key))


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


def _of(part: int, whole: int) -> Phrase:
    return phrase("%(silent)s of %(rounds)s", silent=Number(part), rounds=Number(whole))


def summary(session_name: str, state: DilemmaState) -> list[Block]:
    """The summary of the tournament in ``state``, block by block."""
    v = board(state)
    s = v["sentences"]
    if v["phase"] != "over":
        status = phrase("The tournament is not over.")
    elif v["ended_early"]:
        status = phrase("The tournament is over (ended early).")
    else:
        status = phrase("The tournament is over.")
    out: list[Block] = [
        Heading(1, phrase("%(session)s: the two-prisoner dilemma", session=md(session_name))),
        _sentences(
            phrases(
                "%(count)s player, %(played)s of %(rounds)s rounds played.",
                "%(count)s players, %(played)s of %(rounds)s rounds played.",
                len(v["players"]),
                played=Number(len(v["cooperation"])),
                rounds=Number(v["rounds"]),
            ),
            status,
        ),
        _sentences(
            phrase(
                "Months: both silent %(both_silent)s each, both betray %(both_betray)s each, "
                "a betrayer %(betrayer)s and the partner betrayed %(betrayed)s.",
                both_silent=Number(s["both_silent"]),
                both_betray=Number(s["both_betray"]),
                betrayer=Number(s["betrayer"]),
                betrayed=Number(s["betrayed"]),
            ),
            phrase("No answer served as silent.")
            if s["no_answer"] == "silent"
            else phrase("No answer served as betraying."),
            words.missed_rule(s["sitting_out"]),
        ),
        Heading(2, phrase("Leaderboard")),
        Table(
            (Phrase("#"), phrase("Name"), phrase("Months"), phrase("Silent")),
            tuple(
                (
                    Number(row["rank"]) if row["rank"] else "–",
                    md(row["name"])
                    if row["present"]
                    else Listed((md(row["name"]), phrase("(left)")), "sentences"),
                    Number(row["months"]),
                    _of(row["silent"], row["rounds"]),
                )
                for row in v["leaderboard"]
            ),
        ),
    ]
    house = v["house"]
    if house["rounds"]:
        out.append(
            _sentences(
                phrases(
                    "%(name)s, the house player: %(months)s in %(num)s round, not ranked (it "
                    "fills the empty seat).",
                    "%(name)s, the house player: %(months)s in %(num)s rounds, not ranked (it "
                    "fills the empty seat).",
                    house["rounds"],
                    name=words.house(house["played"] or [house["strategy"]]),
                    months=words.months(house["months"]),
                    num=Number(house["rounds"]),
                ),
                *(  # each strategy that played its rounds (the rounds keep their own)
                    phrase(
                        "It plays %(strategy)s: %(how)s.",
                        strategy=words.strategy(key),
                        how=_how(key),
                    )
                    for key in house["played"]
                ),
            )
        )
    if v["cooperation"]:
        out.append(Heading(2, phrase("Who stayed silent, round by round")))
        out.append(
            Table(
                (
                    phrase("Round"),
                    phrase("Silent"),
                    phrase("Betrayed"),
                    phrase("No answer"),
                    phrase("Silent share"),
                ),
                tuple(
                    (
                        Number(c["round"]),
                        Number(c["silent"]),
                        Number(c["betray"]),
                        Number(c["no_answer"]),
                        Percent(c["rate"]),
                    )
                    for c in v["cooperation"]
                ),
            )
        )
    d = v["debrief"]
    if d is not None and d["seats"]:
        out += [
            Heading(2, phrase("Had a famous strategy sat in each seat")),
            phrase(
                "Each strategy replayed in every player's seat against the choices their "
                "partners actually made; months per player, as the room served %(months)s.",
                months=Number(d["people"], 1),
            ),
            Table(
                (
                    phrase("Strategy"),
                    phrase("How it plays"),
                    phrase("Months"),
                    phrase("Beat partner"),
                ),
                tuple(
                    (
                        words.strategy(row["strategy"]),
                        _how(row["strategy"]),
                        Number(row["months"], 1),
                        _of(row["ahead"], row["rounds"]),
                    )
                    for row in d["strategies"]
                ),
            ),
            _tit_for_tat(d["strategies"]),
        ]
    if v["explanation"]:
        out += [Heading(2, phrase("Why betray, and why not")), _why(state, v)]
    return out


def _tit_for_tat(strategies: Sequence[StrategyRow]) -> Phrase:
    """What Tit for Tat did here against its partners, round by round: in a room where the
    partner changes each round, it may serve less than one (it copies the last partner)."""
    tft = next(row for row in strategies if row["strategy"] == "tit_for_tat")
    return phrases(
        "Serving little and beating your partner are not the same thing: here, where partners "
        "change from round to round, %(tft)s served less than its partner in %(ahead)s of "
        "%(num)s round.",
        "Serving little and beating your partner are not the same thing: here, where partners "
        "change from round to round, %(tft)s served less than its partner in %(ahead)s of "
        "%(num)s rounds.",
        tft["rounds"],
        tft=words.strategy("tit_for_tat"),
        ahead=Number(tft["ahead"]),
        num=Number(tft["rounds"]),
    )


def _why(state: DilemmaState, v: BoardView) -> Listed:
    s = v["sentences"]
    silent, betray, mixed, unanswered = _pairs(state, v)
    why = [
        words.dominance(s["betrayer"], s["both_silent"], s["both_betray"], s["betrayed"]),
        phrase("In this tournament:"),
        phrases(
            "%(count)s pair stayed silent together;",
            "%(count)s pairs stayed silent together;",
            silent,
        ),
        phrases("%(count)s pair betrayed each other;", "%(count)s pairs betrayed each other;",
                betray),
        phrases(
            "in %(count)s pair one betrayed the other.",
            "in %(count)s pairs one betrayed the other.",
            mixed,
        ),
    ]
    if unanswered:
        if s["no_answer"] == "silent":
            why.append(
                phrases(
                    "%(count)s time a player gave no answer and served as silent.",
                    "%(count)s times a player gave no answer and served as silent.",
                    unanswered,
                )
            )
        else:
            why.append(
                phrases(
                    "%(count)s time a player gave no answer and served as betraying.",
                    "%(count)s times a player gave no answer and served as betraying.",
                    unanswered,
                )
            )
    return Listed(tuple(why), "sentences")


def _table(say: Say, header: Sequence[Text], lines: Sequence[Sequence[Arg]]) -> list[str]:
    def cell(value: Arg) -> str:
        if isinstance(value, (Phrase, Listed)):
            return say(value)
        return say(Listed((value,), "commas"))  # a name as it is, a number in the locale

    def row(cells: list[str]) -> str:
        return "| " + " | ".join(cells) + " |"

    return [
        row([say(h) for h in header]),
        row(["---"] * len(header)),
        *(row([cell(c) for c in cells]) for cells in lines),
    ]


def markdown(session_name: str, state: DilemmaState, say: Say) -> str:
    """The summary as Markdown, each sentence said by ``say`` (the reader's language)."""
    out: list[str] = []
    for block in summary(session_name, state):
        if out:
            out.append("")
        if isinstance(block, Heading):
            out.append("#" * block.level + " " + say(block.text))
        elif isinstance(block, Table):
            out += _table(say, block.header, block.rows)
        else:
            out.append(say(block))
    return "\n".join(out) + "\n"
