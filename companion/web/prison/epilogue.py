"""The epilogue on the board and the phones, said in the page's language: the steps the room
has been shown (the board), each player's own part (their phone), from the rules' phrases
(:mod:`companion.rules.prison.epilogue_phrases`); nothing before the game is over, as the
views carry nothing then."""

from __future__ import annotations

from dataclasses import dataclass

from companion.language import Language
from companion.rules.prison.epilogue import EpilogueView
from companion.rules.prison.epilogue_phrases import own_phrases, step_phrases, warden_phrases
from companion.rules.prison.views import PrisonerMe, WardenMe


@dataclass(frozen=True)
class BoardEpilogue:
    """What the board shows of the epilogue: the newest step shown, in large type, and how far
    the room is (``shown`` of ``steps``)."""

    shown: int
    steps: int
    head: str
    lines: tuple[str, ...]


def board_epilogue(view: EpilogueView | None, lang: Language) -> BoardEpilogue | None:
    """The step the board shows (``None``: before the end, or before the first step)."""
    if view is None or not view["shown"]:
        return None
    head, lines = step_phrases(view)[-1]
    return BoardEpilogue(
        view["shown"], view["steps"], lang.say(head), tuple(lang.say(line) for line in lines)
    )


def own_epilogue(me: PrisonerMe | WardenMe, lang: Language) -> list[str]:
    """A player's own part, a sentence a night (empty before the end)."""
    if me["role"] == "warden":
        mine = me["epilogue"]
        return [lang.say(p) for p in warden_phrases(mine)] if mine is not None else []
    part = me["epilogue"]
    return [lang.say(p) for p in own_phrases(part)] if part is not None else []
