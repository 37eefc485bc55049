"""The venue's Wi-Fi, for the "join the Wi-Fi" QR code beside the seat's or the room's code.

The game master gives it with ``--wifi-name`` and ``--wifi-password`` (or ``--wifi-open``) on
``companion print``, ``companion dilemma`` and the commands that open a console; it is kept in
the session's settings under ``wifi`` (``{"name": ..., "password": ... or null}``), as the
pinned ``public_url`` is (see :mod:`companion.session.links`), so that the cards, the poster
and the board show the same code. The password is never put on a phone's page: only the
printouts and the board's QR code carry it.

The code holds the network in the form phones' cameras read (``WIFI:T:WPA;S:name;P:pass;;``,
``T:nopass`` for an open network), each of ``\\ ; , : "`` escaped with a backslash.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from companion.session.session import Session

WIFI = "wifi"
_SPECIAL = '\\;,:"'


@dataclass(frozen=True)
class Wifi:
    name: str
    password: str | None  # None: an open network

    def payload(self) -> str:
        """The network as a QR code's text, in the standard ``WIFI:`` form."""
        if self.password is None:
            return f"WIFI:T:nopass;S:{escape(self.name)};;"
        return f"WIFI:T:WPA;S:{escape(self.name)};P:{escape(self.password)};;"


def escape(text: str) -> str:
    """``text`` with each character the ``WIFI:`` form reserves escaped with a backslash."""
    return "".join("\\" + c if c in _SPECIAL else c for c in text)


def wifi_problem(name: str | None, password: str | None, open_network: bool) -> str | None:
    """Why these options do not name one network (one sentence), or ``None`` when they do
    (or when none is given)."""
    if name is None:
        if password is not None:
            return "--wifi-password needs the network's name too; add --wifi-name NAME."
        if open_network:
            return "--wifi-open needs the network's name; add --wifi-name NAME."
        return None
    if not name.strip():
        return "--wifi-name is empty; give the network's name as phones list it."
    if open_network and password is not None:
        return (
            "--wifi-open is for a network without a password, but --wifi-password was given "
            "too; leave out one of them."
        )
    if not open_network and password is None:
        return (
            f"The Wi-Fi network {name!r} needs its password (--wifi-password PASSWORD), or "
            "--wifi-open if it has none."
        )
    if password is not None and not password:
        return "--wifi-password is empty; give the password, or --wifi-open if there is none."
    return None


def keep_wifi(session: Session, wifi: Wifi) -> None:
    """Keep ``wifi`` in the session for the cards, the poster and the board."""
    session.set(WIFI, {"name": wifi.name, "password": wifi.password})


def forget_wifi(session: Session) -> None:
    session.set(WIFI, None)


def wifi_of(session: Session) -> Wifi | None:
    """The session's Wi-Fi, if the game master gave one."""
    kept = session.settings.get(WIFI)
    if not isinstance(kept, dict):
        return None
    name, password = kept.get("name"), kept.get("password")
    if not isinstance(name, str) or not name or not (password is None or isinstance(password, str)):
        return None
    return Wifi(name, password)
