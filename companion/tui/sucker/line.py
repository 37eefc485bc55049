"""The line the referee types moves on.

Each line leaves the input the moment it is complete (Enter, or a line ending inside pasted
text), in the order it was entered, and the input is empty again before the next key is read.
The screen applies the lines strictly in that order, one after the other: typing fast,
a burst of keys from a terminal or a whole game pasted at once all end in the same state as
typing move by move.

A refused line stops the lines after it in a paste, whether the terminal says it is one
(bracketed paste: one :class:`Entered` with every line) or types it out key by key (tmux's
``paste-buffer`` without ``-p``, many terminals over SSH): the screen then holds every line
that comes before :class:`CaughtUp`, which :meth:`catch_up` sends behind the keys already
received once the refusal is on screen. Those keys were sent before anyone could read the
refusal, so they cannot answer it; a line typed after reading it comes after. No timing is
guessed.

Why Enter is taken here: a plain ``Input`` inserts characters as its own queue reaches them,
but Enter is a binding, run only once the key has bubbled up to the app; keys arriving faster
than that (a paste through tmux, 56 moves in 0.28 s) were inserted before the Enters that
should have ended the lines, and the screen cleared the input after the fact. Taking Enter in
the same queue as the characters keeps them in order.
"""

from __future__ import annotations

from textual import events
from textual.message import Message
from textual.widgets import Input


class MoveLine(Input):
    """An input that hands over each complete line as an :class:`Entered` message."""

    class Entered(Message):
        """Complete lines: one typed line, or the complete lines of one paste, in order."""

        def __init__(self, lines: tuple[str, ...], pasted: bool) -> None:
            super().__init__()
            self.lines = lines
            self.pasted = pasted

    class CaughtUp(Message):
        """Every key this line had received before :meth:`catch_up` was asked has been read
        (the lines they made, handed over before this message)."""

        def __init__(self, token: int) -> None:
            super().__init__()
            self.token = token

    def catch_up(self, token: int) -> None:
        """Post :class:`CaughtUp` behind every key already on its way to this line: the app's
        queue first, then this line's own."""
        self.app.call_later(self.call_later, self.post_message, self.CaughtUp(token))

    def _submit_now(self) -> None:
        text = self.value
        self.value = ""
        self.post_message(self.Entered((text,), pasted=False))

    async def _on_key(self, event: events.Key) -> None:
        if event.key == "enter":
            event.stop()
            event.prevent_default()  # not Input's _on_key, next in the MRO
            self._submit_now()

    async def action_submit(self) -> None:
        self._submit_now()

    def _on_paste(self, event: events.Paste) -> None:
        lines = event.text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        if len(lines) == 1:
            return  # one line: Input's own handler, next in the MRO, inserts it
        event.stop()
        event.prevent_default()  # Textual would run Input's _on_paste too, inserting line 1
        start, end = sorted(self.selection)
        head, tail = self.value[:start], self.value[end:]
        lines[0] = head + lines[0]
        last = lines.pop()
        moves = tuple(line for line in lines if line.strip())  # blank lines are no moves
        if moves:
            self.post_message(self.Entered(moves, pasted=True))
        self.value = last + tail
        self.cursor_position = len(last)
