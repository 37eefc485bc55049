"""Paper, fonts and drawing helpers shared by every printable sheet.

Everything is drawn in millimetres, in black on white, inside margins of at least
:data:`MARGIN` on both A4 and Letter. Text uses the shipped DejaVu Sans (``fonts/``); names in
scripts DejaVu lacks (Chinese, Japanese, Korean) fall back to the CJK fonts installed on the
system, found at :data:`CJK_FALLBACKS` on Linux and in the font folders of macOS and Windows
(:func:`cjk_candidates`); a name no font can print gets a line to write it on
by hand instead of an empty space. Right-to-left names (Arabic, Hebrew) are shaped and
ordered by HarfBuzz (``uharfbuzz``), so that they read correctly. QR codes are vector
rectangles drawn from ``qrcode``'s module matrix, never a raster image.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib.util import find_spec
from pathlib import Path
from unicodedata import bidirectional, category

import qrcode
from fpdf import FPDF

from companion.errors import UserError

FONT_DIR = Path(__file__).resolve().parent / "fonts"
FONT = "dejavu"
FALLBACK = "cjk"
MARGIN = 12.0  # mm; printers need at least 10
# A fixed date, so that the same sheets always give the same bytes.
FIXED_DATE = datetime(2026, 1, 1, tzinfo=UTC)
# Debian packages that provide a font for Chinese, Japanese and Korean names, best first.
# Every one installed is used for the characters the ones before it lack (Droid Sans Fallback,
# for one, has no Korean).
CJK_FALLBACKS = (
    Path("/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf"),  # fonts-droid-fallback
    Path("/usr/share/fonts/truetype/nanum/NanumGothic.ttf"),  # fonts-nanum (Korean)
    Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"),  # fonts-noto-cjk
    Path("/usr/share/fonts/truetype/wqy/wqy-microhei.ttc"),  # fonts-wqy-microhei
    Path("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc"),  # fonts-wqy-zenhei
    Path("/usr/share/fonts/truetype/unfonts-core/UnDotum.ttf"),  # fonts-unfonts-core (Korean)
)
# The fonts macOS and Windows have for Chinese, Japanese and Korean, best first, looked for in
# their font folders (font_folders); Noto Sans CJK wherever the user installed it.
MAC_CJK = (
    "PingFang.ttc", "Hiragino Sans GB.ttc", "ヒラギノ角ゴシック W3.ttc", "AppleSDGothicNeo.ttc",
    "STHeiti Light.ttc", "Arial Unicode.ttf", "NotoSansCJK-Regular.ttc",
)
WINDOWS_CJK = (
    "msyh.ttc", "msjh.ttc", "YuGothR.ttc", "meiryo.ttc", "malgun.ttf", "simsun.ttc",
    "NotoSansCJK-Regular.ttc",
)
# fontTools notes on stderr that it drops some fonts' hinting tables ("TSI0 NOT subset") when
# it embeds them; nothing a game master can act on.
logging.getLogger("fontTools.subset").setLevel(logging.ERROR)
# What to do when a name still has characters no font has, on each system.
FONT_ADVICE = {
    "darwin": "add a font for that script with Font Book (Noto Sans CJK has Chinese, Japanese "
    "and Korean)",
    "win32": "add a font for that script in Settings, Personalization, Fonts (Noto Sans CJK has "
    "Chinese, Japanese and Korean)",
    "linux": "install fonts-noto-cjk (Chinese, Japanese, Korean) or a font for that script",
}


@dataclass(frozen=True)
class Paper:
    name: str
    width: float  # mm
    height: float  # mm

    @property
    def inner_width(self) -> float:
        return self.width - 2 * MARGIN

    @property
    def inner_height(self) -> float:
        return self.height - 2 * MARGIN


PAPERS = {"a4": Paper("a4", 210.0, 297.0), "letter": Paper("letter", 215.9, 279.4)}


def paper_named(name: str) -> Paper:
    """The paper called ``name`` (any case); refuses an unknown one in one sentence."""
    paper = PAPERS.get(str(name).strip().lower())
    if paper is None:
        raise UserError(f"{name!r} is not a paper size this prints on; use a4 or letter.")
    return paper


class Sheets(FPDF):
    """An fpdf2 document with the paper, fonts and fixed metadata set up."""

    def __init__(self, paper: Paper, title: str) -> None:
        super().__init__(unit="mm", format=(paper.width, paper.height))
        self.paper = paper
        self.set_auto_page_break(False)
        self.set_margins(MARGIN, MARGIN, MARGIN)
        self.set_creation_date(FIXED_DATE)
        self.set_producer("companion")
        self.set_creator("companion print")
        self.set_title(title)
        self.add_font(FONT, "", str(FONT_DIR / "DejaVuSans.ttf"))
        self.add_font(FONT, "B", str(FONT_DIR / "DejaVuSans-Bold.ttf"))
        self.set_font(FONT, "", 10)
        self.set_text_color(0)
        self.set_draw_color(0)
        self.set_fill_color(0)
        self.fallbacks: list[str] = []  # the CJK font families in use, best first
        self.unprintable = ""  # characters no loaded font has (see cover_text)
        # Text that ran outside its box even at the smallest size (a translation too long for
        # the layout): page number and text; the tests render every sheet in German and
        # expect none.
        self.overflows: list[tuple[int, str]] = []

    def cover_text(self, texts: Iterable[str]) -> str:
        """Make sure every character of ``texts`` can be printed: add CJK fallback fonts
        when some are missing from DejaVu. Returns the characters no font has ('' if none)."""
        have = self.cmap(FONT)
        missing = sorted({c for t in texts for c in t if ord(c) not in have and not c.isspace()})
        for family in self.fallbacks:
            missing = [c for c in missing if ord(c) not in self.cmap(family)]
        for number, path in enumerate(cjk_fonts()):
            family = f"{FALLBACK}{number}"
            if not missing or family in self.fonts:
                continue
            self.add_font(family, "", str(path))
            extra = self.cmap(family)
            if any(ord(c) in extra for c in missing):
                self.fallbacks.append(family)
                missing = [c for c in missing if ord(c) not in extra]
        if self.fallbacks:
            self.set_fallback_fonts(self.fallbacks, exact_match=False)
        self.unprintable = "".join(sorted({*self.unprintable, *missing}))
        return "".join(missing)

    def can_print(self, text: str) -> bool:
        """Whether every character of ``text`` has a glyph in a font loaded by cover_text."""
        return not any(c in self.unprintable for c in text)

    def printable(self, text: str) -> str:
        """``text`` as it can be printed: symbols no font has (an emoji after a name) left out;
        '' when a letter or mark of it has no font (half a name would be the wrong name)."""
        if any(c in self.unprintable and not category(c).startswith("S") for c in text):
            return ""
        return " ".join("".join(c for c in text if c not in self.unprintable).split())

    def cmap(self, family: str) -> dict[int, int]:
        """The characters a loaded font has (code point to glyph)."""
        cmap: dict[int, int] = getattr(self.fonts[family], "cmap", {})
        return cmap

    # ---- text ---------------------------------------------------------------------------

    def write_at(
        self,
        x: float,
        y: float,
        w: float,
        text: str,
        size: float,
        *,
        bold: bool = False,
        align: str = "L",
        shrink_to: float = 6.0,
    ) -> float:
        """One line of text in the box at (x, y) of width w, shrunk to fit; returns its height."""
        style = "B" if bold else ""
        self.set_font(FONT, style, size)
        while size > shrink_to and self.text_width(text) > w:
            size -= 0.5
            self.set_font(FONT, style, size)
        if self.text_width(text) > w + 0.01:
            self.overflows.append((self.page, text))
        height = size * 0.3528 * 1.25
        self.set_xy(x, y)
        shaped = needs_shaping(text)
        if shaped:
            self.set_text_shaping(True)
        try:
            self.cell(w, height, text, align=align)
        finally:
            if shaped:
                self.set_text_shaping(False)
        return height

    def fitting_size(self, texts: Iterable[str], w: float, size: float, *, bold: bool = False,
                     smallest: float = 6.0) -> float:
        """The largest font size up to ``size`` at which every one of ``texts`` fits in ``w``,
        so that lines printed together keep one size."""
        style = "B" if bold else ""
        lines = list(texts)
        self.set_font(FONT, style, size)
        while size > smallest and any(self.text_width(t) > w for t in lines):
            size -= 0.25
            self.set_font(FONT, style, size)
        return size

    def text_width(self, text: str) -> float:
        """Width of ``text`` in the current font, counting fallback glyphs too."""
        have = self.cmap(FONT)
        if not self._fallback_font_ids or all(ord(c) in have for c in text):
            return float(self.get_string_width(text))
        # Characters from the fallback font: CJK glyphs are about one em wide.
        em = self.font_size
        own = "".join(c for c in text if ord(c) in have)
        return float(self.get_string_width(own)) + em * (len(text) - len(own))

    def paragraph(
        self, x: float, y: float, w: float, text: str, size: float, *, bold: bool = False
    ) -> float:
        """Wrapped text from (x, y) in width w; returns the y below it."""
        self.set_font(FONT, "B" if bold else "", size)
        self.set_xy(x, y)
        self.multi_cell(w, size * 0.3528 * 1.3, text, align="L")
        if self.get_y() > self.h - MARGIN + 0.01:  # below the page's printable area
            self.overflows.append((self.page, text))
        return float(self.get_y())

    # ---- lines --------------------------------------------------------------------------

    def cut_line(self, x1: float, y1: float, x2: float, y2: float) -> None:
        """A dashed line to cut along."""
        self.set_line_width(0.2)
        self.set_dash_pattern(dash=2.0, gap=1.5)
        self.line(x1, y1, x2, y2)
        self.set_dash_pattern()

    def cut_box(self, x: float, y: float, w: float, h: float) -> None:
        self.cut_line(x, y, x + w, y)
        self.cut_line(x, y + h, x + w, y + h)
        self.cut_line(x, y, x, y + h)
        self.cut_line(x + w, y, x + w, y + h)

    def fold_line(self, x1: float, y1: float, x2: float, y2: float) -> None:
        """A dotted line to fold along."""
        self.set_line_width(0.3)
        self.set_dash_pattern(dash=0.6, gap=1.2)
        self.line(x1, y1, x2, y2)
        self.set_dash_pattern()

    def tint(self, x: float, y: float, w: float, h: float, pitch: float = 1.1) -> None:
        """A security tint over a box, as inside a payslip's envelope: a cross-hatch under
        rows of jumbled letters and digits, so that whatever lies under the paper it is
        printed on (a QR code, a seat code) no longer reads through it."""
        self.set_line_width(0.3)
        with self.rect_clip(x, y, w, h):
            steps = int((w + h) / pitch) + 2
            for i in range(steps):
                offset = i * pitch
                self.line(x + offset - h, y + h, x + offset, y)  # rising
                self.line(x + offset - h, y, x + offset, y + h)  # falling
            self.set_font(FONT, "B", 11)
            glyphs = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
            step = 2.6  # mm between rows: the rows overlap
            for row in range(int(h / step) + 2):
                shift = (row % 2) * 1.7
                start = (row * 7) % len(glyphs)
                count = int(w / 2.5) + 4  # a glyph is at least 2.5 mm wide at this size
                text = "".join(glyphs[(start + i * 11) % len(glyphs)] for i in range(count))
                self.set_xy(x - 2 - shift, y - 2 + row * step)
                self.cell(w + 4, 4, text)

    def box(self, x: float, y: float, w: float, h: float, width: float = 0.3) -> None:
        self.set_line_width(width)
        self.rect(x, y, w, h)

    def scissors_note(self, text: str) -> None:
        """A small note in the bottom margin of the page (inside the printable area)."""
        self.write_at(MARGIN, self.h - MARGIN - 4, self.w - 2 * MARGIN, text, 7, align="C")

    # ---- QR codes -----------------------------------------------------------------------

    def qr_code(self, data: str, x: float, y: float, size: float) -> float:
        """Draw ``data`` as a QR code of side ``size`` at (x, y) from black rectangles.

        The caller leaves a white quiet zone of four modules around it. Returns the module size.
        """
        return draw_qr(self, data, x, y, size)


def draw_qr(pdf: FPDF, data: str, x: float, y: float, size: float, seam: float = 1.04) -> float:
    """Draw ``data`` as a QR code of side ``size`` at (x, y) on ``pdf``: one filled rectangle
    per run of dark modules, in the current fill colour. Every row but the last is ``seam``
    modules tall, so that rows print without seams between them. Returns the module size."""
    matrix = qr_matrix(data)
    module = size / len(matrix)
    for row, cells in enumerate(matrix):
        start = None
        for col, dark in enumerate([*cells, False]):
            if dark and start is None:
                start = col
            elif not dark and start is not None:
                height = module * (seam if row < len(matrix) - 1 else 1.0)
                width = (col - start) * module
                pdf.rect(x + start * module, y + row * module, width, height, style="F")
                start = None
    return module


def qr_matrix(data: str) -> list[list[bool]]:
    """The QR code's modules (True is dark), without the quiet zone."""
    code = qrcode.QRCode(border=0, error_correction=qrcode.constants.ERROR_CORRECT_M)
    code.add_data(data)
    code.make(fit=True)
    return [list(row) for row in code.get_matrix()]


