"""The pages' icon, made here rather than shipped: a 32×32 picture (a dark rounded square
split into the game's two colours, orange and blue) as a PNG inside an ICO file, which every
browser reads at ``/favicon.ico``. Built once, on the first request, with the standard library."""

from __future__ import annotations

import functools
import struct
import zlib

from aiohttp import web

SIZE = 32
_BACK = (20, 22, 26, 255)  # the pages' background
_LEFT = (217, 130, 43, 255)  # WORK's orange
_RIGHT = (63, 143, 210, 255)  # REST's blue
_CLEAR = (0, 0, 0, 0)


def _pixel(x: int, y: int) -> tuple[int, int, int, int]:
    corner = 6  # the square's rounded corners
    cx = min(max(x, corner), SIZE - 1 - corner)
    cy = min(max(y, corner), SIZE - 1 - corner)
    if (x - cx) ** 2 + (y - cy) ** 2 > corner**2:
        return _CLEAR
    if 6 <= y < SIZE - 6 and 6 <= x < SIZE - 6 and x != SIZE // 2 - 1 and x != SIZE // 2:
        return _LEFT if x < SIZE // 2 else _RIGHT
    return _BACK


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png() -> bytes:
    """The icon as a PNG (8-bit RGBA)."""
    rows = b"".join(
        b"\x00" + b"".join(bytes(_pixel(x, y)) for x in range(SIZE)) for y in range(SIZE)
    )
    header = struct.pack(">IIBBBBB", SIZE, SIZE, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + _chunk(b"IHDR", header)
        + _chunk(b"IDAT", zlib.compress(rows, 9))
        + _chunk(b"IEND", b"")
    )


@functools.cache
def ico() -> bytes:
    """The icon as an ICO file holding one PNG image."""
    image = png()
    directory = struct.pack("<HHH", 0, 1, 1)
    entry = struct.pack("<BBBBHHII", SIZE, SIZE, 0, 0, 1, 32, len(image), 6 + 16)
    return directory + entry + image


async def favicon(request: web.Request) -> web.Response:
    return web.Response(
        body=ico(),
        content_type="image/x-icon",
        headers={"Cache-Control": "public, max-age=86400"},
    )
