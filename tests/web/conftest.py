"""The fixtures every web test folder shares."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.chromium import Chromium


@pytest.fixture
async def chromium() -> AsyncIterator[Chromium]:
    """A headless Chromium on 127.0.0.1 for one test, stopped (its profile removed) after."""
    browser = Chromium()
    await browser.start()
    try:
        yield browser
    finally:
        await browser.stop()
