"""Whole documents: everything a session's table needs, and the session-independent sheets.

:func:`print_session` is what ``companion print NAME`` and the console's Print screen call.
The players' links are built on one base address: the one asked for, else the session's
current one (``links.current_base``), else this machine's LAN address with the default port.
After printing, the base is kept in the session's ``printed_url`` so the console can warn
when the links stop matching the cards.
"""

from __future__ import annotations

import socket
import sys
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from companion.errors import UserError
from companion.language import Language, language
from companion.printing.common.layout import Paper, Sheets, font_advice, paper_named
from companion.printing.prison.cards import Card, add_cards
from companion.printing.prison.rules_card import add_rules_card
from companion.printing.prison.tokens import add_token_sheets
from companion.printing.prison.tracker import add_night_tracker
from companion.printing.prison.warden_screen import add_warden_screen
from companion.rules.prison.scenario import PrisonRules
from companion.session.wifi import wifi_of

if TYPE_CHECKING:
    from companion.session.prison import PrisonSession
    from companion.session.session import Session

GENERIC_SCENARIO = "classic"
GENERIC_PRISONERS = 4
REPO_PRINTABLES = Path(__file__).resolve().parents[3] / "printables"


def lan_address() -> str:
    """This machine's address on the local network, found without sending anything.

    Connecting a UDP socket only picks the route (no packet leaves); the socket's own address
    is then the one phones on the same network can reach. Falls back to 127.0.0.1.
    """
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.254.254.254", 9))
        address = str(probe.getsockname()[0])
    except OSError:
        address = "127.0.0.1"
    finally:
        probe.close()
    return address if address != "0.0.0.0" else "127.0.0.1"


def check_public_url(url: str) -> str:
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise UserError(
            f"{url!r} is not a usable public address; give one such as http://192.168.1.20:8765."
        )
    return url.strip().rstrip("/")


def choose_base(session: Session, public_url: str | None = None) -> str:
    """The address the cards' links are built on (see the module's docstring)."""
    from companion.session.links import DEFAULT_PORT, current_base

    if public_url:
        return check_public_url(public_url)
    return current_base(session) or f"http://{lan_address()}:{DEFAULT_PORT}"


def session_rules(session: PrisonSession) -> PrisonRules:
    """The session's scenario numbers (public: part of the setup everyone agreed on)."""
    return PrisonRules.model_validate(session.setup["rules"])


def session_language(session: Session, lang: str | None = None) -> Language:
    """The language a session's printouts and board are in: ``lang`` when given (``companion
    print --lang``), else the session's own (``lang`` in its meta, set by ``companion new
    --lang``), else English. An unknown one is refused in one sentence."""
    return language(lang or session.settings.get("lang") or None)


def print_session(
    session: Session,
    paper: str,
    out: str | Path,
    public_url: str | None = None,
    lang: str | None = None,
) -> Path:
    """Write one PDF with everything a prison-break session needs, in the session's language
    (or ``lang``), and record the address its links are on (``printed_url``); where it went.

    Raises :class:`UserError` (one sentence) for an unknown paper size or language, a session
    of another game, a bad public address or a file that cannot be written; nothing is changed
    then.
    """
    from companion.session.store import StoreError

    path, base = write_session(session, paper, out, public_url, lang)
    try:
        session.set("printed_url", base)
    except StoreError as error:
        raise UserError(str(error)) from None
    return path


def write_session(
    session: Session,
    paper: str,
    out: str | Path,
    public_url: str | None = None,
    lang: str | None = None,
) -> tuple[Path, str]:
    """:func:`print_session` without recording anything: where the PDF went and the address
    its links are on. The session is only read (the console's Print screen runs it in a worker
    thread and records the address itself)."""
    from companion.rules.prison.views import table
    from companion.session.prison import is_prison
    from companion.session.prison.seats import join_url, seat_url, seats_of

    sheet = paper_named(paper)
    _ = session_language(session, lang)
    if not is_prison(session):
        raise UserError(
            f"The session {session.name!r} is a {session.game} game; "
            "only prison-break sessions have cards and sheets to print."
        )
    base = choose_base(session, public_url)
    view = table(session.state)
    rules = session_rules(session)
    prisoners = [p["name"] for p in view["prisoners"]]
    seats = seats_of(session)
    cards = [Card(s.name, s.role, seat_url(base, s), s.code, join_url(base)) for s in seats]
    pdf = Sheets(sheet, _("The Prisoner's Dilemma: %(session)s", session=session.name))
    missing = pdf.cover_text([c.name for c in cards])
    if missing:
        print(
            f"companion: no installed font has {missing!r}, so names with those letters get a "
            f"line to write them on by hand; to print them, {font_advice()} and print again.",
            file=sys.stderr,
        )
    add_cards(pdf, cards, _, wifi_of(session))
    add_warden_screen(pdf, rules, [pdf.printable(p) for p in prisoners], _)
    scenario = str(session.setup.get("scenario", "custom"))
    add_rules_card(pdf, rules, scenario, len(prisoners), _)
    add_night_tracker(pdf, rules, _("Night tracker: %(session)s", session=session.name), _)
    add_token_sheets(
        pdf, rules, len(prisoners), _("Tokens: %(session)s", session=session.name), _
    )
    return _write(pdf, Path(out)), base


def generic_document(
    rules: PrisonRules, scenario: str, paper: Paper, prisoners: int, lang: Language | None = None
) -> Sheets:
    """The sheets that do not depend on a session: tokens, night tracker, rules card."""
    _ = lang or language()
    pdf = Sheets(
        paper,
        _("The Prisoner's Dilemma: %(scenario)s sheets (%(paper)s)", scenario=scenario,
          paper=paper.name),
    )
    group = _.n_("%(count)s prisoner", "%(count)s prisoners", prisoners)
    add_rules_card(pdf, rules, scenario, prisoners, _)
    add_night_tracker(pdf, rules, _("Night tracker (%(scenario)s)", scenario=scenario), _)
    add_token_sheets(
        pdf, rules, prisoners,
        _("Tokens for %(prisoners)s (%(scenario)s)", prisoners=group, scenario=scenario), _,
    )
    return pdf


def generic_name(scenario: str, paper: Paper) -> str:
    return f"{scenario}-sheets-{paper.name}.pdf"


def print_generic(folder: str | Path | None = None, papers: list[str] | None = None) -> list[Path]:
    """Write the classic scenario's session-independent sheets, one PDF per paper size."""
    from companion.rules.prison.scenario import ScenarioError
    from companion.session.prison.scenarios import load_scenario

    try:
        rules = load_scenario(GENERIC_SCENARIO)
    except ScenarioError as error:
        raise UserError(str(error)) from None
    # A checkout's printables/ holds the committed sheets; an installed app never writes into
    # its own package's surroundings, but into printables/ in the current folder.
    target = Path(folder) if folder else (
        REPO_PRINTABLES if REPO_PRINTABLES.is_dir() else Path("printables")
    )
    written = []
    for name in papers or ["a4", "letter"]:
        paper = paper_named(name)
        pdf = generic_document(rules, GENERIC_SCENARIO, paper, GENERIC_PRISONERS)
        written.append(_write(pdf, target / generic_name(GENERIC_SCENARIO, paper)))
    return written


def _write(pdf: Sheets, path: Path) -> Path:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        data = bytes(pdf.output())
        path.write_bytes(data)
    except IsADirectoryError:
        raise UserError(f"{path} is a folder; give a file name ending in .pdf.") from None
    except OSError as error:
        raise UserError(f"The PDF cannot be written to {path}: {error.strerror}.") from None
    return path.resolve()
