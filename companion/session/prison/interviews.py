"""How long each interview lasts: a setting of the session (the console's ``Interview length``),
read by the console and the game master's phone alike when they call a prisoner in."""

from __future__ import annotations

from companion.session.session import Session

DEFAULT_INTERVIEW_SECONDS = 120
INTERVIEW_META = "interview_seconds"


def interview_seconds(session: Session) -> int:
    """The interview's length in seconds (the default when none is set, or a bad one)."""
    value = session.settings.get(INTERVIEW_META, DEFAULT_INTERVIEW_SECONDS)
    return int(value) if isinstance(value, int) and value > 0 else DEFAULT_INTERVIEW_SECONDS
