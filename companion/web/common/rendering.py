"""What every game's pages share: the Jinja2 environment (the game's templates, then the
common ones, with ``jinja2.ext.i18n``), rendering a template in a language, the HTML answer
with its cache headers, and the QR code as SVG."""

from __future__ import annotations

import re
from typing import Any

import jinja2
import qrcode
import qrcode.image.svg
from aiohttp import web
from markupsafe import Markup

from companion.language import Language
from companion.rules.core.words import plural
from companion.web.common.context import VERSION_HEADER
from companion.web.common.language import switch

# A seat's or a player's page: never cached, never sent as a referrer.
# Every answer's headers: a strict policy (nothing but this server's own files), no sniffing,
# no referrer (a page's secret address never leaves it).
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
PRIVATE_HEADERS = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"}


def make_environment(package: str, **helpers: Any) -> jinja2.Environment:
    """The templates of ``package`` (its ``templates`` folder first, then the common one),
    autoescaped, with ``plural``, ``switch`` (the language switch's entries, for the common
    ``_languages.html``) and the given helpers. Its messages are English until
    :func:`render` is given a language (``_``, ``gettext``, ``ngettext``, ``{% trans %}``:
    the newstyle callables, which escape what they fill in)."""
    env = jinja2.Environment(
        extensions=["jinja2.ext.i18n"],
        loader=jinja2.ChoiceLoader(
            [
                jinja2.PackageLoader(package, "templates"),
                jinja2.PackageLoader("companion.web.common", "templates"),
            ]
        ),
        autoescape=jinja2.select_autoescape(["html"], default=True),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        # the templates are package data, never edited while the server runs: not checked
        # on disk at every render (a stat of each file, thousands a second in a crowd)
        auto_reload=False,
    )
    env.globals.update(plural=plural, switch=switch, **helpers)
    env.install_null_translations(newstyle=True)  # type: ignore[attr-defined]
    return env


def render(env: jinja2.Environment, name: str, lang: Language, **context: Any) -> str:
    """The template ``name`` in ``lang``: its callables are installed for this render (one
    render at a time: the server renders on its one event loop thread)."""
    env.globals.update(_callables(lang))
    return env.get_template(name).render(lang=lang, lang_code=lang.code, **context)


_made: dict[int, tuple[Language, dict[str, Any]]] = {}


def _callables(lang: Language) -> dict[str, Any]:
    """``lang``'s message callables for the templates (``_``, ``gettext``, ``ngettext``,
    ``pgettext``), made once per language. They do what ``jinja2.ext.i18n``'s newstyle ones do
    in an autoescaped template (every template here is): the message is taken as markup and
    what fills it in is escaped (``Markup % values``), a count fills ``num`` (written in the
    language's digits, as :meth:`Language.n_` writes ``count``: "1,000", "1.000"); without its
    wrappers, which cost a third of a phone's part (a lecture hall renders 1,000 of them at
    each round's start and reveal)."""
    made = _made.get(id(lang))
    if made is not None and made[0] is lang:
        return made[1]

    def gettext(__string: str, **variables: Any) -> Markup:
        return Markup(lang.elided(lang.gettext(__string), variables)) % variables

    def ngettext(__singular: str, __plural: str, __num: int, **variables: Any) -> Markup:
        variables.setdefault("num", lang.number(__num))  # the count, in the language's digits
        text = lang.ngettext(__singular, __plural, __num)
        return Markup(lang.elided(text, variables)) % variables

    def pgettext(__context: str, __string: str, **variables: Any) -> Markup:
        variables.setdefault("context", __context)
        return Markup(lang.elided(lang.pgettext(__context, __string), variables)) % variables

    callables = {"_": gettext, "gettext": gettext, "ngettext": ngettext, "pgettext": pgettext}
    _made[id(lang)] = (lang, callables)
    return callables


def html(
    text: str, status: int = 200, private: bool = True, version: int | None = None
) -> web.Response:
    """An HTML answer: a private page is never cached; a public one is checked every time. A
    live part tells the ``version`` of the state it shows (``X-View-Version``)."""
    headers = dict(PRIVATE_HEADERS) if private else {"Cache-Control": "no-cache"}
    if version is not None:
        headers[VERSION_HEADER] = str(version)
    return web.Response(text=text, status=status, content_type="text/html", headers=headers)


def qr_svg(data: str, border: int = 2, *, scalable: bool = False) -> str:
    """``data`` as a QR code in a small SVG: one path of dark modules, on white; ``scalable``:
    without its size in millimetres, so that it fills the box the page gives it."""
    code = qrcode.QRCode(
        border=border,
        error_correction=qrcode.constants.ERROR_CORRECT_M,
        image_factory=qrcode.image.svg.SvgPathFillImage,
        box_size=10,
    )
    code.add_data(data)
    code.make(fit=True)
    svg: str = code.make_image().to_string(encoding="unicode")
    if scalable:
        svg = re.sub(r'^<svg width="[^"]*" height="[^"]*" ', "<svg ", svg)
    return svg
