"""The rules' refusals in every language: each refusal the engines give keeps its English
sentence exactly as before (the scripts' outputs and the session log do not change), and is said
whole in a reader's language: under the pseudo-locale no English word is left but the names, and
every message a rule can refuse with is in the catalogs, translated in each shipped language."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from companion.language import LOCALE_DIR, Language, language
from companion.rules.core.game import Listed, Refusal, Refused
from companion.rules.core.roster import RosterError, check_name
from companion.rules.dilemma import strategies
from companion.rules.sucker.views import LETTERING
from tests import pseudo_locale
from tests.refusal_cases import CASES, NAMES

ROOT = Path(__file__).resolve().parent.parent
# The English of each case, as the rules said it before their sentences became messages.
ENGLISH = {
    "prison-choose-in-interviews": (
        "You can choose work or rest only during planning; it is the interviews now."
    ),
    "prison-choose-in-search": (
        "You can choose work or rest only during planning; it is the search now."
    ),
    "prison-choose-in-accusations": (
        "You can choose work or rest only during planning; it is the accusations now."
    ),
    "prison-close-in-interviews": (
        "You can close planning only during planning; it is the interviews now."
    ),
    "prison-close-in-search": "You can close planning only during planning; it is the search now.",
    "prison-close-in-accusations": (
        "You can close planning only during planning; it is the accusations now."
    ),
    "prison-interview-in-planning": (
        "You can interview a prisoner only during the interviews; it is planning now."
    ),
    "prison-interview-in-search": (
        "You can interview a prisoner only during the interviews; it is the search now."
    ),
    "prison-interview-in-accusations": (
        "You can interview a prisoner only during the interviews; it is the accusations now."
    ),
    "prison-search-in-planning": (
        "You can search a cell only during the interviews or the search; it is planning now."
    ),
    "prison-search-in-accusations": (
        "You can search a cell only during the interviews or the search; it is the accusations now."
    ),
    "prison-accuse-in-planning": (
        "You can accuse someone only during the accusations; it is planning now."
    ),
    "prison-accuse-in-interviews": (
        "You can accuse someone only during the accusations; it is the interviews now."
    ),
    "prison-accuse-in-search": (
        "You can accuse someone only during the accusations; it is the search now."
    ),
    "prison-end_day-in-planning": (
        "You can end the day only during the accusations; it is planning now."
    ),
    "prison-end_day-in-interviews": (
        "You can end the day only during the accusations; it is the interviews now."
    ),
    "prison-end_day-in-search": (
        "You can end the day only during the accusations; it is the search now."
    ),
    "prison-unknown-prisoner": (
        "There is no prisoner called 'Zed'; check the spelling against the roster."
    ),
    "prison-caught": "Ada is caught and out of the game.",
    "prison-caught-accuser": "Ada (the accuser) is caught and out of the game.",
    "prison-caught-accused": "Ada (the accused) is caught and out of the game.",
    "prison-shived": "Ben is shived and out of the game.",
    "prison-shived-accuser": "Ben (the accuser) is shived and out of the game.",
    "prison-shived-accused": "Ben (the accused) is shived and out of the game.",
    "prison-interviewed-twice": "Ben was already interviewed today.",
    "prison-named-without-a-deal": (
        "Ben took no deal, so there is nobody they named; record names only with a deal."
    ),
    "prison-named-the-informant": (
        "Ben cannot name Ben: name each other prisoner still in the game at most once."
    ),
    "prison-one-deal": (
        "The warden has already made 1 deal today, the most allowed; any other interview "
        "today ends without a deal."
    ),
    "prison-two-deals": (
        "The warden has already made 2 deals today, the most allowed; any other interview"
        " today ends without a deal."
    ),
    "prison-searched-twice": "Dee's cell was already searched today; pick another cell.",
    "prison-self-accusation": "Ben cannot accuse themselves; pick another prisoner.",
    "prison-no-shiv": "Cy holds no shiv, so cannot accuse anyone.",
    "prison-one-accusation": "Dee has already made 1 accusation today, the most allowed.",
    "prison-two-accusations": "Cy has already made 2 accusations today, the most allowed.",
    "prison-over": "The game is over; only undo is possible now.",
    "prison-nothing-to-undo": "There is nothing to undo.",
    "prison-undo-after-a-move-came-in": (
        "Nothing was undone: a move came in meanwhile, so the last move is no longer the "
        "one you were asked about; undo again to see what would be taken back."
    ),
    "sucker-play-while-awaiting-next": (
        "Nobody can play a chip now: Ann must name the next player (Bo, Cat or Dan)."
    ),
    "sucker-play-while-awaiting-kill": (
        "Nobody can play a chip now: Ann captured pile 1 and must kill one chip from it."
    ),
    "sucker-play-while-awaiting-rescue": (
        "Nobody can play a chip now: Bo holds no chips and awaits rescue (from Ann or Cat)."
    ),
    "sucker-next-while-awaiting-play": "Nobody can name the next player now: Ann must play a chip.",
    "sucker-next-while-awaiting-kill": (
        "Nobody can name the next player now: Ann captured pile 1 and must kill one chip from it."
    ),
    "sucker-next-while-awaiting-rescue": (
        "Nobody can name the next player now: Bo holds no chips and awaits rescue (from "
        "Ann or Cat)."
    ),
    "sucker-kill-while-awaiting-play": (
        "Nobody can kill a chip from a captured pile now: Ann must play a chip."
    ),
    "sucker-kill-while-awaiting-next": (
        "Nobody can kill a chip from a captured pile now: Ann must name the next player "
        "(Bo, Cat or Dan)."
    ),
    "sucker-kill-while-awaiting-rescue": (
        "Nobody can kill a chip from a captured pile now: Bo holds no chips and awaits "
        "rescue (from Ann or Cat)."
    ),
    "sucker-rescue-while-awaiting-play": "Nobody can refuse a rescue now: Ann must play a chip.",
    "sucker-rescue-while-awaiting-next": (
        "Nobody can refuse a rescue now: Ann must name the next player (Bo, Cat or Dan)."
    ),
    "sucker-rescue-while-awaiting-kill": (
        "Nobody can refuse a rescue now: Ann captured pile 1 and must kill one chip from it."
    ),
    "sucker-unknown-player": "There is no player called 'Zed'; the players are Ann, Bo, Cat, Dan.",
    "sucker-defeated-player": "Dan is defeated and out of the game.",
    "sucker-not-their-move": "It is Ann's move, not Bo's.",
    "sucker-unknown-color": (
        "There is no color 'pink' in this game; use red, blue, green or yellow."
    ),
    "sucker-color-not-held": "Ann holds no green chip; they can play red or blue.",
    "sucker-no-piles-yet": 'There is no pile 3 (piles: none yet); play on one or on "new".',
    "sucker-unknown-pile": 'There is no pile 3 (piles: 1, 2); play on one or on "new".',
    "sucker-next-already-in-the-pile": (
        "Ann's color red is already in pile 1; choose Bo, Cat or Dan."
    ),
    "sucker-kill-by-another": "Pile 1 was captured by Ann, not Bo.",
    "sucker-kill-a-color-not-in-the-pile": "Pile 1 holds no green chip; kill red or blue.",
    "sucker-transfer-own-color": (
        "Nobody may transfer chips of their own color, and Ann's color is red."
    ),
    "sucker-kill-own-color": "Nobody may kill chips of their own color, and Ann's color is red.",
    "sucker-no-such-prisoner": "Ann holds no blue prisoner.",
    "sucker-transfer-to-nobody": (
        "There is no player called 'Zed'; the players are Ann, Bo, Cat, Dan."
    ),
    "sucker-transfer-to-themselves": (
        "Ann cannot transfer a chip to themselves; name another player."
    ),
    "sucker-transfer-to-the-defeated": "Dan is defeated; chips go to live players only.",
    "sucker-refuse-own-rescue": "Bo is the one awaiting rescue; only holders of prisoners refuse.",
    "sucker-refuse-twice": "Ann has already refused to rescue Bo.",
    "sucker-refuse-without-prisoners": "Dan holds no prisoners, so has nothing to refuse.",
    "sucker-over": "The game is over (Ann won); only undo is possible now.",
    "dilemma-empty-name": "Type a name first.",
    "dilemma-long-name": (
        "The player's name 'AAAAAAAAAAAAAAAAAAAA'... is 41 characters long; use at most 40."
    ),
    "dilemma-name-with-spaces": "The player's name ' Zed' has spaces at its ends; remove them.",
    "dilemma-name-with-a-control-character": (
        "The player's name 'Z\\x07ed' holds a control character; retype it."
    ),
    "dilemma-name-taken": "The name 'ada' is already taken; add an initial or pick another.",
    "dilemma-id-taken": "That player id is taken; join again.",
    "dilemma-full": "The tournament is full (2 players); watch the board.",
    "dilemma-full-to-come-back": "The tournament is full (2 players).",
    "dilemma-unknown-player": (
        "That player is not in the tournament; join again from the room's QR code."
    ),
    "dilemma-left": "Ada has left the tournament; the game master can bring them back.",
    "dilemma-still-in": "Ben is still in the tournament.",
    "dilemma-round-still-open": "This round is still open; close it first.",
    "dilemma-too-few-players": "A round needs at least 2 players; 1 joined so far.",
    "dilemma-choose-without-a-round": (
        "No round is open; wait for the game master to start the next one."
    ),
    "dilemma-sits-out": "Zed sits out this round; wait for the next one.",
    "dilemma-close-without-a-round": "No round is open; start one first.",
    "dilemma-house-during-a-round": "A round is open; change the house player between rounds.",
    "dilemma-finish-during-a-round": "A round is still open; close it first, then finish.",
    "dilemma-finish-before-any-round": "No round has been played yet; start one first.",
    "dilemma-doors-closed": "The game master has closed the doors; nobody can join now.",
    "dilemma-doors-already-closed": "The doors are already closed.",
    "dilemma-doors-already-open": "The doors are already open.",
    "dilemma-remove-nobody": "Pick at least one player to remove.",
    "dilemma-remove-many-with-an-unknown-player": (
        "That player is not in the tournament; join again from the room's QR code."
    ),
    "dilemma-remove-many-with-one-gone": (
        "Ben has left the tournament; the game master can bring them back."
    ),
    "dilemma-join-after-the-end": "The tournament is over; nobody can join now.",
    "dilemma-leave-after-the-end": "The tournament is over; nobody can leave now.",
    "dilemma-leave-many-after-the-end": "The tournament is over; nobody can leave now.",
    "dilemma-come-back-after-the-end": "The tournament is over; nobody can come back now.",
    "dilemma-start-after-the-end": "The tournament is over; nobody can start a round now.",
    "dilemma-house-after-the-end": (
        "The tournament is over; nobody can change the house player now."
    ),
    "dilemma-finish-after-the-end": "The tournament is over; nobody can finish it again now.",
    "roster-warden-text": "The warden's name must be text, not 7.",
    "roster-prisoner-text": "The prisoner's name must be text, not 7.",
    "roster-player-text": "The player's name must be text, not 7.",
    "roster-listed-prisoner-text": "The prisoner #2's name must be text, not 7.",
    "roster-warden-empty": "The warden's name is empty; give every player a name.",
    "roster-prisoner-empty": "The prisoner's name is empty; give every player a name.",
    "roster-player-empty": "The player's name is empty; give every player a name.",
    "roster-listed-prisoner-empty": "The prisoner #2's name is empty; give every player a name.",
    "roster-warden-long": (
        "The warden's name 'AAAAAAAAAAAAAAAAAAAA'... is 41 characters long; use at most 40."
    ),
    "roster-prisoner-long": (
        "The prisoner's name 'AAAAAAAAAAAAAAAAAAAA'... is 41 characters long; use at most 40."
    ),
    "roster-player-long": (
        "The player's name 'AAAAAAAAAAAAAAAAAAAA'... is 41 characters long; use at most 40."
    ),
    "roster-listed-prisoner-long": (
        "The prisoner #2's name 'AAAAAAAAAAAAAAAAAAAA'... is 41 characters long; use at most 40."
    ),
    "roster-warden-spaces": "The warden's name ' Zed' has spaces at its ends; remove them.",
    "roster-prisoner-spaces": "The prisoner's name ' Zed' has spaces at its ends; remove them.",
    "roster-player-spaces": "The player's name ' Zed' has spaces at its ends; remove them.",
    "roster-listed-prisoner-spaces": (
        "The prisoner #2's name ' Zed' has spaces at its ends; remove them."
    ),
    "roster-warden-control": "The warden's name 'Z\\x07ed' holds a control character; retype it.",
    "roster-prisoner-control": (
        "The prisoner's name 'Z\\x07ed' holds a control character; retype it."
    ),
    "roster-player-control": "The player's name 'Z\\x07ed' holds a control character; retype it.",
    "roster-listed-prisoner-control": (
        "The prisoner #2's name 'Z\\x07ed' holds a control character; retype it."
    ),
    "dilemma-name-like-the-house": (
        "The name 'Hоuse' reads like the house player's; add an initial or pick another."
    ),
    "dilemma-name-like-the-staff": (
        "The name 'Gardien' reads like the game master's or the warden's; pick another name."
    ),
    "dilemma-name-taken-by-a-look-alike": (
        "The name 'Аda' is already taken; add an initial or pick another."
    ),
    "roster-warden-invisible": (
        "The warden's name 'Z\\u202eed' holds an invisible or direction-changing character; "
        "retype it with letters only."
    ),
    "roster-prisoner-invisible": (
        "The prisoner's name 'Z\\u202eed' holds an invisible or direction-changing character; "
        "retype it with letters only."
    ),
    "roster-player-invisible": (
        "The player's name 'Z\\u202eed' holds an invisible or direction-changing character; "
        "retype it with letters only."
    ),
    "roster-listed-prisoner-invisible": (
        "The prisoner #2's name 'Z\\u202eed' holds an invisible or direction-changing character; "
        "retype it with letters only."
    ),
    "roster-warden-blank": (
        "The warden's name '\\u0301\\u0301' has no letter one can see; type a name people can read."
    ),
    "roster-prisoner-blank": (
        "The prisoner's name '\\u0301\\u0301' has no letter one can see; "
        "type a name people can read."
    ),
    "roster-player-blank": (
        "The player's name '\\u0301\\u0301' has no letter one can see; type a name people can read."
    ),
    "roster-listed-prisoner-blank": (
        "The prisoner #2's name '\\u0301\\u0301' has no letter one can see; "
        "type a name people can read."
    ),
    "roster-warden-marks": (
        "The warden's name 'Ze\\u0332\\u0332\\u0332\\u0332\\u0332d'"
        " piles up more than 4 accents on one letter; "
        "retype it."
    ),
    "roster-prisoner-marks": (
        "The prisoner's name 'Ze\\u0332\\u0332\\u0332\\u0332\\u0332d'"
        " piles up more than 4 accents on one letter; "
        "retype it."
    ),
    "roster-player-marks": (
        "The player's name 'Ze\\u0332\\u0332\\u0332\\u0332\\u0332d'"
        " piles up more than 4 accents on one letter; "
        "retype it."
    ),
    "roster-listed-prisoner-marks": (
        "The prisoner #2's name 'Ze\\u0332\\u0332\\u0332\\u0332\\u0332d'"
        " piles up more than 4 accents on one letter; "
        "retype it."
    ),
    "roster-not-a-list": "The prisoners must be a list of names.",
    "roster-name-twice": "The name 'ada' is used twice; every player needs their own name.",
    "roster-not-exactly-the-size": (
        "This scenario is balanced for exactly 4 prisoners, but the roster has 3; pick a "
        "scenario for this group size (see 'companion scenarios')."
    ),
    "roster-not-in-the-range": (
        "This scenario is balanced for 4 to 8 prisoners, but the roster has 3; pick a "
        "scenario for this group size (see 'companion scenarios')."
    ),
}
# Lists take their joining words from Babel's locale data: the pseudo-locale lists the English way.
LIST_WORDS = [" and ", " or "]
# Messages no command can reach: the game is over before anyone is paroled or escapes.
UNREACHABLE = {
    f"%(name)s{role} is {status} and out of the game."
    for role in ("", " (the accuser)", " (the accused)")
    for status in ("paroled", "escaped")
}
# The rules' messages that are not refusals: the famous strategies' names and ways of playing,
# and how So Long Sucker letters its chips.
NOT_REFUSALS = {*strategies.NAMES.values(), *strategies.HOW.values(), LETTERING}


@pytest.fixture
def qps() -> Iterator[Language]:
    yield pseudo_locale.install()
    pseudo_locale.remove()


def rules_messages() -> set[str]:
    """Every message of the rules, extracted as scripts/catalogs.sh extracts them."""
    keywords = {"N_": None, "n_": (1, 2), "Refusal": None}
    found = set()
    for _, _, message, _, _ in extract_from_dir(
        ROOT / "companion" / "rules",
        method_map=[("**.py", "python")],
        keywords=keywords,
    ):
        found.add(message[0] if isinstance(message, tuple) else message)
    return found


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_english_sentence_is_as_it_was(name: str) -> None:
    refused = CASES[name]()
    assert refused.reason == ENGLISH[name]
    assert language("en").refused(refused) == refused.reason


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_refusal_is_said_whole_in_the_readers_language(qps: Language, name: str) -> None:
    refused = CASES[name]()
    said = qps.refused(refused)
    assert said != refused.reason
    assert pseudo_locale.leftovers(said, [*NAMES, *LIST_WORDS]) == []


def test_the_cases_reach_every_refusal_the_rules_can_give() -> None:
    reached = {CASES[name]().template for name in CASES}
    assert rules_messages() - UNREACHABLE - NOT_REFUSALS == reached
    assert not UNREACHABLE & reached


def test_every_refusal_is_in_the_catalogs_and_translated() -> None:
    messages = rules_messages()
    with (LOCALE_DIR / "companion.pot").open("rb") as file:
        template = {m.id[0] if isinstance(m.id, tuple) else m.id for m in read_po(file)}
    assert messages <= template, "run scripts/catalogs.sh update"
    placeholder = re.compile(r"%\([a-z_]+\)s")
    for po in pseudo_locale.shipped():
        with po.open("rb") as file:
            catalog = read_po(file)
        seen = set()
        for message in catalog:
            key = message.id[0] if isinstance(message.id, tuple) else message.id
            if key not in messages:
                continue
            seen.add(key)
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            assert not message.fuzzy, (po, key)
            for string in strings:
                assert string, (po, key)
                assert set(placeholder.findall(string)) == set(placeholder.findall(key)), (po, key)
        assert seen == messages, po


def test_a_refusal_keeps_its_message_and_says_lists_and_numbers_in_the_readers_words() -> None:
    refused = Refusal(
        "%(name)s holds no %(color)s chip; they can play %(colors)s.",
        name="Ann",
        color="green",
        colors=Listed(("red", "blue", "yellow"), "or"),
    ).refused
    assert refused.reason == "Ann holds no green chip; they can play red, blue or yellow."
    assert refused.template == "%(name)s holds no %(color)s chip; they can play %(colors)s."
    assert language("de").refused(refused) == (
        "Ann hat keinen Chip in green; spielbar: red, blue oder yellow."
    )
    piles = Refusal(
        'There is no pile %(pile)s (piles: %(piles)s); play on one or on "new".',
        pile=1200,
        piles=Listed((1, 2, 1000), "comma"),
    ).refused
    assert piles.reason == 'There is no pile 1200 (piles: 1, 2, 1000); play on one or on "new".'
    assert language("de").refused(piles) == (
        "Es gibt keinen Stapel 1.200 (Stapel: 1, 2 und 1.000); "
        'spielen Sie auf einen davon oder auf "new".'
    )


def test_a_refusal_with_a_count_takes_the_readers_plural() -> None:
    singular = "%(name)s has already made %(count)s accusation today, the most allowed."
    plural = "%(name)s has already made %(count)s accusations today, the most allowed."
    one = Refusal.n_(singular, plural, 1, name="Cy").refused
    two = Refusal.n_(singular, plural, 2, name="Cy").refused
    assert (one.reason, two.reason) == (
        "Cy has already made 1 accusation today, the most allowed.",
        "Cy has already made 2 accusations today, the most allowed.",
    )
    french = language("fr")
    assert french.refused(one) == ("Cy a déjà fait 1 accusation aujourd’hui, le maximum permis.")
    assert french.refused(two) == ("Cy a déjà fait 2 accusations aujourd’hui, le maximum permis.")


def test_a_reason_that_is_not_a_message_is_shown_as_it_is() -> None:
    refused = Refused("That command is malformed: no field 'x'.")
    assert language("es").refused(refused) == refused.reason


def test_a_name_of_a_part_the_rules_do_not_list_is_said_in_english() -> None:
    with pytest.raises(RosterError) as refused:
        check_name(7, "player", 2)  # a So Long Sucker setup's, from the command line only
    assert str(refused.value) == "The player #2's name must be text, not 7."
    assert refused.value.refused.template == ""
    assert language("de").refused(refused.value.refused) == str(refused.value)