def font_folders() -> list[Path]:
    """Where this system keeps fonts, the system's own first (none listed on Linux: its
    packages put each font at a known path, CJK_FALLBACKS)."""
    if sys.platform == "darwin":
        home = Path.home() / "Library" / "Fonts"
        system = Path("/System/Library/Fonts")
        return [system, system / "Supplemental", Path("/Library/Fonts"), home]
    if sys.platform == "win32":
        windir = os.environ.get("WINDIR") or os.environ.get("SYSTEMROOT") or r"C:\Windows"
        folders = [Path(windir) / "Fonts"]
        local = os.environ.get("LOCALAPPDATA")
        if local:
            folders.append(Path(local) / "Microsoft" / "Windows" / "Fonts")  # the user's own
        return folders
    return []


def cjk_candidates() -> list[Path]:
    """Where this system's fonts for Chinese, Japanese and Korean would be, best first."""
    names = {"darwin": MAC_CJK, "win32": WINDOWS_CJK}.get(sys.platform)
    if names is None:
        return list(CJK_FALLBACKS)
    return [folder / name for name in names for folder in font_folders()]


def cjk_fonts() -> list[Path]:
    """The installed fonts for Chinese, Japanese and Korean names, best first."""
    return [path for path in cjk_candidates() if path.is_file()]


def font_advice() -> str:
    """What the game master can do, on this system, about a name no installed font has."""
    return FONT_ADVICE.get(sys.platform, FONT_ADVICE["linux"])


def cjk_font() -> Path | None:
    """The best installed font for Chinese, Japanese and Korean names, if there is one."""
    return next(iter(cjk_fonts()), None)


def needs_shaping(text: str) -> bool:
    """Whether ``text`` has right-to-left letters, which print in the wrong order and unjoined
    unless HarfBuzz shapes them (left-to-right text is printed as it always was, so the sheets'
    bytes do not depend on whether ``uharfbuzz`` is installed)."""
    if not any(bidirectional(c) in ("R", "AL") for c in text):
        return False
    return find_spec("uharfbuzz") is not None  # a dependency; printed unshaped without it
