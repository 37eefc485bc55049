"""Each language speaks in one voice per audience and keeps its glossary's words.

Each catalog has its glossary as data beside it (``companion/locale/LANG/glossary.toml``): the
voice to the players (phone pages, the board, printouts and cards) and to the game master (the
consoles and the command line), as the words each voice never uses; its terms (an English term
and the translation every message using it must use, with the few exceptions by msgid); and,
for French, its typography. Who reads a message is found from where the code uses it (a fresh
extraction with the source locations): ``companion/web`` and ``companion/printing`` speak to
the players, ``companion/tui``, ``companion/cli`` and the rest to the game master; the rules'
sentences reach both (but those of a game with no phone pages), so they use neither voice's
own words (or are listed by msgid); the consoles' quoted lines (“…”, which the game master
reads aloud to the room) speak to the players. Each failure names the language, the msgid
and the rule it breaks.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from companion.games import GAMES
from companion.language import LOCALE_DIR
from tests import pseudo_locale

ROOT = Path(__file__).resolve().parent.parent
LANGS = [p.parts[-3] for p in pseudo_locale.shipped()]
PLAYERS, MASTER = "players", "game master"
TO_PLAYERS = ("companion/web/", "companion/printing/")
TO_BOTH = ("companion/rules/",)
# The game master's phone is a page of the web face (each game's game_master*, and its
# templates) and the questions before a move are the rules' phrases, but the game master alone
# reads them.
TO_MASTER = (
    *(f"companion/web/{face}/{where}game_master" for face in ("prison", "dilemma", "common")
      for where in ("", "templates/")),
    "companion/web/common/desk.py", "companion/rules/prison/asked.py",
    "companion/web/sucker/",  # So Long Sucker's web face is the game master's phone alone
)
# The rules of a game whose players have no phone pages speak only to the game master, on its
# console and its game master's phone (So Long Sucker's).
GM_ONLY = ("sucker",)
CONSOLE_ONLY = tuple(
    f"companion/rules/{g.package}/" for g in GAMES if "web" not in g.faces or g.package in GM_ONLY
)


def glossary(code: str) -> dict[str, Any]:
    with (LOCALE_DIR / code / "glossary.toml").open("rb") as file:
        return tomllib.load(file)


def catalog(code: str) -> Catalog:
    with (LOCALE_DIR / code / "LC_MESSAGES" / "companion.po").open("rb") as file:
        return read_po(file)


def msgid(message: Message) -> str:
    return message.id if isinstance(message.id, str) else message.id[0]


def english(message: Message) -> str:
    return message.id if isinstance(message.id, str) else " ".join(message.id)


def translations(message: Message) -> list[str]:
    string = message.string
    return list(string) if isinstance(string, tuple | list) else [string]


@cache
def audiences() -> dict[tuple[str | None, str], frozenset[str]]:
    """Who reads each message, from where the code uses it."""
    with tempfile.TemporaryDirectory() as folder:
        return _audiences(Path(folder) / "located.pot")


def _audiences(out: Path) -> dict[tuple[str | None, str], frozenset[str]]:
    subprocess.run(
        [sys.executable, "-m", "babel.messages.frontend", "extract", "-F", "babel.cfg",
         "-k", "N_", "-k", "pN_:1c,2", "-k", "n_:1,2", "-k", "Binding:3", "-k", "Refusal",
         "-k", "phrase", "-k", "phrases:1,2", "-o", str(out), "."],
        cwd=ROOT, check=True, capture_output=True,
    )
    with out.open("rb") as file:
        template = read_po(file)
    found: dict[tuple[str | None, str], frozenset[str]] = {}
    for message in template:
        if not message.id:
            continue
        readers: set[str] = set()
        for path, _line in message.locations:
            if path.startswith(TO_MASTER):
                readers.add(MASTER)
            elif path.startswith(TO_PLAYERS):
                readers.add(PLAYERS)
            elif path.startswith(CONSOLE_ONLY):
                readers.add(MASTER)
            elif path.startswith(TO_BOTH):
                readers |= {PLAYERS, MASTER}
            else:
                readers.add(MASTER)
        found[(message.context, msgid(message))] = frozenset(readers)
    return found


def readers(message: Message, voice: dict[str, Any]) -> frozenset[str]:
    key = msgid(message)
    if key in voice.get("to_players", []) or key.startswith("“"):
        return frozenset({PLAYERS})
    if key in voice.get("to_game_master", []):
        return frozenset({MASTER})
    return audiences().get((message.context, key), frozenset({PLAYERS, MASTER}))


def messages(code: str) -> Iterator[Message]:
    return (m for m in catalog(code) if m.id)


def voice_problems(code: str) -> list[str]:
    voice = glossary(code)["voice"]
    flags = 0 if voice.get("case_sensitive") else re.IGNORECASE
    formal = re.compile(voice["formal"], flags)  # the game master's voice
    familiar = re.compile(voice["familiar"], flags)  # the players' voice
    groups = set(voice.get("to_several", []))  # said to several players at once
    found = []
    for message in messages(code):
        who = readers(message, voice)
        for text in translations(message):
            if PLAYERS in who and msgid(message) not in groups and (hit := formal.search(text)):
                found.append(
                    f"{code}: {msgid(message)!r} is read by the players but says "
                    f"{hit.group(0)!r}, the game master's voice ({voice['game_master']}): "
                    f"{text!r}"
                )
            if MASTER in who and msgid(message) not in voice.get("idioms", []) and (
                hit := familiar.search(text)
            ):
                found.append(
                    f"{code}: {msgid(message)!r} is read by the game master but says "
                    f"{hit.group(0)!r}, the players' voice ({voice['players']}): {text!r}"
                )
    return found


PLACEHOLDER = re.compile(r"%\([a-z_]+\)[sdr]")

# Where an order begins: a message's or a sentence's start, after a colon or a semicolon, or
# after "then" / "and" / "or".
ORDER_STARTS = {
    "fr": r"(?:^|[.;:!?(«]\s*|\b(?:puis|et|ou|sinon)\s+)",
    "es": r"(?:^|[.;:!?¡¿(«]\s*|\b(?:y|o|luego|después)\s+)",
    # German: where a lower-case word after a stop or a conjunction is an order (a capital
    # word there may be a noun; the voice's own words catch the orders that open a message)
    "de": r"(?:[.;:!?]\s+|,\s+|\b(?:und|oder|dann|sonst|danach|zuerst)\s+)",
}
DE_FORMS = {"gib", "nimm", "sieh", "lies", "tritt", "hilf", "sprich", "wirf", "lass", "komm",
             "geh", "mach", "sag", "frag", "such", "bleib", "zeig", "hol", "lad", "lade",
             "versuch", "versuche", "entferne", "melde", "nenne", "wechsle", "vernichte"}
# The pronouns an order carries after a hyphen (French) or fused to it (Spanish).
FR_CLITIC = re.compile(r"\b(\w+)-(?:le|la|les|en|moi|lui|leur|y)\b", re.IGNORECASE)
ES_CLITIC = re.compile(r"^(\w+?)(?:se)?(?:lo|la|los|las|le|les|me|nos)$")
ES_IRREGULAR = {"di", "haz", "pon", "ven", "sal", "ten"}  # dime, ponlo, ...
ACCENTS = str.maketrans("áéíóú", "aeiou")


def catalog_words(code: str) -> set[str]:
    return {w for m in messages(code) for t in translations(m) for w in re.findall(r"\w+",
                                                                               t.lower())}


def fr_orders(words: set[str]) -> set[str]:
    """The 2nd person singular imperatives of the catalog's own -er verbs (from its infinitives
    and its "vous" forms: donner, donnez, give donne; tuer gives tue, réessayer réessaie)."""
    made = {w[:-2] + "e" for w in words if len(w) > 3 and w.endswith(("er", "ez"))}
    return made | {w[:-3] + "ie" for w in words if w.endswith(("yer", "yez"))}  # réessaie


def de_orders(code: str) -> set[str]:
    """The "du" imperatives of the catalog's own verbs, from its "Sie" orders (entfernen Sie,
    laden Sie give entferne, lade) and the strong verbs' forms no ending makes (gib, nimm)."""
    texts = (PLACEHOLDER.sub("x", t) for m in messages(code) for t in translations(m))
    made = {verb[:-1] for t in texts for verb in re.findall(r"\b([a-zäöü]\w+en) Sie\b", t)}
    return made | DE_FORMS


