"""The language a console speaks: the game master's, which is ``--lang`` when given, else the
first of the laptop's locale variables (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``)
that names a language companion has, else English. Not the session's: the players' board and
paper follow the session, the console follows the person at the keyboard.

Every console app carries its :class:`~companion.language.Language` as ``lang``; a screen or a
widget reads it with :func:`words` (``_ = words(self)``, then ``_("Save")``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from textual._context import NoActiveAppError
from textual.app import SystemCommand
from textual.dom import DOMNode

from companion.language import LOCALE_VARIABLES as LOCALE_VARIABLES
from companion.language import N_, Language, language, pN_
from companion.language import console_language as console_language
from companion.language import locale_tags as locale_tags


def words(node: DOMNode) -> Language:
    """The language of the console ``node`` is in (English for an app that has none)."""
    try:
        app = node.app
    except NoActiveAppError:  # not yet mounted: no app to ask
        return language()
    found = getattr(app, "lang", None)
    return found if isinstance(found, Language) else language()


# Textual's own commands in the command palette (``App.get_system_commands``), as Textual words
# them: marked here so the catalogs carry them, translated by :func:`translated_commands`.
TEXTUAL_COMMANDS = (
    N_("Theme"),
    N_("Change the current theme"),
    N_("Quit"),
    N_("Quit the application as soon as possible"),
    N_("Keys"),
    N_("Hide the keys and widget help panel"),
    N_("Show help for the focused widget and a summary of available keys"),
    N_("Minimize"),
    N_("Minimize the widget and restore to normal size"),
    N_("Maximize"),
    N_("Maximize the focused widget"),
    N_("Screenshot"),
    N_("Save an SVG 'screenshot' of the current screen"),
)


def translated_commands(
    commands: Iterable[SystemCommand], lang: Language
) -> Iterator[SystemCommand]:
    """Textual's palette commands with their title and help in ``lang`` (a command Textual
    adds later and the catalogs do not know stays as Textual words it)."""
    for command in commands:
        yield command._replace(title=lang(command.title), help=lang(command.help))


def enter_key(lang: Language) -> str:
    """The Enter key's name as the console's language writes it ("Entrée", "Intro")."""
    return lang.pgettext("key name", "Enter")


def esc_key(lang: Language) -> str:
    """The Escape key's name as the console's language writes it ("Échap")."""
    return lang.pgettext("key name", "Esc")


def yes_key(lang: Language) -> str:
    """The key that answers yes in the console's language ("o" for oui, "j" for ja, "s" for
    sí): one lower-case letter other than n (no, in every language here); y answers yes too."""
    key = lang.pgettext("the key that answers yes", "y")
    return key if len(key) == 1 and key.isalpha() and key.lower() != "n" else "y"


# The keys Textual names in words (``App.get_key_display``: "space", "esc", "pgup", ...), as
# each language's keyboards name them; Textual's symbols (⏎, ↑, ^z) and letters stay as they are.
KEY_NAMES = {
    "space": pN_("key name", "Space"),
    "esc": pN_("key name", "Esc"),
    "pgup": pN_("key name", "PgUp"),
    "pgdn": pN_("key name", "PgDn"),
    "tab": pN_("key name", "Tab"),
    "del": pN_("key name", "Del"),
    "home": pN_("key name", "Home"),
    "end": pN_("key name", "End"),
}


def key_name(display: str, lang: Language) -> str:
    """A key as Textual displays it (``display``), in the console's language: its footer and
    key lists name Space, Esc, PgUp… as the language does ("Espace", "Échap", "Bild↑")."""
    name = KEY_NAMES.get(display)
    said = name and lang.pgettext("key name", name)
    return said if said and said != name else display  # English, or a name kept: Textual's
