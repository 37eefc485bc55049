"""``companion dilemma NAME``: the two-prisoner dilemma warm-up, a tournament for the whole room.

Creates the session the first time (from ``scenarios/dilemma.toml``), reopens it after that
(also after a crash: the log holds every join and choice), runs the phone server inside the
console's event loop and shows the room's QR code. ``--poster FILE`` writes a one-page PDF of
the room's QR code instead.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from companion.cli.options import check_port, check_public_url, no_phones, phone_options
from companion.cli.wiring import open_dilemma_console, room_poster
from companion.errors import UserError
from companion.session.create import open_or_create_dilemma
from companion.session.links import DEFAULT_PORT
from companion.session.paths import data_dir

FONTS = (
    Path(__file__).resolve().parents[1] / "printing" / "common" / "fonts" / "DejaVuSans.ttf",
    Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"),
)


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "dilemma",
        parents=[no_phones(), phone_options()],
        help="the two-prisoner dilemma warm-up: a tournament on the room's phones",
    )
    p.add_argument("name", help="the session's name (created the first time, reopened after)")
    p.add_argument("--rounds", type=int, default=None, help="rounds to play (new sessions only)")
    p.add_argument("--scenario", default="dilemma", help="the scenario file (default: dilemma)")
    p.add_argument("--poster", metavar="FILE.pdf", help="write the room's QR poster and exit")
    p.set_defaults(func=run_dilemma)


def write_poster(path: Path, join_url: str, sentences: dict[str, int]) -> Path:
    """A one-page A4 poster: the room's QR code (vector), its address and how to join;
    ``sentences`` as in the board view."""
    import qrcode
    from fpdf import FPDF

    font = next((f for f in FONTS if f.is_file()), None)
    pdf = FPDF(format="A4")
    pdf.set_auto_page_break(False)
    pdf.add_page()
    if font is not None:
        pdf.add_font("body", "", str(font))
        family = "body"
    else:  # pragma: no cover - fonts-dejavu-core is a system dependency
        family = "helvetica"
    pdf.set_font(family, size=30)
    pdf.set_xy(15, 22)
    pdf.cell(180, 14, "The prisoner's dilemma", align="C")
    pdf.set_font(family, size=16)
    pdf.set_xy(15, 40)
    pdf.multi_cell(
        180,
        8,
        "A warm-up for everyone: scan the code with your phone and type your name.",
        align="C",
    )
    code = qrcode.QRCode(border=0, error_correction=qrcode.constants.ERROR_CORRECT_M)
    code.add_data(join_url)
    code.make(fit=True)
    matrix = code.get_matrix()
    side = 140.0
    cell = side / len(matrix)
    left, top = (210 - side) / 2, 62.0
    pdf.set_fill_color(0, 0, 0)
    for y, row in enumerate(matrix):
        x = 0
        while x < len(row):  # one rectangle per run of dark modules
            if not row[x]:
                x += 1
                continue
            start = x
            while x < len(row) and row[x]:
                x += 1
            pdf.rect(left + start * cell, top + y * cell, (x - start) * cell, cell, style="F")
    pdf.set_font(family, size=18)
    pdf.set_xy(15, top + side + 10)
    pdf.cell(180, 10, join_url, align="C")
    pdf.set_font(family, size=13)
    pdf.set_xy(25, top + side + 26)
    pdf.multi_cell(
        160,
        7,
        "Each round you face one partner, questioned apart. Stay SILENT or BETRAY, in secret. "
        f"Both silent: {_months(sentences['both_silent'])} each. Both betray: "
        f"{_months(sentences['both_betray'])} each. Betray a silent partner and you serve "
        f"{_months(sentences['betrayer'])} while they serve {_months(sentences['betrayed'])}. "
        "Least time served wins.",
        align="C",
    )
    try:
        pdf.output(str(path))
    except OSError as error:
        raise UserError(f"The poster cannot be written to {path}: {error.strerror}.") from None
    return path


def _months(n: int) -> str:
    return f"{n} month" + ("" if n == 1 else "s")


def run_dilemma(args: argparse.Namespace) -> int:
    port = check_port(args.port) or DEFAULT_PORT
    public_url = check_public_url(args.public_url) if args.public_url else None
    if args.rounds is not None and not 1 <= args.rounds <= 100:
        raise UserError(f"--rounds {args.rounds} is out of range; play 1 to 100 rounds.")
    folder = data_dir(args.data_dir)
    session = open_or_create_dilemma(
        folder, args.name, args.scenario, args.rounds, holder="companion dilemma"
    )
    try:
        if args.poster:
            from companion.web.common.address import base_url

            base = public_url or session.meta().get("public_url") or base_url(args.host, port)
            path = room_poster(session, Path(args.poster), f"{str(base).rstrip('/')}/join-room")
            print(f"Wrote the room's QR poster to {path}.")
            return 0
        return open_dilemma_console(session, args)
    finally:
        session.close()
