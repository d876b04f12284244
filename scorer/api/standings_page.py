"""A league's standings as a plain web page, for players at home: read-only, no code, no token.

A club that turns it on (``rummy app --public-standings``) serves ``/standings/`` (its
leagues) and ``/standings/{league}`` (a league's standings; ``?season=NAME`` for one season)
to anyone who can reach the server, in front of the access gate. The page is HTML written on
the server: no Flet, no script (its ``Content-Security-Policy`` allows none), every name from
the store escaped. The figures are the store's own (:meth:`~scorer.league.store.Store.standings`
and :meth:`~scorer.league.store.Store.standings_by_ruleset`, as ``rummy league standings``
shows them): the page computes no score. English or Finnish, by ``?lang=`` or the browser's
``Accept-Language``. There is no route that writes: anything but ``GET`` and ``HEAD`` is 405.

Off (the default), :class:`StandingsDoor` answers every ``/standings`` path 404, so the page
is never served by accident from the app behind it.

>>> language_of(None, "fi-FI,fi;q=0.9,en;q=0.8"), language_of("en", "fi"), language_of(None, "de")
('fi', 'en', 'en')
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Final
from urllib.parse import quote as url_quote

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import HTMLResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from scorer.league.errors import StoreError, StoreInputError
from scorer.league.standings import StandingRow
from scorer.league.store import Store
from scorer.messages import DEFAULT_LANGUAGE, LANGUAGES, Language, Message, Param, render

#: Where the pages are served.
PREFIX: Final = "/standings"
#: No script, no frame, no request elsewhere: the page's own inline style only.
SECURITY_HEADERS: Final = {
    "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-cache",
}
_STYLE: Final = (
    "body{font-family:system-ui,sans-serif;margin:1rem auto;max-width:48rem;padding:0 1rem;color:#222}"
    "table{border-collapse:collapse;width:100%;margin:.5rem 0 1.5rem}"
    "th,td{padding:.3rem .5rem;border-bottom:1px solid #ddd;text-align:right}"
    "th:nth-child(2),td:nth-child(2){text-align:left}"
    "caption{text-align:left;font-weight:600;padding:.3rem 0}footer,.note{color:#666;font-size:.9rem}"
)


def language_of(asked: str | None, accept: str | None) -> Language:
    """The page's language: ``?lang=`` when it is one of ours, else the first of ours the
    browser's ``Accept-Language`` names (by its weights), else English."""
    if asked in LANGUAGES:
        return asked
    ranked: list[tuple[float, int, str]] = []
    for at, part in enumerate((accept or "").split(",")):
        tag, _, params = part.strip().partition(";")
        weight = 1.0
        if params.strip().startswith("q="):
            try:
                weight = float(params.strip()[2:])
            except ValueError:
                weight = 0.0
        ranked.append((-weight, at, tag.strip().lower().split("-")[0]))
    for weight, _, tag in sorted(ranked):
        if weight < 0 and tag in LANGUAGES:
            return tag
    return DEFAULT_LANGUAGE


def _say(language: Language, code: str, /, **params: Param) -> str:
    """A catalog text, escaped for HTML."""
    return html.escape(render(Message(code, **params), language))


def _page(language: Language, title: str, body: str, *, status: int = 200) -> HTMLResponse:
    """A whole page: ``title`` and ``body`` are HTML already escaped."""
    text = (
        f'<!DOCTYPE html>\n<html lang="{language}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta name="robots" content="noindex"><title>{title}</title><style>{_STYLE}</style></head>'
        f"<body><h1>{title}</h1>{body}"
        f"<footer><p>{_say(language, 'page.read_only')}</p></footer></body></html>\n"
    )
    return HTMLResponse(text, status_code=status, headers=SECURITY_HEADERS)


def _figure(value: int | None) -> str:
    return "–" if value is None else str(value)


def _table(language: Language, rows: Sequence[StandingRow], names: Mapping[str, str], *, caption: str) -> str:
    heads = ("place", "player", "games", "wins", "deals", "won", "points", "rating")
    head = "".join(f'<th scope="col">{_say(language, f"page.head_{h}")}</th>' for h in heads)
    lines = []
    for place, row in enumerate(rows, start=1):
        rating = "–" if row.rating is None else f"{row.rating:.1f}" + ("?" if row.provisional else "")
        cells = [
            str(place),
            html.escape(names.get(row.player, row.player)),
            str(row.games),
            str(row.wins),
            str(row.deals),
            str(row.deals_won),
            _figure(row.points),
            rating,
        ]
        lines.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    body = "".join(lines)
    return f"<table><caption>{caption}</caption><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _link(league_id: str, language: Language, *, season: str | None = None) -> str:
    query = f"?lang={language}" + (f"&amp;season={url_quote(season, safe='')}" if season else "")
    return f"{PREFIX}/{url_quote(league_id, safe='')}{query}"


