"""What the browser tests of every game's game master's page share: the game's server with a
desk, as the night's server has it, that can be stopped and started again on its port (the
laptop asleep); the page's status line, the console's question above a button, the sentence
beside the buttons; a page ready, and a status said."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from companion.session.night import phone_url
from companion.session.session import Session
from companion.web.common.desk import Desk
from companion.web.common.server import PhoneServer
from tests.engines import Phone, wait_for
from tests.web.common.test_engines import at, pin

STATUS = "document.getElementById('status').textContent"
ASKING = "(document.getElementById('asking') || {}).textContent || ''"
BESIDE = "(document.getElementById('beside') || {}).textContent || ''"
NOT_ANSWERING = "Not confirmed: the laptop did not answer."  # in the game master's words

# A game's server on (session, host, port, desk): start_phone_server, start_dilemma_server, ...
Starter = Callable[[Session, str, int, Desk], Awaitable[PhoneServer]]


class ServedNight:
    """``session``'s game served by ``starter`` with a desk holding the game master's phone's
    secret, on the same port each time it is started again."""

    def __init__(self, session: Session, starter: Starter) -> None:
        self.session = session
        self.starter = starter
        self.secret = "s" * 43
        self.server: PhoneServer | None = None
        self.port = 0
        self.desk: Desk | None = None

    async def start(self) -> None:
        links: dict[str, str] = {}
        self.desk = Desk(self.session, "k" * 43, lambda: dict(links), lambda: None,
                         phone=self.secret)
        self.server = await self.starter(self.session, "127.0.0.1", self.port, self.desk)
        self.port = self.server.port
        links["base"] = self.server.base_url

    async def stop(self) -> None:
        if self.server is not None:
            await self.server.stop()
            self.server = None

    def url(self, host: str) -> str:
        """The page's link at ``host``, pinned as the laptop's public address (the server
        answers only its own names)."""
        assert self.server is not None
        pin(self.session, host, self.port)
        return at(phone_url(self.server.base_url, self.secret), host)


async def ready(phone: Phone) -> None:
    await wait_for(phone, "document.body.dataset.ready === '1' && document.body.dataset.live")


async def says(phone: Phone, text: str) -> None:
    await wait_for(phone, f"({STATUS}) === {text!r}")
