"""The laptop's address on the venue's network, found without sending anything.

``lan_address()`` uses the UDP-connect trick: ``connect()`` on a UDP socket only asks the
kernel which interface would route to that address; no packet leaves the laptop. The private
address tried is never contacted. ``candidates()`` lists every IPv4 interface address, for a
picker when the laptop has several (Wi-Fi and Ethernet, a hotspot, a VPN); the interfaces come
from ``ifaddr``, which asks each system its own way (``getifaddrs`` on Linux and macOS,
``GetAdaptersAddresses`` on Windows).
"""

from __future__ import annotations

import ipaddress
import socket
from typing import NamedTuple

# Private addresses used only to ask the routing table; nothing is sent to them.
_PROBES = ("10.255.255.255", "192.168.255.255", "172.31.255.255")


class Candidate(NamedTuple):  # (not a dataclass: `companion links` starts without them)
    interface: str
    address: str

    @property
    def private(self) -> bool:
        return ipaddress.ip_address(self.address).is_private


def lan_address() -> str:
    """The address other devices on the LAN most likely reach this laptop at."""
    for probe in _PROBES:
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        try:
            sock.connect((probe, 9))  # UDP: no traffic, only a route lookup
            address = str(sock.getsockname()[0])
        except OSError:
            continue
        finally:
            sock.close()
        if address and not address.startswith("0."):
            return address
    return "127.0.0.1"


def _interface_addresses() -> list[Candidate]:
    """Every IPv4 address of every interface, as the system lists them."""
    import ifaddr  # only the picker needs every interface; the links need lan_address alone

    try:
        adapters = ifaddr.get_adapters()
    except OSError:  # the system would not say: the routed address still stands
        return []
    found: list[Candidate] = []
    for adapter in adapters:
        for ip in adapter.ips:
            if ip.is_IPv4 and isinstance(ip.ip, str):
                found.append(Candidate(str(adapter.nice_name or adapter.name), ip.ip))
    return found


def candidates() -> list[Candidate]:
    """Every interface with an IPv4 address, the likely LAN address first, loopback last."""
    found: list[Candidate] = []
    for candidate in _interface_addresses():
        if all(c.address != candidate.address for c in found):
            found.append(candidate)
    best = lan_address()
    if all(c.address != best for c in found):
        found.append(Candidate("route", best))

    def rank(c: Candidate) -> tuple[int, int]:
        loopback = ipaddress.ip_address(c.address).is_loopback
        return (1 if loopback else 0, 0 if c.address == best else 1)

    return sorted(found, key=rank)


def base_url(host: str, port: int) -> str:
    """The links' base for a host and port; a wildcard host becomes the LAN address."""
    if host in ("", "0.0.0.0", "::"):
        host = lan_address()
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"http://{host}:{port}"
