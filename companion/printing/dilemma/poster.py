"""The dilemma warm-up's poster: one A4 page with the room's QR code (vector), its address and
how to join; when the session keeps the venue's Wi-Fi, the code to join it beside the room's
(the network first, then the game), with the network's name and password beneath it."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from fpdf import FPDF

from companion.errors import UserError
from companion.language import Language, language
from companion.printing.common.layout import FONT_DIR, draw_qr
from companion.rules.dilemma.views import SentencesView

if TYPE_CHECKING:
    from companion.session.wifi import Wifi

FONT = FONT_DIR / "DejaVuSans.ttf"


def write_poster(
    path: Path,
    join_url: str,
    sentences: SentencesView,
    lang: Language | None = None,
    wifi: Wifi | None = None,
) -> Path:
    """Write the poster to ``path`` in ``lang`` (English by default); ``sentences`` in months,
    as in the board view; with ``wifi``, its code beside the room's. Refuses a path it cannot
    write in one sentence."""
    _ = lang or language()
    pdf = FPDF(format="A4")
    pdf.set_auto_page_break(False)
    pdf.add_page()
    pdf.add_font("body", "", str(FONT))
    pdf.set_font("body", size=30)
    pdf.set_xy(15, 22)
    pdf.cell(180, 14, _("The prisoner's dilemma"), align="C")
    pdf.set_font("body", size=16)
    pdf.set_xy(15, 40)
    pdf.multi_cell(
        180,
        8,
        _("A warm-up for everyone: scan the code with your phone and type your name."),
        align="C",
    )
    side = 140.0 if wifi is None else 112.0
    left, top = ((210 - side) / 2, 62.0) if wifi is None else (15.0, 62.0)
    pdf.set_fill_color(0, 0, 0)
    draw_qr(pdf, join_url, left, top, side, seam=1.0)
    if wifi is not None:
        _wifi(pdf, wifi, left + side + 8, top, 195 - (left + side + 8), _)
        pdf.set_font("body", size=14)
        pdf.set_xy(left, top + side + 1)
        pdf.cell(side, 7, _("2. Scan to join the game"), align="C")
    pdf.set_font("body", size=18)
    pdf.set_xy(15, top + side + 10)
    pdf.cell(180, 10, join_url, align="C")
    pdf.set_font("body", size=13)
    pdf.set_xy(25, top + side + 26)
    months = {
        key: _.n_("%(count)s month", "%(count)s months", sentences[key])
        for key in ("both_silent", "both_betray", "betrayer", "betrayed")
    }
    pdf.multi_cell(
        160,
        7,
        _(
            "Each round you face one partner, questioned apart. Stay SILENT or BETRAY, in "
            "secret. Both silent: %(both_silent)s each. Both betray: %(both_betray)s each. "
            "Betray a silent partner and you serve %(betrayer)s while they serve "
            "%(betrayed)s. Least time served wins.",
            **months,
        ),
        align="C",
    )
    try:
        pdf.output(str(path))
    except OSError as error:
        raise UserError(f"The poster cannot be written to {path}: {error.strerror}.") from None
    return path


def _wifi(pdf: FPDF, wifi: Wifi, x: float, top: float, width: float, _: Language) -> None:
    """The Wi-Fi's code at (x, top), ``width`` wide, the network's name and password beneath."""
    draw_qr(pdf, wifi.payload(), x, top, width, seam=1.0)
    pdf.set_font("body", size=14)
    pdf.set_xy(x - 4, top + width + 1)
    pdf.cell(width + 8, 7, _("1. Join the Wi-Fi"), align="C")
    pdf.set_font("body", size=12)
    pdf.set_xy(x - 4, top + width + 9)
    pdf.multi_cell(width + 8, 6, wifi.name, align="C")
    if wifi.password is not None:
        pdf.set_x(x - 4)
        pdf.multi_cell(
            width + 8, 6, _("Password: %(password)s", password=wifi.password), align="C"
        )
