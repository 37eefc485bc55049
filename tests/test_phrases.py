"""The rules' phrases (companion.rules.core.phrase): written once by the rules, said in English
as the rules always wrote them, and in a reader's language through the catalogs, names kept as
typed."""

from __future__ import annotations

from typing import Any

from companion.language import language
from companion.rules.core.game import History, Refusal, Refused
from companion.rules.core.phrase import Listed, Phrase, phrase, phrases
from companion.rules.dilemma import phrases as dilemma
from companion.rules.dilemma.seen import seen_by_the_room
from companion.rules.dilemma.views import explanation, gm
from companion.rules.sucker.engine import SO_LONG_SUCKER, initial_state
from companion.rules.sucker.views import event_phrase, says, table
from tests.dilemma_helpers import ok, tournament

SETUP = {
    "players": [
        {"name": "Ann", "color": "red"},
        {"name": "Bo", "color": "blue"},
        {"name": "Cat", "color": "green"},
    ],
    "first": "Ann",
}


def test_a_phrase_says_its_english_with_nested_phrases_lists_and_counts() -> None:
    more = phrases("%(pairs)s, and %(count)s more pair", "%(pairs)s, and %(count)s more pairs",
                   4, pairs=Listed((phrase("%(a)s betrayed %(b)s", a="Ann", b="Bob"), "x"),
                                   "commas"))
    assert str(more) == "Ann betrayed Bob, x, and 4 more pairs"
    assert phrases("%(count)s month", "%(count)s months", 1).english() == "1 month"
    assert str(Listed(("red", "blue", 3), "or")) == "red, blue or 3"
    assert str(Listed((), nobody=phrase("nobody"))) == "nobody"
    assert phrase("100%% sure") == Phrase("100%% sure")  # no params: the message as it is
    assert str(phrase("%(n)s%%", n=5)) == "5%"


def test_a_refusal_is_a_phrase_raised() -> None:
    refusal = Refusal.n_("%(count)s chip left", "%(count)s chips left", 2)
    assert str(refusal) == "2 chips left"
    assert refusal.refused.phrase == Phrase("%(count)s chip left", (), "%(count)s chips left", 2)
    assert language("de").refused(refusal.refused) == language("de").say(refusal.phrase)


def test_the_table_says_in_english_what_its_view_says_and_in_german_its_own_words() -> None:
    h = History(SO_LONG_SUCKER, initial_state(SETUP))
    assert language().say(says(table(h.state)["awaiting"], None)) == table(h.state)["says"]
    assert language("de").say(says(table(h.state)["awaiting"], None)) == (
        "Ann muss einen Chip spielen."
    )
    entry = h.submit(SO_LONG_SUCKER.parse_command({"do": "play", "player": "Ann",
                                                   "color": "red", "pile": "new"}))
    assert not isinstance(entry, Refused)
    lines = [event_phrase(e) for e in entry.events]
    said = [language("de").say(p) for p in lines if p is not None]
    english = [str(p) for p in lines if p is not None]
    assert said and all("Ann" in line for line in said[:1])
    assert said != english  # translated, not the rules' English


def revealed(names: list[str], **overrides: Any) -> History[Any, Any, Any]:
    h = tournament(names, **overrides)
    ok(h, {"do": "start_round", "seed": 5})
    for i, pid in enumerate(list(h.state.waiting())[:-1]):
        ok(h, {"do": "choose", "pid": pid, "choice": "betray" if i % 3 else "silent"})
    return h


def test_what_the_room_saw_is_said_in_german_with_names_as_typed() -> None:
    names = ["[b]Eve[/b]", "*Max*", *(f"Player {i}" for i in range(7))]  # the house: a tenth
    h = revealed(names)
    entry = ok(h, {"do": "close_round"})
    seen = seen_by_the_room(h.state, entry.events)
    assert seen is not None
    de = language("de")
    words = de.say(seen.words)
    assert de.say(seen.title) == "das Aufdecken von Runde 1"
    assert words.startswith("die Wahlen von Runde 1 (") and "weitere Paare" in words
    assert str(seen.words).startswith("round 1's choices (") and "more pairs)" in str(seen.words)
    shown = [n for n in names if n in str(seen.words)]
    assert shown and all(n in words for n in shown)  # the same names, as typed
    house = de.say(dilemma.house(["tit_for_tat", "always_betray"]))
    assert house == "Haus (Wie du mir, so ich dir und Immer Verraten)"


def test_the_explanation_and_the_missed_rule_in_english_are_the_views_and_in_german_not() -> None:
    for rule in ("silent", "betray"):
        h = revealed([f"Player {i}" for i in range(9)], no_answer=rule)
        ok(h, {"do": "close_round"})
        ok(h, {"do": "finish"})
        v = gm(h.state)
        assert language().say(dilemma.explanation(h.state)) == v["explanation"]
        assert v["explanation"] == explanation(h.state)
        assert "a player gave no answer" in v["explanation"]
        german = language("de").say(dilemma.explanation(h.state))
        assert german and german != v["explanation"] and "%(" not in german
        missed = dilemma.missed_rule(v["sentences"]["sitting_out"])
        assert language().say(missed) == v["missed_rule"]
        assert language("de").say(missed) != v["missed_rule"]


