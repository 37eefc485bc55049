"""What the game master's board says of each prisoner today (the console's Today column, and
the game master's phone's): chosen or waiting, who is next in, interviewed, safe, worked or
rested once the night is revealed, out. Never a sealed choice: a pure function of the (sealed)
game master's view and who is in with the warden now."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.rules.core.phrase import phrase

# What the board may say of a prisoner today (see :func:`tonight`).
TODAY_WORDS = {
    "out": phrase("out"),
    "chosen": phrase("chosen"),
    "waiting": phrase("waiting"),
    "worked": phrase("worked"),
    "rested": phrase("rested"),
    "safe": phrase("safe"),
    "with warden": phrase("with warden"),
    "interviewed": phrase("interviewed"),
    "next": phrase("next"),
    "queued": phrase("queued"),
}


def tonight(view: Mapping[str, Any], name: str, status: str, inside: str | None = None) -> str:
    """What the board may say about a prisoner today, from the (sealed) game master's view
    (``inside``: the prisoner in with the warden now, on the stage), in English: a key of
    :data:`TODAY_WORDS`, a status (escaped, paroled), or ``-``."""
    if status != "active":
        return "out" if status in ("caught", "shived") else status
    phase = view["phase"]
    today = view["today"]
    if phase == "planning":
        return "chosen" if name in view["submitted"] else "waiting"
    searched = {s["prisoner"]: s["caught"] for s in today["searches"]}
    if today["revealed"]:
        return "worked" if name in today["workers"] else "rested"
    if name in searched:
        return "safe"
    if phase == "interviews":
        if name == inside:
            return "with warden"
        queue = list(view["not_interviewed"])
        if name not in queue:
            return "interviewed"
        return "next" if queue[0] == name else "queued"
    return "-"
