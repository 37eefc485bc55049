"""The options several commands share are declared once (argparse parents) and stay per command."""

from __future__ import annotations

import pytest

from companion.cli.main import build_parser

CONSOLES = ["start", "demo", "resume x", "new x", "dilemma x"]


@pytest.mark.parametrize("command", CONSOLES)
def test_every_console_command_takes_the_phone_options(command: str) -> None:
    args = build_parser().parse_args(
        [*command.split(), "--no-phones", "--host", "10.0.0.2", "--port", "9000",
         "--public-url", "http://10.0.0.2:9000"]
    )
    assert (args.no_phones, args.host, args.port, args.public_url) == (
        True, "10.0.0.2", 9000, "http://10.0.0.2:9000"
    )


def test_a_command_changes_its_own_defaults_only() -> None:
    parser = build_parser()
    assert parser.parse_args(["rehearse"]).host == "127.0.0.1"
    assert parser.parse_args(["links", "x"]).host is None
    for command in [*CONSOLES, "serve x"]:
        args = parser.parse_args(command.split())
        # resume and serve fill a missing host from where the session served last
        host = None if command in ("resume x", "serve x") else "0.0.0.0"
        assert (args.host, args.port, args.public_url) == (host, None, None), command
