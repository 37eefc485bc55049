"""WebKitGTK (the engine of Safari's family) behind the engines' interface: its MiniBrowser
driven by ``WebKitWebDriver`` through Selenium, on a private X server (Xvfb). Selenium is
synchronous: each call runs in a thread. Each phone is its own driver session (its own
browser process, its own cookies), its viewport sized to 390×844 (or ``width``×844).

WebKit has no switch to map a name to an address; with ``insecure_host`` a page at that name is
fetched through the night's own server as the browser's HTTP proxy (the server answers a
request line holding a full URL, as any proxy sends it), so the page is at a name that is not
this machine's own: not a secure context, as a venue's ``http://192.168.x.x`` is not."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from tests.engines import HEIGHT, WIDTH, as_json

DRIVER = shutil.which("WebKitWebDriver")
XVFB = shutil.which("Xvfb")
MINIBROWSER = next(
    (
        str(p)
        for p in sorted(Path("/usr/lib").glob("*/webkit2gtk-4.1/MiniBrowser"))
        + sorted(Path("/usr/libexec").glob("webkit2gtk-4.1/MiniBrowser"))
        if p.exists()
    ),
    None,
)
MISSING = (
    "WebKitGTK is not installed: run scripts/system-deps.sh (Debian packages webkit2gtk-driver "
    "and xvfb, and selenium from the project's dev dependencies) to try the phone pages in WebKit."
)

GTK_CSS = """
headerbar, toolbar, headerbar *, toolbar * { min-width: 0; min-height: 0; padding: 0; margin: 0;
  border: 0; font-size: 1px; -gtk-icon-transform: scale(0.1); }
entry { min-width: 0; font-size: 1px; }
"""


def selenium_missing() -> bool:
    try:
        import selenium  # noqa: F401
    except ImportError:
        return True
    return False


class WebKitPhone:
    def __init__(self, driver: Any) -> None:
        self.driver = driver

    async def _run(self, fn: Any, *args: Any) -> Any:
        return await asyncio.to_thread(fn, *args)

    async def js(self, expression: str) -> Any:
        from selenium.common.exceptions import WebDriverException

        script = f"return {as_json(expression)};"
        try:
            text = await self._run(self.driver.execute_script, script)
        except WebDriverException as error:
            raise RuntimeError(f"{expression}: {error.msg}") from None
        return json.loads(text)

    async def tap(self, selector: str) -> None:
        """Tap the element ``selector`` finds. A live page may put a new part in place between
        finding the element and the tap (the old element is then stale, and WebDriver refuses
        the click before it is made): the element is found again, a few times."""
        from selenium.common.exceptions import StaleElementReferenceException
        from selenium.webdriver.common.by import By

        def tap() -> None:
            element = self.driver.find_element(By.CSS_SELECTOR, selector)
            self.driver.execute_script("arguments[0].scrollIntoView({block:'center'})", element)
            element.click()

        for attempt in range(3):
            try:
                await self._run(tap)
                return
            except StaleElementReferenceException:
                if attempt == 2:
                    raise
                await asyncio.sleep(0.2)

    async def type(self, selector: str, text: str) -> None:
        from selenium.webdriver.common.by import By

        def typing() -> None:
            element = self.driver.find_element(By.CSS_SELECTOR, selector)
            element.click()
            element.send_keys(text)

        await self._run(typing)

    async def goto(self, url: str) -> None:
        await self._run(self.driver.get, url)

    async def reload(self) -> None:
        await self._run(self.driver.refresh)

    async def screenshot(self, path: Path) -> None:
        await self._run(self.driver.save_screenshot, str(path))


class WebKitEngine:
    name = "WebKitGTK"

    def __init__(self, width: int = WIDTH, insecure_host: str | None = None) -> None:
        self.width = width
        self.insecure_host = insecure_host
        self.xvfb: subprocess.Popen[bytes] | None = None
        self.display = ""
        self.drivers: list[Any] = []
        self.version = ""
        self.config = Path(tempfile.mkdtemp(prefix="companion-webkit-"))

    @staticmethod
    def missing() -> str | None:
        if DRIVER is None or XVFB is None or MINIBROWSER is None or selenium_missing():
            return MISSING
        return None

    async def start(self) -> None:
        assert XVFB is not None and MINIBROWSER is not None
        read, write = os.pipe()
        self.xvfb = subprocess.Popen(
            [XVFB, "-displayfd", str(write), "-screen", "0", "1024x1024x24", "-nolisten", "tcp"],
            pass_fds=(write,),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(write)
        with os.fdopen(read) as told:
            number = await asyncio.to_thread(told.readline)
        self.display = f":{number.strip()}"
        # MiniBrowser's tool bar makes its window at least 447 px wide: a GTK theme for this
        # run shrinks it, so that the page's viewport can be a phone's 390 or 360 px
        for folder in (self.config / "gtk-3.0", self.config / "themes" / "Phone" / "gtk-3.0"):
            folder.mkdir(parents=True)
            (folder / "gtk.css").write_text(GTK_CSS)
        out = subprocess.run(
            [MINIBROWSER, "--version"],
            capture_output=True,
            text=True,
            check=False,
            env={**os.environ, "DISPLAY": self.display},
        )
        self.version = (out.stdout.strip() or out.stderr.strip()).splitlines()[-1]

    def _new_driver(self, url: str) -> Any:
        from selenium import webdriver
        from selenium.webdriver.common.proxy import Proxy, ProxyType

        options = webdriver.WebKitGTKOptions()
        options.binary_location = MINIBROWSER
        where = urlsplit(url)
        if self.insecure_host is not None and where.hostname == self.insecure_host:
            # the server the page is on serves it as the proxy too (loopback only)
            http = f"127.0.0.1:{where.port or 80}"
            options.proxy = Proxy({"proxyType": ProxyType.MANUAL, "httpProxy": http})
        options.add_argument("--automation")
        options.add_argument("--autoplay-policy=allow-without-sound")
        env = {
            **os.environ,
            "DISPLAY": self.display,
            "XDG_CONFIG_HOME": str(self.config),
            "XDG_DATA_HOME": str(self.config),
            "GTK_THEME": "Phone",
        }
        service = webdriver.WebKitGTKService(executable_path=DRIVER, env=env)
        driver = webdriver.WebKitGTK(options=options, service=service)
        driver.set_window_size(self.width, HEIGHT)
        # the window holds a (shrunk) tool bar above the page: taller by its height
        inner = driver.execute_script("return [innerWidth, innerHeight]")
        driver.set_window_size(2 * self.width - inner[0], 2 * HEIGHT - inner[1])
        return driver

    async def open(self, url: str) -> WebKitPhone:
        driver = await asyncio.to_thread(self._new_driver, url)
        self.drivers.append(driver)
        phone = WebKitPhone(driver)
        await phone.goto(url)
        return phone

    async def stop(self) -> None:
        for driver in self.drivers:
            with contextlib.suppress(Exception):
                await asyncio.to_thread(driver.quit)
        if self.xvfb is not None:
            self.xvfb.terminate()
            try:
                await asyncio.to_thread(self.xvfb.wait, 10)
            except subprocess.TimeoutExpired:
                self.xvfb.kill()
                self.xvfb.wait()
        shutil.rmtree(self.config, ignore_errors=True)
