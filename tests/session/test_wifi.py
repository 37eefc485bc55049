"""The venue's Wi-Fi as the QR code's text, and the combinations of options refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.session.wifi import Wifi, escape, forget_wifi, keep_wifi, wifi_of, wifi_problem
from tests.conftest import demo_session


def test_the_payload_is_the_standard_form_with_every_reserved_character_escaped() -> None:
    wifi = Wifi('Caf"e;1', 'p;a,s:s\\w"rd')
    assert wifi.payload() == 'WIFI:T:WPA;S:Caf\\"e\\;1;P:p\\;a\\,s\\:s\\\\w\\"rd;;'
    assert Wifi("Hall", None).payload() == "WIFI:T:nopass;S:Hall;;"
    assert escape("plain name 42") == "plain name 42"


@pytest.mark.parametrize(
    ("name", "password", "open_network", "words"),
    [
        (None, "secret", False, "--wifi-password needs the network's name too"),
        (None, None, True, "--wifi-open needs the network's name"),
        ("Hall", "secret", True, "leave out one of them"),
        ("Hall", None, False, "needs its password (--wifi-password PASSWORD), or --wifi-open"),
        ("  ", "secret", False, "--wifi-name is empty"),
        ("Hall", "", False, "--wifi-password is empty"),
    ],
)
def test_a_bad_combination_is_one_sentence(
    name: str | None, password: str | None, open_network: bool, words: str
) -> None:
    problem = wifi_problem(name, password, open_network)
    assert problem is not None and words in problem
    assert problem.count(". ") == 0 and problem.endswith(".")


def test_good_combinations_pass() -> None:
    assert wifi_problem(None, None, False) is None
    assert wifi_problem("Hall", "secret", False) is None
    assert wifi_problem("Hall", None, True) is None


def test_the_session_keeps_and_forgets_it(tmp_path: Path) -> None:
    session = demo_session(tmp_path, "w")
    try:
        assert wifi_of(session) is None
        keep_wifi(session, Wifi("Hall", "s;cret"))
        assert wifi_of(session) == Wifi("Hall", "s;cret")
        keep_wifi(session, Wifi("Hall", None))
        assert wifi_of(session) == Wifi("Hall", None)
        forget_wifi(session)
        assert wifi_of(session) is None
    finally:
        session.close()
