"""The referee's short move entry for So Long Sucker, and the hint of what may be typed now.

Pure (no Textual): reads the table view of :mod:`companion.rules.sucker.views` and turns a line
such as ``r 2`` into the typed command (:mod:`companion.rules.sucker.commands`), or raises
:class:`EntryError` with one sentence saying what to type instead.

    r 2 / r n          play red on pile 2 / on a new pile (by the player to move)
    next bo / bo       the mover names the next player
    kill g / g         the capturer kills a green chip from the captured pile
    give g bo          a prisoner changes hands (``ann give g bo`` names who gives)
    give g             during a rescue: to the player in need
    killp g            a prisoner is killed (``ann killp g`` names whose)
    refuse / refuse ann   a holder declines the rescue
    undo               take back the last move (also ctrl+z)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from companion.language import N_, Language, language
from companion.rules.sucker.commands import (
    Kill,
    KillPrisoner,
    Next,
    Play,
    Refuse,
    SuckerCommand,
    Transfer,
)
from companion.rules.sucker.views import command_phrase, says

View = Mapping[str, Any]  # a view of the rules (companion.rules.sucker.views), read by key

# What may be typed (as typed: the entry's words are the same in every language) and what it
# does (a message, translated where shown).
SYNTAX = [
    ("r 2  ·  r n", N_("play a red chip on pile 2  ·  on a new pile")),
    ("next bo  ·  bo", N_("name the next player")),
    ("kill g", N_("the capturer kills a green chip from the captured pile")),
    ("give g bo", N_("a prisoner changes hands (ann give g bo: Ann gives)")),
    ("give g", N_("rescue: give a green prisoner to the player in need")),
    ("killp g", N_("kill a prisoner (ann killp g: Ann's)")),
    ("refuse  ·  refuse ann", N_("a holder of prisoners declines the rescue")),
    ("undo", N_("take back the last move (ctrl+z)")),
]
COLORS_HELP = (N_("colors"), N_("type a chip's letter (shown on it) or its color's name"))
NEW_PILE = {"n", "new", "+"}
UNDO: Literal["undo"] = "undo"


class EntryError(ValueError):
    """An entry the referee cannot read; the message says what to type."""


class _Table:
    def __init__(self, lang: Language, view: View) -> None:
        self._ = lang
        self.view = view
        self.players = view["players"]
        self.names: list[str] = [p["name"] for p in self.players]
        self.keys: dict[str, str] = view["keys"]
        self.awaiting: View = view["awaiting"]

    def _or(self, items: list[str]) -> str:
        return self._.joined(items, style="or")

    def says(self) -> str:
        return self._.say(says(self.view["awaiting"], self.view["winner"]))

    # ---- words ------------------------------------------------------------------------

    def name(self, word: str) -> str:
        low = word.casefold()
        exact = [n for n in self.names if n.casefold() == low]
        if exact:
            return exact[0]
        starts = [n for n in self.names if n.casefold().startswith(low)]
        if len(starts) == 1:
            return starts[0]
        if starts:
            raise EntryError(self._("%(word)r could be %(names)s; type more of the name.",
                                    word=word, names=self._or(starts)))
        raise EntryError(self._("There is no player %(word)r; the players are %(names)s.",
                                word=word, names=self._or(self.names)))

    def color(self, word: str) -> str:
        low = word.casefold()
        for color, key in self.keys.items():
            if low in (key.casefold(), color.casefold()):
                return color
        starts = [c for c in self.keys if c.casefold().startswith(low)]
        if len(starts) == 1:
            return starts[0]
        if starts:  # a shared initial names none of its colors (views.color_keys)
            keys = self._or([f"{self.keys[c].lower()} ({c})" for c in starts])
            raise EntryError(self._("%(word)r could be %(colors)s; type its letter: %(keys)s.",
                                    word=word, colors=self._or(starts), keys=keys))
        keys = ", ".join(f"{k.lower()} ({c})" for c, k in self.keys.items())
        if self.is_name(word):
            raise EntryError(self._(
                "%(word)r is a player; a chip's color is wanted there: type one of %(keys)s.",
                word=word, keys=keys))
        raise EntryError(self._("%(word)r is not a color here; type one of %(keys)s.",
                                word=word, keys=keys))

    # ---- examples from this table (hints name only the piles, colors and players here) --

    def letter(self, color: str | None = None) -> str:
        """A color's letter as typed (the first color's, by default)."""
        return self.keys[color or next(iter(self.keys))].lower()

    def someone(self, but: str | None = None) -> str:
        """A player's name as typed: the first one who is not ``but``."""
        others = [n for n in self.names if n != but] or self.names
        return others[0].casefold()

    def pile(self) -> int | None:
        """A pile on the table now (the lowest), if there is one."""
        piles = [int(n) for n in self.view["piles"]]
        return min(piles) if piles else None

    def is_name(self, word: str) -> bool:
        try:
            self.name(word)
        except EntryError:
            return False
        return True

    def holders(self, color: str) -> list[str]:
        return [p["name"] for p in self.players if p["prisoners"].get(color)]

    def holder(self, color: str, verb: str) -> str:
        holders = self.holders(color)
        if len(holders) == 1:
            return holders[0]
        if not holders:
            raise EntryError(self._("Nobody holds a %(color)s prisoner.", color=color))
        example = f"{holders[0].casefold()} {verb} {self.keys[color].lower()}"
        raise EntryError(self._("%(names)s hold %(color)s prisoners; say whose, as in "
                                "'%(example)s …'.", names=self._or(holders), color=color,
                                example=example))

    # ---- commands ---------------------------------------------------------------------

    def play(self, color_word: str, pile_word: str) -> Play:
        if self.awaiting["what"] != "play":
            raise EntryError(self._("Nobody is to play a chip now: %(says)s",
                                    says=self.says()))
        color = self.color(color_word)
        pile: int | Literal["new"]
        if pile_word.casefold() in NEW_PILE:
            pile = "new"
        elif pile_word.isdigit():
            pile = int(pile_word)
        else:
            raise EntryError(self._("%(word)r is not a pile; type a pile number or n for a new "
                                    "one.", word=pile_word))
        return Play(player=self.awaiting["player"], color=color, pile=pile)

    def next(self, word: str) -> Next:
        if self.awaiting["what"] != "next":
            raise EntryError(self._("Nobody is naming the next player now: %(says)s",
                                    says=self.says()))
        return Next(player=self.name(word))

    def kill(self, word: str | None) -> Kill:
        """``kill g``; ``kill`` alone (or an empty line) when one color alone can be killed."""
        if self.awaiting["what"] != "kill":
            raise EntryError(self._(
                "No pile is waiting to be captured; to kill a prisoner type 'killp COLOR'."
            ))
        colors: list[str] = self.awaiting["colors"]
        if word is None:
            if len(colors) != 1:
                letters = self._or([f"'kill {self.keys[c].lower()}'" for c in colors])
                raise EntryError(self._("Say which color %(name)s kills: %(choices)s.",
                                        name=self.awaiting["player"], choices=letters))
            return Kill(player=self.awaiting["player"], color=colors[0])
        return Kill(player=self.awaiting["player"], color=self.color(word))

    def give(self, words: list[str], holder: str | None) -> Transfer:
        if not words or len(words) > 2:
            example = f"give {self.letter()} {self.someone(self.awaiting['player'])}"
            raise EntryError(self._("Type 'give COLOR NAME', as in '%(example)s'.",
                                    example=example))
        color = self.color(words[0])
        if len(words) == 2:
            to = self.name(words[1])
        elif self.awaiting["what"] == "rescue":
            to = self.awaiting["player"]
        else:
            raise EntryError(self._("Say to whom: 'give %(color)s NAME'.", color=words[0]))
        giver = holder or self.holder(color, "give")
        return Transfer(player=giver, color=color, to=to)

    def killp(self, words: list[str], holder: str | None) -> KillPrisoner:
        if len(words) != 1:
            held = [c for p in self.players for c in p["prisoners"]]
            raise EntryError(self._("Type 'killp COLOR', as in '%(example)s'.",
                                    example=f"killp {self.letter(held[0] if held else None)}"))
        color = self.color(words[0])
        return KillPrisoner(player=holder or self.holder(color, "killp"), color=color)

    def refuse(self, words: list[str], holder: str | None) -> Refuse:
        if self.awaiting["what"] != "rescue":
            raise EntryError(self._("Nobody awaits rescue now: %(says)s", says=self.says()))
        if words:
            holder = self.name(words[0])
        if holder is None:
            pending = self.awaiting["pending"]
            if len(pending) != 1:
                raise EntryError(self._("Say who refuses: %(names)s (as in 'refuse name').",
                                        names=self._or(pending)))
            holder = pending[0]
        return Refuse(player=holder)


