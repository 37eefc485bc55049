"""The dilemma warm-up's HTML: rendered by Jinja2 (autoescaped) from views only."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import jinja2
from aiohttp import web

from companion.web.prison.pages import make_environment

PRIVATE_HEADERS = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"}
CHOICE_WORDS = {"silent": "stayed SILENT", "betray": "BETRAYED"}
PHASE_TITLES = {
    "lobby": "Joining",
    "choosing": "Choosing",
    "revealed": "Revealed",
    "over": "Final results",
}


def months(n: int | None) -> str:
    if n is None:
        return ""
    return f"{n} month" + ("" if n == 1 else "s")


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    return make_environment(
        months=months,
        choice_words=CHOICE_WORDS,
        phase_titles=PHASE_TITLES,
        percent=lambda rate: f"{round(rate * 100)}%",
    )


def _render(template: str, **values: Any) -> str:
    return environment().get_template(template).render(**values)


def render_player_part(view: dict[str, Any]) -> str:
    return _render("dilemma_part_player.html", v=view, me=view["me"])


def render_player_page(view: dict[str, Any], token: str) -> str:
    name = view["me"]["name"] if view["me"] else "Dilemma"
    return _render("dilemma_player.html", name=name, token=token, part=render_player_part(view))


def render_board_part(view: dict[str, Any], join: str) -> str:
    return _render("dilemma_part_board.html", v=view, join=join)


def render_board_page(view: dict[str, Any], join: str) -> str:
    return _render("dilemma_board.html", part=render_board_part(view, join))


def render_join(view: dict[str, Any], message: str | None = None, name: str = "") -> str:
    return _render("dilemma_join.html", v=view, message=message, name=name)


def render_problem(message: str) -> str:
    return _render("dilemma_problem.html", message=message)


def html(text: str, status: int = 200, private: bool = True) -> web.Response:
    headers = dict(PRIVATE_HEADERS) if private else {"Cache-Control": "no-cache"}
    return web.Response(text=text, status=status, content_type="text/html", headers=headers)


def qr_svg(data: str, border: int = 2) -> str:
    """A QR code as a small SVG: one path of dark modules on white."""
    import qrcode

    code = qrcode.QRCode(border=0, error_correction=qrcode.constants.ERROR_CORRECT_M)
    code.add_data(data)
    code.make(fit=True)
    matrix = code.get_matrix()
    size = len(matrix) + 2 * border
    cells = "".join(
        f"M{x + border} {y + border}h1v1h-1z"
        for y, row in enumerate(matrix)
        for x, dark in enumerate(row)
        if dark
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" '
        f'shape-rendering="crispEdges"><rect width="{size}" height="{size}" fill="#fff"/>'
        f'<path fill="#000" d="{cells}"/></svg>'
    )
