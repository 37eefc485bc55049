"""Which language a page is in: a phone's own (its cookie, set by the page's language switch,
else its browser's ``Accept-Language``), or the session's (the board, as the printouts).

A game's server that speaks languages adds :func:`language_middleware`; while a request of it
is handled, :func:`current` is that request's language, which the common error middleware
uses for its sentences. A server without it (the dilemma warm-up, for now) stays English.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from contextvars import ContextVar
from functools import lru_cache

from aiohttp import web
from aiohttp.typedefs import Handler, Middleware

from companion.language import Language, accepted, available, language, negotiate
from companion.web.common.guard import cross_origin, safe_path

COOKIE = "lang"
COOKIE_SECONDS = 365 * 24 * 3600
_current: ContextVar[Language | None] = ContextVar("companion_page_language", default=None)


def current() -> Language:
    """The language of the request being handled (English outside one)."""
    return _current.get() or language()


def phone_language(request: web.BaseRequest) -> Language:
    """A phone's language: its cookie's, else the first its browser accepts, else English."""
    chosen = request.cookies.get(COOKIE, "")
    code = negotiate([chosen]) if chosen else None
    if code is None:
        code = negotiate(accepted(request.headers.get("Accept-Language")))
    return language(code)


def page_language(request: web.Request) -> Language:
    """The language the middleware picked for this request (a phone's, without one)."""
    return _current.get() or phone_language(request)


def language_middleware(pick: Callable[[web.Request], Language]) -> Middleware:
    """Sets each request's language with ``pick``; ``GET ...?lang=CODE`` (the language
    switch) remembers CODE in the phone's cookie and comes back to the same address without
    the query, so that a private link stays as it was (a path of this server only: see
    :func:`safe_path`; a link on another site's page changes no cookie)."""

    @web.middleware
    async def languages(request: web.Request, handler: Handler) -> web.StreamResponse:
        wanted = request.query.get(COOKIE)
        if wanted is not None and request.method == "GET":
            code = negotiate([wanted])
            headers = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer"}
            # only to a path of this server, whatever was asked (never "//elsewhere")
            answer = web.HTTPSeeOther(safe_path(request.rel_url.raw_path), headers=headers)
            if code is not None and not cross_origin(request):  # not another site's link
                answer.set_cookie(
                    COOKIE, code, max_age=COOKIE_SECONDS, path="/", samesite="Lax", httponly=True
                )
            raise answer
        token = _current.set(pick(request))
        try:
            response = await handler(request)
        finally:
            # (a request still open when its loop stops is closed from another context, where
            # there is nothing to reset)
            with contextlib.suppress(ValueError):
                _current.reset(token)
        if not response.prepared:  # a page's words depend on these (an event stream is sent)
            response.headers.setdefault("Vary", "Accept-Language, Cookie")
        return response

    return languages


def switch(lang: Language) -> tuple[dict[str, object], ...]:
    """The language switch's entries: each language by its own name, the current one marked
    (made once per language: every phone page shows it)."""
    return _switch(lang.code, tuple(available()))


@lru_cache(maxsize=32)
def _switch(current: str, codes: tuple[str, ...]) -> tuple[dict[str, object], ...]:
    return tuple(
        {"code": code, "name": _capital(language(code).name), "current": code == current}
        for code in codes
    )


def warm_languages() -> None:
    """Load every language's catalog (and its switch) before the first phone asks: in a
    checkout each catalog is compiled from its .po file at its first use, which the first
    phone of the rush waited for (a second and more)."""
    for code in available():
        switch(language(code))


def _capital(name: str) -> str:
    return name[:1].upper() + name[1:]  # "français" heads its entry in the switch: Français
