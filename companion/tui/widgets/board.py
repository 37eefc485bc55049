"""The players' board: status, shivs, tonight's progress (never a sealed choice), parole
tokens (hidden unless the private view is on) and each phone's connection."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.widgets import DataTable

from companion.tui.console_text import not_interviewed

HIDDEN = "hidden"


def tonight(view: dict[str, Any], name: str, status: str) -> str:
    """What the board may say about a prisoner today, from the (sealed) game master's view."""
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
        queue = not_interviewed(view)
        if name not in queue:
            return "interviewed"
        return "next" if queue[0] == name else "queued"
    return "-"


def phone(seen: float | None, now: float) -> str:
    if seen is None:
        return "-"
    return "connected" if now - seen < 60 else "away"


class Board(DataTable[Text]):
    """One row per prisoner; rows keyed by name."""

    def on_mount(self) -> None:
        self.cursor_type = "row"
        self.zebra_stripes = True
        self.add_columns("Prisoner", "Status", "Shivs", "Today", "Tokens", "Phone")

    def show(
        self, view: dict[str, Any], *, private: bool, presence: dict[str, float], now: float
    ) -> None:
        row = self.cursor_row
        self.clear()
        tokens = view.get("parole_tokens", {})
        for p in view["prisoners"]:
            name, status = p["name"], p["status"]
            token_cell = (
                Text(str(tokens.get(name, 0)), style="bold red")
                if private
                else Text(HIDDEN, style="dim")
            )
            style = "" if status == "active" else "dim"
            self.add_row(
                Text(name, style=style),
                Text(status, style="bold" if status in ("escaped", "paroled") else style),
                Text(str(p["shivs"]), style=style),
                Text(tonight(view, name, status), style=style),
                token_cell,
                Text(phone(presence.get(name), now)),
                key=name,
            )
        if self.row_count:
            self.move_cursor(row=min(max(row, 0), self.row_count - 1))
