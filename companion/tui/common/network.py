"""The venue preflight's words, for the game master (the consoles' screen and
``companion check-network``, which says them in English): which of the laptop's addresses the
phones should use and why, what it is waiting for, the line when a phone reached the laptop, and
the likely causes with the fix for this laptop's system when none did.

Pure text: no Textual here (the command line imports this module), the addresses and the
system (``sys.platform``) are handed in.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

from companion.language import Language, language

WAIT_SECONDS = 60.0  # no phone after this long: the likely causes are listed

# Interfaces that are not the venue's network, by their name's beginning (lower case).
_VPN = ("tun", "tap", "wg", "utun", "ppp", "ipsec", "tailscale", "zt", "nordlynx", "proton",
        "mullvad", "wireguard", "openvpn", "vpn")
_VIRTUAL = ("docker", "br-", "virbr", "veth", "vmnet", "vboxnet", "virtualbox", "vethernet",
            "hyper-v", "lxc", "lxd", "podman", "cni", "flannel", "vmware", "bridge")


@dataclass(frozen=True)
class Address:
    interface: str
    address: str
    kind: str  # "lan", "loopback", "link-local", "vpn", "virtual", "public"


def classify(interface: str, address: str) -> str:
    """What an interface's address is to the players' phones."""
    ip = ipaddress.ip_address(address)
    name = interface.lower()
    if ip.is_loopback:
        return "loopback"
    if ip.is_link_local:
        return "link-local"
    if name.startswith(_VPN) or "vpn" in name or ip in ipaddress.ip_network("100.64.0.0/10"):
        return "vpn"  # (100.64/10: the carrier-grade range VPNs such as Tailscale use)
    if name.startswith(_VIRTUAL):
        return "virtual"
    return "lan" if ip.is_private else "public"


def addresses_of(pairs: list[tuple[str, str]]) -> list[Address]:
    """The laptop's (interface, address) pairs, classified, in the order given (the routed
    one first)."""
    return [Address(i, a, classify(i, a)) for i, a in pairs]


def best(found: list[Address]) -> Address | None:
    """The address to give the phones: the first on a local network, else the first that is
    neither this laptop only nor a VPN's."""
    for address in found:
        if address.kind == "lan":
            return address
    for address in found:
        if address.kind in ("public", "virtual"):
            return address
    return None


def address_lines(found: list[Address], lang: Language | None = None) -> list[str]:
    """One line per address, saying whether the phones should use it and why; a first line
    when there are several (or none that phones can reach)."""
    _ = lang or language()
    chosen = best(found)
    lines: list[str] = []
    reachable = [a for a in found if a.kind not in ("loopback",)]
    if chosen is None:
        lines.append(_(
            "This laptop has no address on a local network: join the venue's Wi-Fi (or your "
            "phone's hotspot) first."
        ))
    elif len(reachable) > 1:
        lines.append(_(
            "This laptop has several addresses; give the phones %(address)s, the one on the "
            "network this laptop's traffic goes through.",
            address=chosen.address,
        ))
    why = {
        "lan": _("on the local network: phones on the same Wi-Fi reach it"),
        "loopback": _("this laptop only: no phone can reach it"),
        "link-local": _("no network gave this laptop an address here (link-local)"),
        "vpn": _("a VPN's: phones on the Wi-Fi cannot reach it"),
        "virtual": _("a virtual machine's or container's network, not the Wi-Fi"),
        "public": _("a public address: phones reach it only if no firewall is in the way"),
    }
    for address in found:
        mark = "→" if address is chosen else " "
        lines.append(_(
            "%(mark)s %(address)s (%(interface)s): %(why)s",
            mark=mark, address=address.address, interface=address.interface,
            why=why[address.kind],
        ))
    return lines


def waiting_line(url: str, lang: Language | None = None) -> str:
    """What the check waits for, in one sentence."""
    _ = lang or language()
    return _(
        "Waiting for a phone on the players' Wi-Fi to open %(url)s (scan the code).", url=url
    )


def is_loopback(address: str) -> bool:
    """Whether ``address`` is this laptop itself (127.0.0.0/8, ::1)."""
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


def reached_line(address: str, ms: int, lang: Language | None = None) -> str:
    """The line when the test page was opened: from a phone, or from this laptop itself
    (which says nothing about the phones)."""
    _ = lang or language()
    if is_loopback(address):
        return _(
            "Reached from %(address)s in %(ms)s ms: that is this laptop itself, which says "
            "nothing about the phones; open the page on a phone on the players' Wi-Fi.",
            address=address,
            ms=ms,
        )
    return _("Reached from %(address)s in %(ms)s ms.", address=address, ms=ms)


def listening_lines(host: str, found: list[Address], lang: Language | None = None) -> list[str]:
    """With ``--host``: where the check listens, and when that is this laptop only, the
    address the phones would use instead (``found``: the laptop's own addresses)."""
    _ = lang or language()
    if not is_loopback(host):
        return [_("The check listens on %(host)s only.", host=host)]
    chosen = best(found)
    if chosen is None:
        return [_(
            "The check listens on %(host)s only, this laptop itself: no phone can open its page.",
            host=host,
        )]
    return [_(
        "The check listens on %(host)s only, this laptop itself: no phone can open its page. "
        "To test the phones, leave out --host (they would use %(address)s).",
        host=host,
        address=chosen.address,
    )]


def firewall_fix(platform: str, port: int, lang: Language | None = None) -> str:
    """How to let the phones in through this laptop's firewall, for its system."""
    _ = lang or language()
    if platform.startswith("win"):
        return _(
            "Windows: when Windows asks whether to allow Python on networks, allow it on "
            "private networks, and make the venue's Wi-Fi a private network (Settings › Network "
            "& internet › Wi-Fi › the network › Private); or, in a terminal run as "
            "administrator: netsh advfirewall firewall add rule name=\"companion %(port)s\" "
            "dir=in action=allow protocol=TCP localport=%(port)s",
            port=port,
        )
    if platform == "darwin":
        return _(
            "macOS: System Settings › Network › Firewall › Options: allow incoming connections "
            "for Python (or turn the firewall off for the game); when macOS asks whether Python "
            "may accept incoming network connections, answer Allow."
        )
    if platform.startswith("linux"):
        return _(
            "Linux: sudo ufw allow %(port)s/tcp (Ubuntu, Mint), or sudo firewall-cmd "
            "--add-port=%(port)s/tcp (Fedora, openSUSE).",
            port=port,
        )
    return _("Allow incoming TCP connections on port %(port)s in this laptop's firewall.",
             port=port)


def cause_lines(platform: str, port: int, lang: Language | None = None) -> list[str]:
    """The likely causes when no phone arrived, most common first, each with its fix."""
    _ = lang or language()
    return [
        _("No phone has reached the laptop yet. The likely causes, most common first:"),
        _(
            "1. The Wi-Fi keeps its guests apart (a guest network, or \"client isolation\"): "
            "phones reach the internet but not this laptop. Fix: make your own network: turn on "
            "a phone's hotspot, or bring a travel router, and join it with the laptop and the "
            "phones."
        ),
        _("2. This laptop's firewall turns the phones away. Fix: %(fix)s",
          fix=firewall_fix(platform, port, _)),
        _(
            "3. A VPN is on, on this laptop or on the phone. Fix: turn it off for the game, or "
            "allow access to the local network in its settings."
        ),
        _(
            "4. The phone is on another network (mobile data, another Wi-Fi). Fix: join the "
            "laptop's Wi-Fi on the phone, then scan again."
        ),
    ]
