"""Fixtures of the console's pilot tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.tui.terminal import recording


@pytest.fixture(autouse=True)
def _recorded_notices() -> Iterator[None]:
    """Every app's notices, for :func:`tests.tui.terminal.notices`."""
    with recording():
        yield