def es_stems(stem: str) -> Iterator[str]:
    """A Spanish verb's stem and its stem-changed forms (volver: vuelv-, pedir: pid-)."""
    yield stem
    for old, new in (("o", "ue"), ("e", "ie"), ("e", "i"), ("u", "ue")):
        at = stem.rfind(old)
        if at > 0:
            yield stem[:at] + new + stem[at + 1:]


def es_orders(words: set[str]) -> tuple[set[str], set[str]]:
    """The tú imperatives (cambia, vuelve) and tú presents (escribes, sales) of the catalog's
    own verbs, from their infinitives."""
    orders, presents = set(ES_IRREGULAR), set()
    for word in words:
        if len(word) > 3 and word.endswith(("ar", "er", "ir")):
            vowel = "a" if word.endswith("ar") else "e"
            for stem in es_stems(word[:-2]):
                orders.add(stem + vowel)
                presents.add(stem + vowel + "s")
    return orders, presents


def order_problems(code: str) -> list[str]:
    """Orders in the players' voice (tu / tú / du) in a message the game master reads: French,
    Spanish and German imperatives of the catalog's verbs at the start of a sentence or with
    their pronouns (donne, ferme-la, commences-en; cambia, ciérrala, di de quién; entferne sie,
    lade die Seite neu, in lower case after a stop or a conjunction) and Spanish tú presents
    (mientras escribes)."""
    voice = glossary(code)["voice"]
    if code not in ORDER_STARTS:
        return []
    words = catalog_words(code)
    not_orders = set(voice.get("not_orders", []))
    described = set(voice.get("descriptions", []))  # a verb that tells what someone does
    start = re.compile(ORDER_STARTS[code] + r"(\w+)\b")
    if code == "fr":
        orders, presents = fr_orders(words) - not_orders, set()
    elif code == "de":  # lower case only: Lade is not lade
        orders, presents = de_orders(code) - not_orders, set()
    else:
        orders, presents = es_orders(words)
        orders -= not_orders
        presents -= not_orders
    found = []
    for message in messages(code):
        if MASTER not in readers(message, voice) or msgid(message) in voice.get("idioms", []):
            continue
        for text in translations(message):
            bare = PLACEHOLDER.sub("x", text)
            hits = []
            if msgid(message) not in described:
                hits += [h for h in start.findall(bare)
                         if (h if code == "de" else h.lower()) in orders]
            if code == "de":
                pass
            elif code == "fr":
                hits += [m.group(0) for m in FR_CLITIC.finditer(bare)
                         if not m.group(1).lower().endswith("ez")]
            else:
                for word in re.findall(r"\w+", bare):
                    fused = ES_CLITIC.match(word.lower())
                    if word.lower() in presents or (
                        fused and re.search("[áéíóú]", word)
                        and fused.group(1).translate(ACCENTS) in orders
                    ):
                        hits.append(word)
            found += [
                f"{code}: {msgid(message)!r} is read by the game master but orders "
                f"{hit!r} in the players' voice ({voice['players']}): {text!r}"
                for hit in hits
            ]
    return found


