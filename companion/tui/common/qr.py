"""A QR code drawn with half-block characters: two rows of modules per line of text."""

from __future__ import annotations

import qrcode  # type: ignore[import-untyped, unused-ignore]  # no stubs published


def qr_lines(data: str, border: int = 2) -> list[str]:
    """Dark modules as ink on a light background, upper and lower halves per character."""
    code = qrcode.QRCode(border=border, error_correction=qrcode.constants.ERROR_CORRECT_L)
    code.add_data(data)
    code.make(fit=True)
    matrix = code.get_matrix()
    if len(matrix) % 2:
        matrix.append([False] * len(matrix[0]))
    # Light modules are drawn (full block), dark ones left blank: on a dark terminal this is
    # a light code with dark modules, which phone cameras read.
    glyph = {(False, False): "█", (False, True): "▀", (True, False): "▄", (True, True): " "}
    return [
        "".join(glyph[(top, bottom)] for top, bottom in zip(matrix[i], matrix[i + 1], strict=True))
        for i in range(0, len(matrix), 2)
    ]
