"""A warm-up phone server in a process of its own whose file limit is low (for the tests of
the limits per client): ``python -m tests.web.common.limited_server FOLDER PORT FILES``.
It prints ``ready`` once it listens, and serves until it is killed."""

from __future__ import annotations

import asyncio
import resource
import sys
from pathlib import Path

from companion.session.session import Session
from companion.web.common.limits import Limits
from companion.web.dilemma.server import start_dilemma_server
from tests.dilemma_helpers import scenario


async def serve(folder: Path, port: int) -> None:
    session = Session.create(folder / "d.sqlite", "dilemma", {"rules": scenario(rounds=2)})
    await start_dilemma_server(session, "127.0.0.1", port, limits=Limits(read_seconds=2.0))
    print("ready", flush=True)
    await asyncio.Event().wait()


if __name__ == "__main__":
    files = int(sys.argv[3])
    resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))  # the hard limit too
    asyncio.run(serve(Path(sys.argv[1]), int(sys.argv[2])))