def test_a_prison_night_and_a_correction_in_english_and_german_names_as_typed() -> None:
    from companion.rules.prison import phrases as prison

    night = prison.night_work(["[b]Ada[/b]", "Cy"], ["*Ben*"])
    assert str(night) == "[b]Ada[/b] and Cy worked, and *Ben* was caught working"
    assert language("de").say(night) == (
        "[b]Ada[/b] und Cy haben gearbeitet, und *Ben* wurde beim Arbeiten erwischt"
    )
    assert str(prison.night_work([], [])) == "nobody worked"
    move = {"do": "accuse", "accuser": "Tom", "accused": "Ravi"}
    assert str(prison.taken_back(move, None, correction=True)) == (
        "Correction: the game master took back Tom's accusation of Ravi."
    )
    assert str(prison.choices({})) == "choices: no choices"
    assert str(prison.choices({"Ada": "work", "Ben": "rest"})) == "choices: Ada: work, Ben: rest"
    assert language("de").say(prison.choices({})) != "choices: no choices"


def test_what_the_room_is_told_of_a_prison_day_in_english_and_german_names_as_typed() -> None:
    from companion.rules.prison import news
    from companion.rules.prison.room import RevealView, Saw
    from companion.rules.prison.views import PublicDay

    day: PublicDay = {
        "day": 1, "interviewed": [], "revealed": True, "workers": ["Ada", "*Cy*"],
        "searches": [{"prisoner": "[b]Ben[/b]", "caught": True}], "nights_added": 2,
        "accusations": [{"accuser": "Tom", "accused": "Ravi", "result": "shived"}],
    }
    english = [str(line) for line in news.results(day)]
    assert english == [
        "The warden searched [b]Ben[/b]'s cell: [b]Ben[/b] was caught working.",
        "Ada and *Cy* worked: 2 nights of work done.",
        "Tom accused Ravi, who had taken a deal: Ravi is SHIVED and out of the game.",
    ]
    german = [language("de").say(line) for line in news.results(day)]
    assert all("%(" not in line for line in german) and german != english
    assert "[b]Ben[/b]" in german[0] and "*Cy*" in german[1] and "Ravi" in german[2]
    reveal: RevealView = {
        "prisoner": "[b]Ben[/b]", "shown": ["search", "result", "night", "outcome"],
        "held": False, "caught": False, "workers": [], "nights_added": 0,
        "outcome": "escape", "winners": ["Ada"],
    }
    shown = news.reveal_lines(reveal)
    lines = [(step, str(head), line and str(line)) for step, head, line in shown]
    assert lines == [
        ("search", "The warden searches [b]Ben[/b]'s cell…", None),
        ("safe", "SAFE", "[b]Ben[/b] was not working."),
        ("night", "Nobody worked tonight", "No night of work was done."),
        ("outcome", "GAME OVER", "The prisoners escaped! Winners: Ada."),
    ]
    saw = news.room_saw(Saw("search", "[b]Ben[/b]", result=True, caught=True, night=True))
    assert str(saw) == "that [b]Ben[/b] was caught working and who worked tonight"
    assert "[b]Ben[/b]" in language("de").say(saw) and language("de").say(saw) != str(saw)



def test_french_elides_de_and_que_before_a_name_that_starts_with_a_vowel() -> None:
    """« L’entretien d’Ada », « la cellule d’Ève », « qu’Ada a nommé » in every French message
    that puts de or que before a placeholder, said as the faces say it (a phrase of the rules,
    a console's or a page's message); « de Ben », « de Hugo », « de 3 » stay."""
    import re

    from babel.messages.pofile import read_po
    from markupsafe import Markup

    from companion.language import LOCALE_DIR
    from companion.rules.prison import news
    from companion.rules.prison.room import Saw
    from companion.web.common.rendering import _callables

    fr = language("fr")
    with (LOCALE_DIR / "fr" / "LC_MESSAGES" / "companion.po").open("rb") as file:
        catalog = [m for m in read_po(file) if m.id]
    before = re.compile(r"\b(de|que) %\((\w+)\)s", re.IGNORECASE)
    placeholder = re.compile(r"%\((\w+)\)([sdr])")
    checked = 0
    for message in catalog:
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if not any(before.search(text) for text in strings):
            continue
        checked += 1
        for name in ("Ada", "Ben"):
            params: dict[str, object] = {
                p: (1 if kind == "d" else name)
                for p, kind in placeholder.findall(" ".join(strings)) if p != "count"
            }
            if isinstance(message.id, str):
                said = fr(message.id, **params)
            else:
                said = fr.n_(message.id[0], message.id[1], 2, **params)
            assert not re.search(rf"\b(de|que) {name}\b", said, re.IGNORECASE) or name == "Ben"
            assert f"d’{name}" in said or f"qu’{name}" in said or name == "Ben" or not any(
                p != "count" for _, p in before.findall(said.replace(name, "%(x)s"))
            ), said
            assert "d’Ben" not in said and "qu’Ben" not in said
    assert checked >= 60  # about 70 messages put de or que before a placeholder
    seen = news.room_saw(Saw("search", "Ada", result=True, caught=True))
    assert fr.say(seen) == "qu’Ada s’est fait prendre à travailler"
    assert fr("%(name)s's interview is recorded.", name="Ada") == "L’entretien d’Ada est noté."
    assert fr("%(name)s's interview is recorded.", name="Ève") == "L’entretien d’Ève est noté."
    assert fr("%(name)s's interview is recorded.", name="Hugo") == "L’entretien de Hugo est noté."
    page = _callables(fr)["_"]
    assert page("%(name)s's interview is recorded.", name="Ada") == "L’entretien d’Ada est noté."
    assert page("%(name)s's interview is recorded.", name=Markup("<b>Ada")) == (
        "L’entretien de <b>Ada est noté."  # markup given as markup; its first letter is no vowel
    )
    assert page("%(name)s's interview is recorded.", name="<b>Ada") == (
        "L’entretien de &lt;b&gt;Ada est noté."
    )
