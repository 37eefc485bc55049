"""The referee's short move entry for So Long Sucker, and the hint of what may be typed now.

Pure (no Textual): reads the table view of :mod:`companion.rules.sucker.views` and turns a line
such as ``r 2`` into the command dict a script would hold, or raises :class:`EntryError` with
one sentence saying what to type instead.

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
from typing import Any

from companion.rules.core.words import joined

View = Mapping[str, Any]  # a view of the rules (companion.rules.sucker.views), read by key

SYNTAX = [
    ("r 2  ·  r n", "play a red chip on pile 2  ·  on a new pile"),
    ("next bo  ·  bo", "name the next player"),
    ("kill g", "the capturer kills a green chip from the captured pile"),
    ("give g bo", "a prisoner changes hands (ann give g bo: Ann gives)"),
    ("give g", "rescue: give a green prisoner to the player in need"),
    ("killp g", "kill a prisoner (ann killp g: Ann's)"),
    ("refuse  ·  refuse ann", "a holder of prisoners declines the rescue"),
    ("undo", "take back the last move (ctrl+z)"),
]
NEW_PILE = {"n", "new", "+"}
UNDO = "undo"


class EntryError(ValueError):
    """An entry the referee cannot read; the message says what to type."""


def _or(items: list[str]) -> str:
    return joined(items, last="or")


class _Table:
    def __init__(self, view: View) -> None:
        self.view = view
        self.players = view["players"]
        self.names: list[str] = [p["name"] for p in self.players]
        self.keys: dict[str, str] = view["keys"]
        self.awaiting: View = view["awaiting"]

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
            raise EntryError(f"{word!r} could be {_or(starts)}; type more of the name.")
        raise EntryError(f"There is no player {word!r}; the players are {_or(self.names)}.")

    def color(self, word: str) -> str:
        low = word.casefold()
        for color, key in self.keys.items():
            if low in (key.casefold(), color.casefold()):
                return color
        starts = [c for c in self.keys if c.casefold().startswith(low)]
        if len(starts) == 1:
            return starts[0]
        keys = ", ".join(f"{k.lower()} ({c})" for c, k in self.keys.items())
        raise EntryError(f"{word!r} is not a color here; type one of {keys}.")

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
            raise EntryError(f"Nobody holds a {color} prisoner.")
        example = f"{holders[0].casefold()} {verb} {self.keys[color].lower()}"
        raise EntryError(f"{_or(holders)} hold {color} prisoners; say whose, as in '{example} …'.")

    # ---- commands ---------------------------------------------------------------------

    def play(self, color_word: str, pile_word: str) -> View:
        if self.awaiting["what"] != "play":
            raise EntryError(f"Nobody is to play a chip now: {self.view['says']}")
        color = self.color(color_word)
        pile: int | str
        if pile_word.casefold() in NEW_PILE:
            pile = "new"
        elif pile_word.isdigit():
            pile = int(pile_word)
        else:
            raise EntryError(f"{pile_word!r} is not a pile; type a pile number or n for a new one.")
        return {"do": "play", "player": self.awaiting["player"], "color": color, "pile": pile}

    def next(self, word: str) -> View:
        if self.awaiting["what"] != "next":
            raise EntryError(f"Nobody is naming the next player now: {self.view['says']}")
        return {"do": "next", "player": self.name(word)}

    def kill(self, word: str | None) -> View:
        """``kill g``; ``kill`` alone (or an empty line) when one color alone can be killed."""
        if self.awaiting["what"] != "kill":
            raise EntryError(
                "No pile is waiting to be captured; to kill a prisoner type 'killp COLOR'."
            )
        colors: list[str] = self.awaiting["colors"]
        if word is None:
            if len(colors) != 1:
                letters = _or([f"'kill {self.keys[c].lower()}'" for c in colors])
                raise EntryError(f"Say which color {self.awaiting['player']} kills: {letters}.")
            return {"do": "kill", "player": self.awaiting["player"], "color": colors[0]}
        return {"do": "kill", "player": self.awaiting["player"], "color": self.color(word)}

    def give(self, words: list[str], holder: str | None) -> View:
        if not words or len(words) > 2:
            raise EntryError("Type 'give COLOR NAME', as in 'give g bo'.")
        color = self.color(words[0])
        if len(words) == 2:
            to = self.name(words[1])
        elif self.awaiting["what"] == "rescue":
            to = self.awaiting["player"]
        else:
            raise EntryError(f"Say to whom: 'give {words[0]} NAME'.")
        giver = holder or self.holder(color, "give")
        return {"do": "transfer", "player": giver, "color": color, "to": to}

    def killp(self, words: list[str], holder: str | None) -> View:
        if len(words) != 1:
            raise EntryError("Type 'killp COLOR', as in 'killp g'.")
        color = self.color(words[0])
        return {"do": "kill_prisoner", "player": holder or self.holder(color, "killp"),
                "color": color}

    def refuse(self, words: list[str], holder: str | None) -> View:
        if self.awaiting["what"] != "rescue":
            raise EntryError(f"Nobody awaits rescue now: {self.view['says']}")
        if words:
            holder = self.name(words[0])
        if holder is None:
            pending = self.awaiting["pending"]
            if len(pending) != 1:
                raise EntryError(f"Say who refuses: {_or(pending)} (as in 'refuse name').")
            holder = pending[0]
        return {"do": "refuse", "player": holder}


def parse_entry(view: View, text: str) -> View | str:
    """A command dict for ``text``, or ``"undo"``; raises :class:`EntryError`."""
    words = text.split()
    table = _Table(view)
    if not words and view["awaiting"]["what"] == "kill" and len(view["awaiting"]["colors"]) == 1:
        return table.kill(None)  # the one move there is: Enter takes it
    if not words:
        raise EntryError("Type a move, such as 'r 2'; press F1 for the list.")
    if view["winner"] is not None and words[0].casefold() != UNDO:
        raise EntryError(f"The game is over ({view['winner']} won); only undo is possible now.")
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
            w = words[0]
            raise EntryError(f"Say where: '{w} 2' on pile 2 or '{w} n' on a new pile.")
    raise EntryError(f"{text.strip()!r} is not a move I know; press F1 for the list.")


def hint(view: View) -> str:
    """What may be typed now (the legal choices), as one line."""
    a = view["awaiting"]
    keys: dict[str, str] = view["keys"]
    who = a["player"]
    if a["what"] == "over":
        return f"{view['winner']} won.  undo (ctrl+z) takes back the last move."
    if a["what"] == "play":
        colors = " ".join(keys[c].lower() for c in a["colors"])
        piles = " ".join(str(p) for p in a["piles"] if p != "new")
        on = f"{piles} or n (new)" if piles else "n (new pile)"
        return f"{who} plays  color: {colors}   on: {on}   e.g. '{colors.split()[0]} n'"
    if a["what"] == "next":
        names = ", ".join(n.casefold() for n in a["players"])
        return f"{who} names the next player: {names}   e.g. 'next {a['players'][0].casefold()}'"
    if a["what"] == "kill":
        if len(a["colors"]) == 1:
            color = a["colors"][0]
            return (f"{who} kills a {color} chip from pile {a['pile']}, the only color in it: "
                    "press Enter")
        colors = " ".join(keys[c].lower() for c in a["colors"])
        return f"{who} kills one chip from pile {a['pile']}: {colors}   e.g. 'kill {colors[0]}'"
    by = view_players(view)
    offers = "; ".join(
        f"{n} ({' '.join(keys[c].lower() for c in by[n])})" for n in a["pending"]
    )
    return f"{who} awaits rescue: give COLOR from {offers}; or refuse NAME"


def view_players(view: View) -> dict[str, dict[str, int]]:
    return {p["name"]: p["prisoners"] for p in view["players"]}


def command_text(command: View) -> str:
    """A recorded command in a few words (for the log, e.g. after an undo)."""
    do, who = command["do"], command.get("player")
    if do == "play":
        pile = "a new pile" if command["pile"] == "new" else f"pile {command['pile']}"
        return f"{who} playing {command['color']} on {pile}"
    if do == "next":
        return f"naming {who} to move next"
    if do == "kill":
        return f"{who} killing a {command['color']} chip from the captured pile"
    if do == "transfer":
        return f"{who} giving a {command['color']} chip to {command['to']}"
    if do == "kill_prisoner":
        return f"{who} killing a {command['color']} prisoner"
    if do == "refuse":
        return f"{who} refusing the rescue"
    return str(do)