def term_problems(code: str) -> list[str]:
    found = []
    all_messages = list(messages(code))
    for term in glossary(code)["term"]:
        used = re.compile(rf"\b(?:{term['en']})\b", re.IGNORECASE)
        said = re.compile(term["say"], re.IGNORECASE)
        avoid = re.compile(term["avoid"], re.IGNORECASE) if "avoid" in term else None
        allowed = set(term.get("except", []))
        for message in all_messages:
            if msgid(message) in allowed or not used.search(PLACEHOLDER.sub("", english(message))):
                continue
            for text in translations(message):
                if not said.search(PLACEHOLDER.sub("", text)):
                    found.append(
                        f"{code}: {msgid(message)!r} says {term['en']!r} but its translation "
                        f"lacks {term['say']!r} (the glossary's word): {text!r}"
                    )
                elif avoid is not None and (hit := avoid.search(PLACEHOLDER.sub("", text))):
                    found.append(
                        f"{code}: {msgid(message)!r} says {term['en']!r} as {hit.group(0)!r}, "
                        f"not the glossary's {term['say']!r}: {text!r}"
                    )
    return found


# French typography: a no-break space (U+00A0, or the narrow U+202F) before : ; ? ! and inside
# « », the typographic apostrophe. Placeholders, times (14:05) and addresses (http://) have no
# space before their colon and are left alone.
PLAIN_SPACE_BEFORE = re.compile(r" [:;?!]")
NO_SPACE_BEFORE = re.compile(r"(?<=[^\s\u00a0\u202f])(?:[;?!]|:(?=\s|$))")
STRAIGHT_APOSTROPHE = re.compile(r"(?<=[^\W\d_])'(?=[^\W\d_])")
BARE_GUILLEMETS = re.compile(r"«(?![\u00a0\u202f])|(?<![\u00a0\u202f])»")


def typography_problems(code: str) -> list[str]:
    rules = glossary(code).get("typography", {})
    checks = []
    if rules.get("space_before_double_punctuation"):
        checks += [
            (PLAIN_SPACE_BEFORE, "a plain space before {0!r} (use a no-break space, U+00A0)"),
            (NO_SPACE_BEFORE, "no no-break space before {0!r}"),
            (BARE_GUILLEMETS, "no no-break space inside « » at {0!r}"),
        ]
    if rules.get("typographic_apostrophe"):
        checks.append((STRAIGHT_APOSTROPHE, "a straight apostrophe {0!r} (use ’)"))
    exceptions = set(rules.get("except", []))
    found = []
    for message in messages(code):
        if msgid(message) in exceptions:
            continue
        for text in translations(message):
            bare = re.sub(r"https?://\S+|\[[^\]]*\]", "x", PLACEHOLDER.sub("x", text))
            for pattern, rule in checks:
                if hit := pattern.search(bare):
                    found.append(f"{code}: {msgid(message)!r} has {rule.format(hit.group(0))}: "
                                 f"{text!r}")
    return found


