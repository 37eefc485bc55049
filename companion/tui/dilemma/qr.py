"""The room's QR code for the console, drawn with half blocks: two rows of modules a line."""

from __future__ import annotations


def qr_text(data: str, border: int = 2) -> str:
    """Light modules as full blocks on the dark terminal, so phone cameras read it."""
    import qrcode

    code = qrcode.QRCode(border=border, error_correction=qrcode.constants.ERROR_CORRECT_L)
    code.add_data(data)
    code.make(fit=True)
    rows = [list(row) for row in code.get_matrix()]
    if len(rows) % 2:
        rows.append([False] * len(rows[0]))
    glyph = {(False, False): "█", (False, True): "▀", (True, False): "▄", (True, True): " "}
    return "\n".join(
        "".join(glyph[(top, bottom)] for top, bottom in zip(rows[i], rows[i + 1], strict=True))
        for i in range(0, len(rows), 2)
    )
