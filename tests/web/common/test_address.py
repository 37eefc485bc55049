"""The laptop's addresses come from the interface list of every system, not a Linux ioctl."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

WITHOUT_LINUX_CALLS = """
import json
import socket
import sys

sys.modules["fcntl"] = None  # as on Windows
del socket.if_nameindex  # and no Linux interface index either

from companion.web.common.address import candidates, lan_address

print(json.dumps({
    "candidates": [[c.interface, c.address] for c in candidates()],
    "lan": lan_address(),
}))
"""


def test_every_interface_is_listed_without_fcntl_or_if_nameindex() -> None:
    import ifaddr

    done = subprocess.run(
        [sys.executable, "-c", WITHOUT_LINUX_CALLS], capture_output=True, text=True,
        cwd=Path(__file__).resolve().parents[3], timeout=60,
    )
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    listed = [address for _, address in found["candidates"]]
    expected = {
        ip.ip for adapter in ifaddr.get_adapters() for ip in adapter.ips if ip.is_IPv4
    } | {found["lan"]}
    assert set(listed) == expected and len(listed) == len(expected)
    # Beyond the routed address: loopback too, named by its interface and listed last.
    assert "127.0.0.1" in listed and listed[-1] == "127.0.0.1"
    assert found["candidates"][-1][0] != "route"
    assert listed[0] == found["lan"]