@pytest.mark.parametrize("code", LANGS)
def test_each_audience_is_spoken_to_in_one_voice(code: str) -> None:
    assert voice_problems(code) == []


@pytest.mark.parametrize("code", LANGS)
def test_the_game_master_is_not_given_the_players_orders(code: str) -> None:
    assert order_problems(code) == []


def avoid_problems(code: str) -> list[str]:
    """No message says a wording the glossary's ``[[avoid]]`` lists (a native reader's
    correction, with its reason)."""
    found = []
    for rule in glossary(code).get("avoid", []):
        pattern = re.compile(rule["say"])
        found += [
            f"{code}: {msgid(message)!r} says {hit.group(0)!r}: {rule['why']}: {text!r}"
            for message in messages(code)
            for text in translations(message)
            if (hit := pattern.search(text))
        ]
    return found


@pytest.mark.parametrize("code", LANGS)
def test_no_message_says_what_a_native_reader_corrected(code: str) -> None:
    assert avoid_problems(code) == []


@pytest.mark.parametrize("code", LANGS)
def test_every_message_keeps_the_glossary_words(code: str) -> None:
    assert term_problems(code) == []


@pytest.mark.parametrize("code", LANGS)
def test_the_typography_follows_the_language(code: str) -> None:
    assert typography_problems(code) == []


@pytest.mark.parametrize("code", LANGS)
def test_the_glossary_lists_only_messages_that_exist(code: str) -> None:
    """An exception or an audience named by msgid is a message of the catalog (a message
    renamed in the code must be renamed in the glossary)."""
    ids = {msgid(m) for m in messages(code)}
    data = glossary(code)
    named = [*data["voice"].get("to_players", []), *data["voice"].get("to_game_master", []),
             *data["voice"].get("to_several", []), *data["voice"].get("idioms", []),
             *data["voice"].get("descriptions", []),
             *data.get("typography", {}).get("except", [])]
    named += [m for term in data["term"] for m in term.get("except", [])]
    assert [m for m in named if m not in ids] == []


def test_the_checks_catch_what_they_are_for() -> None:
    """Each rule fails on a message that breaks it (so an empty list above means something)."""
    assert NO_SPACE_BEFORE.search("Jour: 3") and NO_SPACE_BEFORE.search("Prêt?")
    assert not NO_SPACE_BEFORE.search("Jour\u00a0: 3 à 14:05, http://x")
    assert PLAIN_SPACE_BEFORE.search("Jour : 3") and not PLAIN_SPACE_BEFORE.search("Jour\u00a0:")
    assert STRAIGHT_APOSTROPHE.search("l'évasion") and not STRAIGHT_APOSTROPHE.search("'x'")
    assert BARE_GUILLEMETS.search("« non »") and not BARE_GUILLEMETS.search("«\u00a0oui\u00a0»")
    fr = glossary("fr")["voice"]
    assert re.search(fr["formal"], "Découpez le long des tirets", re.IGNORECASE)
    assert re.search(fr["familiar"], "Assure-toi que personne ne regarde", re.IGNORECASE)
    assert not re.search(fr["familiar"], "Qui s’est tu, manche par manche", re.IGNORECASE)
    de = glossary("de")["voice"]
    assert re.search(de["familiar"], "Drücke n für die nächste Runde")
    assert re.search(de["formal"], "Drücken Sie n")
    fr_verbs = fr_orders({"donnez", "fermer", "imprimer"})
    assert {"donne", "ferme", "imprime"} <= fr_verbs
    assert FR_CLITIC.search("ferme-la d’abord") and FR_CLITIC.search("commences-en une")
    assert {"tue", "réessaie"} <= fr_orders({"tuer", "réessayer"})
    de_start = re.compile(ORDER_STARTS["de"] + r"(\w+)\b")
    assert de_start.findall("Der Name hat Leerzeichen; entferne sie.") == ["entferne"]
    assert de_start.findall("Die Anfrage ist unverständlich; lade die Seite neu.") == ["lade"]
    assert "entferne" in DE_FORMS and {"lade", "tritt"} <= de_orders("de")
    assert "entfernen" not in de_orders("de")  # "bitte entfernen": an infinitive, for both
    es_verbs, es_presents = es_orders({"volver", "cambiar", "escribir", "cerrar"})
    assert {"vuelve", "cambia", "cierra", "di"} <= es_verbs and "escribes" in es_presents
    es = glossary("es")["voice"]
    assert re.search(es["familiar"], "Pulsa n para la siguiente ronda", re.IGNORECASE)
    assert re.search(es["formal"], "Asegúrese de que nadie mire", re.IGNORECASE)