def parse_entry(lang: Language, view: View, text: str) -> SuckerCommand | Literal["undo"]:
    """The command ``text`` says, or ``"undo"``; raises :class:`EntryError` (its sentence in
    ``lang``)."""
    _ = lang
    words = text.split()
    table = _Table(lang, view)
    if not words and view["awaiting"]["what"] == "kill" and len(view["awaiting"]["colors"]) == 1:
        return table.kill(None)  # the one move there is: Enter takes it
    if not words:
        raise EntryError(_("Type a move, such as '%(example)s'; press F1 for the list.",
                           example=example(view)))
    if view["winner"] is not None and words[0].casefold() != UNDO:
        raise EntryError(_("The game is over (%(name)s won); only undo is possible now.",
                           name=view["winner"]))
    holder = None
    verbs = {"give", "killp", "refuse"}
    if len(words) >= 2 and words[1].casefold() in verbs and table.is_name(words[0]):
        holder, words = table.name(words[0]), words[1:]
    verb, rest = words[0].casefold(), words[1:]
    if verb == UNDO and not rest:
        return UNDO
    if verb == "next" and len(rest) == 1:
        return table.next(rest[0])
    if verb == "kill" and len(rest) <= 1:
        return table.kill(rest[0] if rest else None)
    if verb == "give":
        return table.give(rest, holder)
    if verb == "killp":
        return table.killp(rest, holder)
    if verb == "refuse":
        return table.refuse(rest, holder)
    if len(words) == 2:
        return table.play(words[0], words[1])
    if len(words) == 1:
        what = table.awaiting["what"]
        if what == "next":
            return table.next(words[0])
        if what == "kill":
            return table.kill(words[0])
        if what == "play":
            table.color(words[0])
            w, pile = words[0], table.pile()
            if pile is None:
                raise EntryError(_("Say where: '%(word)s n' on a new pile (there is no pile "
                                   "yet).", word=w))
            raise EntryError(_("Say where: '%(word)s %(pile)s' on pile %(pile)s or '%(word)s n' "
                               "on a new pile.", word=w, pile=pile))
    raise EntryError(_("%(text)r is not a move I know; press F1 for the list.",
                       text=text.strip()))


