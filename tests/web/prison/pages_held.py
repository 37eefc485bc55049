"""What a phone's page holds from its event stream, as the page's script keeps it: the last
whole view and live part (a ``view`` event), with the ``patch`` events since applied to the
part (``{element id: text}``: that element's text is replaced, as ``phones.js`` does; an id the
part does not hold changes nothing)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from markupsafe import escape


def apply_patch(part: str, texts: dict[str, str]) -> str:
    """``part`` with each element named in ``texts`` holding its new text. The element must
    hold text alone (a patch never replaces markup)."""
    for element_id, text in texts.items():
        opening = re.search(rf'<(\w+)\b[^>]*\bid="{re.escape(element_id)}"[^>]*>', part)
        if opening is None:
            continue
        close = part.index(f"</{opening.group(1)}>", opening.end())
        inner = part[opening.end():close]
        assert "<" not in inner, f"#{element_id} holds markup, not text: {inner!r}"
        part = part[: opening.end()] + str(escape(text)) + part[close:]
    return part


@dataclass
class Held:
    """One stream's page: its view and part as of the event ``id``."""

    view: dict[str, Any] | None = None
    html: str | None = None
    id: str | None = None
    patches: list[dict[str, str]] = field(default_factory=list)  # those applied, in order

    def take(self, event: str, data: Any, event_id: str | None) -> None:
        """One event from the stream (its ``data`` decoded from JSON)."""
        if event == "view":
            self.view, self.html = data["view"], data["html"]
        elif event == "patch":
            assert self.html is not None, "a patch came before any whole view"
            assert isinstance(data, dict) and all(isinstance(t, str) for t in data.values())
            self.html = apply_patch(self.html, data)
            self.patches.append(data)
        else:
            raise AssertionError(f"unexpected event {event!r}")
        if event_id is not None:
            self.id = event_id
