"""Player cards: one per seat, four to a page, with the personal QR code under a fold-up flap.

A card, top to bottom: the player's name and role with three lines on how to use the card
(what stays visible), the QR code with the seat code and the join address beneath it, a dotted
fold line, and a flap that folds up over the code so the card can lie on the table. The flap
is cross-hatched where it comes to lie on the code and the seat code, so that they do not
read through the paper; its one line of text lies over the blank band between the two. When the
session keeps the venue's Wi-Fi, a smaller "join the Wi-Fi" code sits left of the seat's, with
the network's name and password beneath it: two scans, the network and then the seat.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from companion.language import N_, Language, language, pN_
from companion.printing.common.layout import FONT, MARGIN, Paper, Sheets

if TYPE_CHECKING:
    from companion.session.wifi import Wifi

HEADER = 32.0  # mm: name, role, how-to lines
SECRET = 45.0  # mm: QR code, seat code, join address
FLAP = SECRET  # the flap covers the secret part exactly
CARD_HEIGHT = HEADER + SECRET + FLAP
QR_SIZE = 28.0
QR_TOP = 3.0  # mm below the top of the secret part
SEAT_CODE_TOP = QR_TOP + QR_SIZE + 4.0  # the seat code's line, then the join address
WIFI_QR_SIZE = 20.0  # the Wi-Fi's code, left of the seat's, its words beneath it
FLAP_LINE = N_("Fold up over your code: whoever scans it plays your seat.")
HOW_TO = (
    N_("1. Scan the code with your phone's camera to open your page."),
    N_("2. No camera? Open the address below and type your seat code."),
    N_("3. Lost the page? Scan again: it always brings you back."),
)
# The role under the player's name, whose gender the game does not know (Spanish "Carcelero/a").
ROLE_TITLES = {"prisoner": pN_("card role", "Prisoner"), "warden": pN_("card role", "Warden")}


@dataclass(frozen=True)
class Card:
    name: str
    role: str  # "prisoner" or "warden"
    url: str  # the seat's private link, in the QR code
    code: str  # the seat code, for typing by hand
    join: str  # where the code is typed


def tint_band() -> tuple[float, float]:
    """Where the flap is cross-hatched, in mm below the fold: over everything from the top of
    the QR code to the bottom of the seat code once folded (with a millimetre to spare)."""
    return SECRET - (SEAT_CODE_TOP + 5.5), SECRET - QR_TOP + 1


def spaced_code(code: str) -> str:
    """ABCDEFGH as ABCD EFGH: easier to read aloud and to type (spaces do not matter)."""
    return " ".join(code[i : i + 4] for i in range(0, len(code), 4))


PER_PAGE = 4


def card_slot(paper: Paper, index: int) -> tuple[int, float, float, float, float]:
    """Where card ``index`` goes: (page among the card pages, x, y, width, height) in mm."""
    width = paper.inner_width / 2
    top = MARGIN + (paper.inner_height - 6 - 2 * CARD_HEIGHT) / 2
    place = index % PER_PAGE
    x = MARGIN + (place % 2) * width
    y = top + (place // 2) * CARD_HEIGHT
    return index // PER_PAGE, x, y, width, CARD_HEIGHT


def add_cards(
    pdf: Sheets, cards: list[Card], lang: Language | None = None, wifi: Wifi | None = None
) -> None:
    """Pages of player cards, two columns and two rows to a page, cut lines between them; with
    ``wifi``, each card has the code to join the venue's network beside the seat's."""
    _ = lang or language()
    for index, card in enumerate(cards):
        _page, x, y, width, height = card_slot(pdf.paper, index)
        if index % PER_PAGE == 0:
            pdf.add_page()
            pdf.scissors_note(
                _(
                    "Cut along the dashed lines. Fold each flap up along the dotted line to hide "
                    "the code. Keep your card until the end of the game."
                )
            )
        pdf.cut_box(x, y, width, height)
        _card(pdf, card, x, y, width, _)
        if wifi is not None:
            _wifi(pdf, wifi, x, y + HEADER, width, _)


def _card(pdf: Sheets, card: Card, x: float, y: float, w: float, _: Language) -> None:
    pad = 5.0
    inner = w - 2 * pad
    role = (_.pgettext("card role", ROLE_TITLES[card.role]) if card.role in ROLE_TITLES
            else card.role.title())
    name = pdf.printable(card.name)
    if name:
        pdf.write_at(x + pad, y + 3.5, inner, name, 17, bold=True)
    else:  # no installed font has some of its letters: a line to write it on by hand
        pdf.set_line_width(0.3)
        pdf.line(x + pad, y + 10, x + pad + inner, y + 10)
        pdf.write_at(x + pad, y + 3, inner, _("(write the name here)"), 6.5)
    pdf.write_at(x + pad, y + 11.5, inner, _("%(role)s · The Prisoner's Dilemma", role=role), 9)
    how_to = [_(line) for line in HOW_TO]
    size = pdf.fitting_size(how_to, inner, 7.5)
    for i, line in enumerate(how_to):
        pdf.write_at(x + pad, y + 17.5 + i * 4, inner, line, size)
    # The secret part: QR code, then the seat code and the address to type it at.
    top = y + HEADER
    pdf.qr_code(card.url, x + (w - QR_SIZE) / 2, top + QR_TOP, QR_SIZE)
    seat_code = _("Seat code  %(code)s", code=spaced_code(card.code))
    pdf.write_at(x + pad, top + SEAT_CODE_TOP, inner, seat_code, 11, bold=True, align="C")
    pdf.write_at(x + pad, top + SEAT_CODE_TOP + 5, inner,
                 _("or type it at %(address)s", address=card.join), 8, align="C")
    # The flap: folded up, the point ``fold + d`` comes to lie on ``fold - d``.
    fold = top + SECRET
    pdf.fold_line(x, fold, x + w, fold)
    pdf.write_at(x + pad, fold + 1, inner, _("fold up"), 6.5, align="C")
    first, last = tint_band()
    pdf.tint(x + 1, fold + first, w - 2, last - first)
    # The line of text goes over the blank band between the QR code and the seat code.
    line_top = SECRET - SEAT_CODE_TOP + 0.6
    band = SEAT_CODE_TOP - QR_TOP - QR_SIZE - 1.2
    pdf.set_fill_color(255)
    pdf.rect(x + 1, fold + line_top, w - 2, band, style="F")
    pdf.set_fill_color(0)
    pdf.write_at(x + pad, fold + line_top, inner, _(FLAP_LINE), 8, bold=True, align="C")


def _wifi(pdf: Sheets, wifi: Wifi, x: float, top: float, w: float, _: Language) -> None:
    """The venue's Wi-Fi code in the secret part's left margin, its words beneath it."""
    pad = 4.0
    room = (w - QR_SIZE) / 2 - pad - 3.0  # the margin left of the seat's code, a gap kept
    size = min(WIFI_QR_SIZE, room)
    left = x + pad + (room - size) / 2
    pdf.qr_code(wifi.payload(), left, top + QR_TOP, size)
    lines = [_("1. Join the Wi-Fi"), pdf.printable(wifi.name) or "?"]
    if wifi.password is not None:
        lines.append(_("Password: %(password)s", password=pdf.printable(wifi.password) or "?"))
    for i, line in enumerate(lines):
        text = pdf.fitting_size([line], room, 6.5, smallest=4.5)
        pdf.set_font(FONT, "", text)
        if pdf.text_width(line) > room:  # too long even in small print: the code holds it
            continue  # (never over the seat's code, which must scan)
        pdf.write_at(x + pad, top + QR_TOP + size + 0.5 + i * 2.8, room, line, text,
                     align="C", shrink_to=text)