def example(view: View) -> str:
    """A move the table could take now, as typed (for the sentences that give one)."""
    a = view["awaiting"]
    keys: dict[str, str] = view["keys"]
    colors = a.get("colors") or list(keys)
    if a["what"] == "next" and a.get("players"):
        return f"next {a['players'][0].casefold()}"
    if a["what"] == "kill":
        return f"kill {keys[colors[0]].lower()}"
    if a["what"] == "rescue" and a.get("pending"):
        return f"refuse {a['pending'][0].casefold()}"
    return f"{keys[colors[0]].lower()} n"


def moves(view: View) -> str:
    """The move line's placeholder: the kinds of move, with this table's own letters and
    players (a pile only once there is one; the colour one the mover may play, when a chip
    is to be played)."""
    table = _Table(language(), view)
    playable = view["awaiting"].get("colors") if view["awaiting"]["what"] == "play" else None
    first = table.letter(playable[0] if playable else None)
    second = table.letter(list(table.keys)[-1])
    mover = view["awaiting"].get("player")
    pile = table.pile()
    shown = [f"{first} {pile}"] if pile is not None else []
    shown += [f"{first} n", f"next {table.someone(mover)}", f"kill {second}",
              f"give {second} {table.someone(mover)}", "refuse", "undo"]
    return " · ".join(shown)


def hint(lang: Language, view: View) -> str:
    """What may be typed now (the legal choices), as one line."""
    _ = lang
    a = view["awaiting"]
    keys: dict[str, str] = view["keys"]
    who = a["player"]
    if a["what"] == "over":
        return _("%(name)s won.  undo (ctrl+z) takes back the last move.", name=view["winner"])
    if a["what"] == "play":
        colors = " ".join(keys[c].lower() for c in a["colors"])
        piles = " ".join(str(p) for p in a["piles"] if p != "new")
        on = _("%(piles)s or n (new)", piles=piles) if piles else _("n (new pile)")
        return _("%(name)s plays  color: %(colors)s   on: %(on)s   e.g. '%(example)s n'",
                 name=who, colors=colors, on=on, example=colors.split()[0])
    if a["what"] == "next":
        names = ", ".join(n.casefold() for n in a["players"])
        return _("%(name)s names the next player: %(names)s   e.g. 'next %(example)s'",
                 name=who, names=names, example=a["players"][0].casefold())
    if a["what"] == "kill":
        if len(a["colors"]) == 1:
            color = a["colors"][0]
            return _("%(name)s kills a %(color)s chip from pile %(pile)s, the only color in it: "
                     "press Enter", name=who, color=color, pile=a["pile"])
        colors = " ".join(keys[c].lower() for c in a["colors"])
        return _("%(name)s kills one chip from pile %(pile)s: %(colors)s   e.g. 'kill %(example)s'",
                 name=who, pile=a["pile"], colors=colors, example=colors[0])
    by = view_players(view)
    offers = "; ".join(
        f"{n} ({' '.join(keys[c].lower() for c in by[n])})" for n in a["pending"]
    )
    return _("%(name)s awaits rescue: give COLOR from %(offers)s; or refuse NAME", name=who,
             offers=offers)


def view_players(view: View) -> dict[str, dict[str, int]]:
    return {p["name"]: p["prisoners"] for p in view["players"]}


def command_text(lang: Language, command: View) -> str:
    """A recorded command in a few words (for the log, e.g. after an undo)."""
    return lang.say(command_phrase(command))
