"""A stream's outbox with a direct connection (``fanout.serve(direct=True)``): a message goes
out at once only when nothing waits before it and the connection takes it; a phone that falls
behind still gets the latest message only, in order, from its task."""

from __future__ import annotations

from companion.language import language
from companion.web.common.outbox import Outbox


class Connection:
    """A connection that takes messages while it keeps up."""

    def __init__(self) -> None:
        self.keeping_up = True
        self.written: list[bytes] = []

    def send(self, message: bytes) -> bool:
        if not self.keeping_up:
            return False
        self.written.append(message)
        return True


def outbox(connection: Connection) -> Outbox[None]:
    box: Outbox[None] = Outbox("seat", language("en"), None, None)
    box.send = connection.send
    return box


async def test_a_phone_keeping_up_is_written_to_at_once() -> None:
    connection = Connection()
    box = outbox(connection)
    box.view(b"view 1", 1)
    box.patch(b"patch 2", 2)
    assert connection.written == [b"view 1", b"patch 2"]
    assert not box.ready.is_set(), "its task is not woken"
    assert box.take() == b""
    assert box.shows == 2


async def test_a_phone_behind_gets_the_latest_only_in_order() -> None:
    connection = Connection()
    box = outbox(connection)
    connection.keeping_up = False
    box.view(b"view 1", 1)
    box.patch(b"patch 2", 2)
    box.view(b"view 3", 3)  # a whole view replaces whatever waits
    box.patch(b"patch 4", 4)
    connection.keeping_up = True
    box.patch(b"patch 5", 5)  # something waits: not before it
    assert connection.written == []
    assert box.ready.is_set()
    assert box.take() == b"view 3patch 5"
    box.patch(b"patch 6", 6)  # nothing waits any more
    assert connection.written == [b"patch 6"]


async def test_a_woken_task_keeps_the_order_of_its_stream() -> None:
    connection = Connection()
    box = outbox(connection)
    box.ready.set()  # the heartbeat woke the task, which has not run yet
    box.patch(b"patch 1", 1)
    assert connection.written == []
    assert box.take() == b"patch 1"


async def test_without_a_direct_connection_the_task_writes() -> None:
    box: Outbox[None] = Outbox("seat", language("en"), None, None)
    box.view(b"view 1", 1)
    assert box.ready.is_set()
    assert box.take() == b"view 1"