def _a(href: str, text: str) -> str:
    """A link (``href`` and ``text`` escaped already)."""
    return f'<a href="{href}">{text}</a>'


def standings_router(store: Store) -> APIRouter:
    """``GET /standings/`` and ``GET /standings/{league}``: the pages of the module."""
    router = APIRouter()

    @router.api_route(PREFIX, methods=["GET", "HEAD"], response_class=HTMLResponse, include_in_schema=False)
    @router.api_route(
        PREFIX + "/", methods=["GET", "HEAD"], response_class=HTMLResponse, include_in_schema=False
    )
    def leagues(request: Request, lang: str | None = None) -> HTMLResponse:
        language = language_of(lang, request.headers.get("accept-language"))
        title = _say(language, "page.leagues_title")
        try:
            found = store.leagues()
        except StoreError as exc:
            return _page(language, title, f"<p>{html.escape(render(exc.message, language))}</p>", status=503)
        if not found:
            return _page(language, title, f"<p>{_say(language, 'league.no_leagues')}</p>")
        items = "".join(f"<li>{_a(_link(lg.id, language), html.escape(lg.name))}</li>" for lg in found)
        return _page(language, title, f"<ul>{items}</ul>")

    @router.api_route(
        PREFIX + "/{league:path}",
        methods=["GET", "HEAD"],
        response_class=HTMLResponse,
        include_in_schema=False,
    )
    def league_standings(
        request: Request, league: str, lang: str | None = None, season: str | None = None
    ) -> HTMLResponse:
        language = language_of(lang, request.headers.get("accept-language"))
        try:
            found = store.league(league)
            rows = store.standings(found.id, season=season)
            by_ruleset = store.standings_by_ruleset(found.id, season=season) if rows else {}
            names = {p.id: p.name for p in store.players(league=found.id)}
        except StoreInputError as exc:  # no such league or season: said, and nothing else
            said = html.escape(render(exc.message, language))
            return _page(language, _say(language, "page.not_found"), f"<p>{said}</p>", status=404)
        except StoreError as exc:
            said = html.escape(render(exc.message, language))
            return _page(language, _say(language, "page.not_found"), f"<p>{said}</p>", status=503)
        title = _say(language, "page.standings_title", league=found.name)
        parts = []
        seasons = [_a(_link(found.id, language), _say(language, "page.all_seasons"))]
        seasons += [_a(_link(found.id, language, season=s.name), html.escape(s.name)) for s in found.seasons]
        parts.append(f'<p class="note">{" · ".join(seasons)}</p>')
        if season is not None:
            parts.append(f"<h2>{_say(language, 'page.season', season=season)}</h2>")
        if not rows:
            parts.append(f"<p>{_say(language, 'league.no_finished_games')}</p>")
            return _page(language, title, "".join(parts))
        if rows[0].across_variants:
            parts.append(_table(language, rows, names, caption=_say(language, "league.across_variants")))
            for ruleset, table in by_ruleset.items():
                code = "league.ruleset_lowest" if table[0].lowest_wins else "league.ruleset_highest"
                parts.append(_table(language, table, names, caption=_say(language, code, ruleset=ruleset)))
        else:
            only = next(iter(by_ruleset), "")
            code = "league.ruleset_lowest" if rows[0].lowest_wins else "league.ruleset_highest"
            parts.append(_table(language, rows, names, caption=_say(language, code, ruleset=only)))
        if any(r.provisional for table in [rows, *by_ruleset.values()] for r in table):
            parts.append(f'<p class="note">{_say(language, "league.provisional_mark")}</p>')
        return _page(language, title, "".join(parts))

    return router


def standings_app(store: Store) -> FastAPI:
    """The pages as an app of their own (no docs, no schema: the page is all there is)."""
    app = FastAPI(docs_url=None, redoc_url=None, openapi_url=None)
    app.include_router(standings_router(store))
    return app


class StandingsDoor:
    """In front of the app (and its access gate): ``/standings`` and below go to ``pages``
    (:func:`standings_app`), or are answered 404 when it is ``None`` (the club has not turned
    the page on); every other request, and the lifespan, go to ``app``."""

    __slots__ = ("_app", "_pages")

    def __init__(self, app: ASGIApp, *, pages: ASGIApp | None) -> None:
        self._app = app
        self._pages = pages

    @property
    def inner(self) -> ASGIApp:
        """The app behind."""
        return self._app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = str(scope.get("path", ""))
        if scope["type"] != "http" or not (path == PREFIX or path.startswith(PREFIX + "/")):
            await self._app(scope, receive, send)
        elif self._pages is not None:
            await self._pages(scope, receive, send)
        else:
            body = b"Not Found\n"
            headers = [
                (b"content-type", b"text/plain; charset=utf-8"),
                (b"content-length", str(len(body)).encode()),
            ]
            await send({"type": "http.response.start", "status": 404, "headers": headers})
            await send({"type": "http.response.body", "body": body})


__all__ = ["StandingsDoor", "language_of", "standings_app", "standings_router"]
