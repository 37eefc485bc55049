"""``companion check-network``, run as the game master runs it: with no phone it says in one
sentence what it waits for; a scripted client on 127.0.0.1 that opens the test page (and runs
its check, as the page's script does) is told apart from a phone; with no phone for the wait, the
likely causes with this system's firewall fix; a port in use is one sentence."""

from __future__ import annotations

import json
import re
import signal
import socket
import subprocess
import sys
import urllib.request
from pathlib import Path

from companion.tui.common.network import addresses_of, best, firewall_fix
from companion.web.common.address import candidates
from tests.conftest import free_port

ROOT = Path(__file__).resolve().parents[2]


def _start(port: int, *options: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "companion", "check-network", "--host", "127.0.0.1",
         "--port", str(port), *options],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
    )


def _read_until(process: subprocess.Popen[str], start: str) -> list[str]:
    assert process.stdout is not None
    lines = []
    while True:
        line = process.stdout.readline()
        assert line, ("the command ended early", lines, process.stderr and process.stderr.read())
        lines.append(line.rstrip("\n"))
        if line.startswith(start):
            return lines


def _stop(process: subprocess.Popen[str]) -> tuple[str, str]:
    process.send_signal(signal.SIGINT)
    try:
        return process.communicate(timeout=20)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_a_client_on_this_laptop_is_told_apart_from_a_phone() -> None:
    """On 127.0.0.1 the check says that it listens on this laptop only, still lists the
    laptop's own addresses (the links use them), and a visit from the laptop itself is no
    phone: neither the terminal nor the page says that the phones will reach the game."""
    port = free_port()
    check = _start(port, "--wait", "600")
    try:
        before = _read_until(check, "Waiting for")
        url = f"http://127.0.0.1:{port}/check"
        assert before[-1] == (
            f"Waiting for a phone on the players' Wi-Fi to open {url} (scan the code)."
        )
        text = " ".join(before)
        assert f"  {url}" in before and "127.0.0.1 (lo)" in text
        assert "The check listens on 127.0.0.1 only, this laptop itself" in text
        chosen = best(addresses_of([(c.interface, c.address) for c in candidates()]))
        if chosen is not None:  # the laptop has an address the phones can use: named
            assert "no address on a local network" not in text
            assert f"leave out --host (they would use {chosen.address})" in text
        with urllib.request.urlopen(url, timeout=10) as answer:
            page = answer.read().decode()
        token = re.search(r'data-token="([^"]+)"', page)
        assert token is not None and 'src="/static/check.js"' in page
        assert "that says nothing about the phones" in page  # what the page says here
        with urllib.request.urlopen(f"{url}/reached?t={token[1]}", timeout=10) as answer:
            body = json.loads(answer.read())
        assert body["address"] == "127.0.0.1" and isinstance(body["ms"], int)
        assert body["here"] is True
        after = _read_until(check, "Reached from")
        assert after[-1] == (  # not a terminal: no colour
            f"Reached from 127.0.0.1 in {body['ms']} ms: that is this laptop itself, which "
            "says nothing about the phones; open the page on a phone on the players' Wi-Fi."
        )
    finally:
        out, err = _stop(check)
    assert check.returncode == 1, err  # no phone reached it
    assert "Traceback" not in err
    assert out.strip().splitlines()[-1] == "Stopped."


def test_no_phone_lists_the_likely_causes_with_this_systems_fix() -> None:
    port = free_port()
    check = _start(port, "--wait", "0")
    try:
        lines = _read_until(check, "Press Ctrl+C")
    finally:
        out, err = _stop(check)
    text = "\n".join(lines)
    assert "No phone has reached the laptop yet." in text
    assert "client isolation" in text and "hotspot" in text and "VPN" in text
    assert firewall_fix(sys.platform, port) in text
    assert check.returncode == 1 and "Traceback" not in err


def test_a_port_in_use_is_one_sentence() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        check = _start(port)
        out, err = check.communicate(timeout=60)
    assert check.returncode == 2
    assert err.strip() == (
        f"companion: The phone server cannot listen on port {port}: it is already in use; "
        "pick another with --port or stop the program using it."
    )


def test_firewall_fixes_name_each_systems_setting() -> None:
    assert "netsh advfirewall firewall add rule" in firewall_fix("win32", 8765)
    assert "localport=8765" in firewall_fix("win32", 8765)
    assert "System Settings › Network › Firewall" in firewall_fix("darwin", 8765)
    assert "sudo ufw allow 8765/tcp" in firewall_fix("linux", 8765)
