"""Serving the app to the browsers at the table: plainly on loopback, behind a code beyond it.

On loopback (``127.0.0.1``, ``::1``, ``localhost``) only this machine can connect, so the app is
served as it is. On any other host (``0.0.0.0`` for every phone on the network) the app sits
behind :class:`scorer.ui.gate.AccessGate`: the terminal shows the link that carries the code,
and a QR code of it for phones to scan. The app is Flet's FastAPI app (the page, the offline
web client and the session WebSocket), with the app's own web manifest and icons in front
(:mod:`scorer.ui.webapp`), run by uvicorn; the port is checked before anything
starts, so a taken port is one line naming it, not a traceback.
"""

from __future__ import annotations

import errno
import io
import ipaddress
import logging
import socket
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Final, TextIO
from urllib.parse import urlsplit, urlunsplit

import segno
from flet.app import AppCallable

try:
    import uvicorn

    # flet-web ships no type information; build_app pins what it returns.
    from flet_web.fastapi import app as flet_fastapi_app  # type: ignore[import-untyped]
except ImportError:  # the app in the browser (scorer.web) has no server, only the QR code
    uvicorn = None  # type: ignore[assignment]
    flet_fastapi_app = None

from scorer.errors import ScorerError
from scorer.messages import Message
from scorer.throttle import ProxyError, trusted_networks
from scorer.ui.gate import AccessGate, ASGIApp, Receive, Scope, Send, new_access_code, validate_access_code
from scorer.ui.manifest import APP_NAME, DESCRIPTION, SHORT_NAME
from scorer.ui.webapp import WebAppFiles

if TYPE_CHECKING:
    from scorer.league.store import Store

#: Any address will do: connecting a UDP socket picks the outgoing interface and sends nothing.
_ROUTE_PROBE: Final = ("10.255.255.255", 9)
#: Module size in pixels of the PNG for the Settings screen.
QR_PNG_SCALE: Final = 8
#: The quiet zone around the code, in modules: the 4 the QR standard asks for, so that a phone
#: finds the code even next to a dark screen edge or a dark terminal background.
QR_BORDER: Final = 4


class ServingError(ScorerError, ValueError):
    """The app cannot be served as asked: a taken port, an address not on this machine."""


#: Seconds a stop (Ctrl+C, SIGTERM, a service stopped) waits for the phones' connections to
#: end before closing them: a phone's WebSocket never ends by itself, and uvicorn would wait
#: for it without end. Every save is a commit of its own, so nothing acknowledged is cut.
STOP_SECONDS: Final = 3


def is_loopback(host: str) -> bool:
    """Can only this machine reach ``host``? A name counts if every address it has is loopback.

    >>> is_loopback("127.0.0.1"), is_loopback("::1"), is_loopback("0.0.0.0"), is_loopback("192.168.1.5")
    (True, True, False, False)
    """
    name = host.strip("[]")
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        pass
    if name.lower() == "localhost":
        return True
    try:
        infos = socket.getaddrinfo(name, None)
    except (socket.gaierror, UnicodeError):
        return False
    addresses = {info[4][0] for info in infos}
    return bool(addresses) and all(ipaddress.ip_address(str(a).split("%")[0]).is_loopback for a in addresses)


def is_gated(host: str, *, proxied: bool) -> bool:
    """Whether the app asks for the access code: beyond loopback, and on loopback behind a
    reverse proxy (whoever reaches the proxy reaches the app).

    >>> is_gated("127.0.0.1", proxied=False), is_gated("127.0.0.1", proxied=True)
    (False, True)
    >>> is_gated("0.0.0.0", proxied=False)
    True
    """
    return proxied or not is_loopback(host)


def lan_address() -> str:
    """This machine's address on its network, as the phones at the table reach it.

    A UDP socket "connected" to an outside address learns which local address the system would
    send from, without sending anything. With no route at all, the host's name is the answer.
    """
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(_ROUTE_PROBE)
            address = str(probe.getsockname()[0])
    except OSError:
        address = ""
    if address and _reachable(address):
        return address
    name = socket.gethostname()
    try:
        resolved = socket.gethostbyname(name)
    except OSError:
        return name
    return resolved if _reachable(resolved) else name


def _reachable(address: str) -> bool:
    ip = ipaddress.ip_address(address)
    return not (ip.is_loopback or ip.is_unspecified)


def public_url(text: str) -> str:
    """The address the phones open the app by, behind a reverse proxy (``--public-url``):
    ``http`` or ``https``, a host, a path ending in ``/``, no query.

    >>> public_url("https://club.example.org")
    'https://club.example.org/'
    >>> public_url("club.example.org")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    scorer.ui.serving.ServingError: --public-url 'club.example.org': an address such as ...
    """
    parts = urlsplit(text.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname or parts.query or parts.fragment:
        raise ServingError(Message("app.bad_public_url", value=repr(text)))
    path = parts.path if parts.path.endswith("/") else parts.path + "/"
    return urlunsplit((parts.scheme, parts.netloc, path, "", ""))


def access_link(*, host: str, port: int, code: str | None, public: str | None = None) -> str:
    """The link that opens the app, with the code when there is one.

    A server listening on every interface (``0.0.0.0``, ``::``) is linked by this machine's
    network address; one listening on a given address, by that address; one behind a reverse
    proxy, by the address the phones reach the proxy at (``public``, :func:`public_url`).

    >>> access_link(host="192.168.1.20", port=8550, code="K7MPQ2XA")
    'http://192.168.1.20:8550/?code=K7MPQ2XA'
    >>> access_link(host="127.0.0.1", port=8550, code=None)
    'http://127.0.0.1:8550/'
    >>> access_link(host="127.0.0.1", port=8551, code="K7MPQ2XA", public="https://club.example.org/")
    'https://club.example.org/?code=K7MPQ2XA'
    """
    query = f"?code={code}" if code else ""
    if public is not None:
        return public + query
    name = host.strip("[]")
    if name in ("0.0.0.0", "::", ""):
        name = lan_address()
    if ":" in name:
        name = f"[{name}]"
    return f"http://{name}:{port}/{query}"


def table_link(access_link: str, route: str) -> str:
    """The app's access link opening ``route`` instead of Home, keeping its ``?code=`` query, so a
    phone that scans it passes the gate and lands on that screen (a night's table: its game).

    >>> table_link("http://192.168.1.20:8550/?code=K7MPQ2XA", "/game/4f2a")
    'http://192.168.1.20:8550/game/4f2a?code=K7MPQ2XA'
    >>> table_link("http://127.0.0.1:8550/", "game/4f2a")
    'http://127.0.0.1:8550/game/4f2a'

    A session's own address (Flet's ``page.url``, the WebSocket's) gives the page's:

    >>> table_link("ws://127.0.0.1:8550", "/game/4f2a")
    'http://127.0.0.1:8550/game/4f2a'
    """
    parts = urlsplit(access_link)
    scheme = {"ws": "http", "wss": "https"}.get(parts.scheme, parts.scheme)
    return urlunsplit((scheme, parts.netloc, "/" + route.lstrip("/"), parts.query, ""))


def qr_png_bytes(link: str) -> bytes:
    """A PNG of the link's QR code, for the app's Settings screen (``ft.Image(src=...)``)."""
    out = io.BytesIO()
    segno.make(link, error="m").save(out, kind="png", scale=QR_PNG_SCALE, border=QR_BORDER)
    return out.getvalue()


def qr_terminal_text(link: str) -> str:
    """The link's QR code drawn with block characters, two rows of modules per line.

    Light modules are the blocks, dark ones the background: made for a terminal with light
    text on a dark background (phone scanners also read the code inverted).
    """
    out = io.StringIO()
    segno.make(link, error="m").terminal(out=out, compact=True, border=QR_BORDER)
    return out.getvalue()


def check_port(host: str, port: int) -> None:
    """Raise :class:`ServingError` unless ``host:port`` can be listened on right now."""
    if not 0 < port < 65536:
        raise ServingError(Message("app.port_range", port=port))
    try:
        infos = socket.getaddrinfo(host.strip("[]"), port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError):
        raise ServingError(Message("app.no_address", host=host)) from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        # As uvicorn binds: a port left in TIME_WAIT by the last run is free, one in use is not.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise ServingError(Message("app.port_taken", port=port, host=host)) from None
            if exc.errno == errno.EADDRNOTAVAIL:
                raise ServingError(Message("app.no_address", host=host)) from None
            raise ServingError(
                Message("app.cannot_listen", host=host, port=port, why=str(exc.strerror))
            ) from None


def trusted_proxies(items: Sequence[str]) -> tuple[str, ...]:
    """The proxies whose ``X-Forwarded-For`` names the client (``--trusted-proxy``): each an
    address or a network, several in one item split at commas. None by default: a header any
    program can send, from this machine too, must not choose the address the gate throttles.

    >>> trusted_proxies(["127.0.0.1", "10.0.0.0/24, ::1"])
    ('127.0.0.1', '10.0.0.0/24', '::1')
    """
    try:
        networks = trusted_networks(items)
    except ProxyError as exc:
        raise ServingError(exc.message) from None
    return tuple(str(n.network_address) if n.num_addresses == 1 else str(n) for n in networks)


def cors_origin(text: str) -> str:
    """A web page's origin allowed to call the club server's API from a browser
    (``--cors-origin``, the static phone build's): ``http`` or ``https`` and a host, nothing after.

    >>> cors_origin("https://phone.club.example/")
    'https://phone.club.example'
    >>> cors_origin("phone.club.example")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    scorer.ui.serving.ServingError: --cors-origin 'phone.club.example': an origin such as ...
    """
    parts = urlsplit(text.strip())
    if (
        parts.scheme not in ("http", "https")
        or not parts.hostname
        or parts.path not in ("", "/")
        or parts.query
        or parts.fragment
    ):
        raise ServingError(Message("app.bad_cors_origin", value=repr(text)))
    return f"{parts.scheme}://{parts.netloc}"


class ApiInFront:
    """Requests under ``/api/`` go to the club server's API (its tokens guard it, not the
    access code); everything else, the app's lifespan too, to the app."""

    __slots__ = ("_api", "_app")

    def __init__(self, api: ASGIApp, app: ASGIApp) -> None:
        self._api = api
        self._app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and str(scope.get("path", "")).startswith("/api/"):
            await self._api(scope, receive, send)
        else:
            await self._app(scope, receive, send)


def said_briefly() -> None:
    """Flet's messages said by their action alone where Flet formats them for a log that is
    off (while the ``flet_transport`` log is on, in full as before).

    Flet 1.0.5's web server formats every message it sends for that debug log
    (``transport_log.debug(f"send_message: {message}")`` in ``flet_web/fastapi/flet_app.py``)
    whether the log is on or not: the text of every control of the patch, built and thrown
    away, which took more of a send than encoding it (py-spy, bench/README.md "32 phones on a
    club server"). Only ``str`` changes: ``repr`` is Flet's own.
    """
    from flet.messaging.protocol import Message as FletMessage

    transport = logging.getLogger("flet_transport")

    def text(message: FletMessage) -> str:
        if transport.isEnabledFor(logging.DEBUG):
            return repr(message)
        return f"Message(action={message.action!r})"

    setattr(FletMessage, "__str__", text)  # noqa: B010 (a method set on Flet's class)


def build_app(
    main: AppCallable,
    *,
    code: str | None,
    assets_dir: str | None = None,
    icon_cache: Path | None = None,
    api: ASGIApp | None = None,
    standings: Store | None = None,
    night_codes: Store | None = None,
) -> WebAppFiles:
    """Flet's web app for ``main`` (offline client), behind the gate when ``code`` is given;
    ``api`` (:func:`scorer.api.app.api_app`) answers under ``/api/``, in front of the gate.

    The page is titled with the app's name, and the app's manifest and icons, in front of the
    gate, replace Flet's (:mod:`scorer.ui.webapp`), so a phone can put it on its home screen.
    ``standings``: the store whose read-only standings pages are served to anyone, in front
    of the gate (``--public-standings``, :mod:`scorer.api.standings_page`); ``None`` (the
    default): those paths are 404. ``night_codes``: the store whose club nights' codes the
    gate lets in as well, each with its role (:mod:`scorer.league.night_codes`).
    """
    said_briefly()
    app: ASGIApp = flet_fastapi_app(
        main,
        no_cdn=True,
        assets_dir=assets_dir,
        app_name=APP_NAME,
        app_short_name=SHORT_NAME,
        app_description=DESCRIPTION,
    )
    # Imported here: the app in the browser (scorer.web) imports this module, and has no FastAPI.
    from scorer.api.standings_page import StandingsDoor, standings_app

    grants = None
    if night_codes is not None:
        from scorer.league.night_codes import store_grant

        store = night_codes
        grants = lambda given: store_grant(store, given)  # noqa: E731
    gated = AccessGate(app, code=code, grants=grants) if code else app
    pages = standings_app(standings) if standings is not None else None
    door = StandingsDoor(gated, pages=pages)
    return WebAppFiles(ApiInFront(api, door) if api is not None else door, cache=icon_cache)


def serve(
    main: AppCallable,
    *,
    host: str,
    port: int,
    code: str | None = None,
    assets_dir: str | None = None,
    out: TextIO | None = None,
    proxies: Sequence[str] = (),
    public: str | None = None,
    api: ASGIApp | None = None,
    standings: Store | None = None,
    night_codes: Store | None = None,
) -> None:
    """Serve ``main`` on ``host:port`` until stopped (Ctrl+C), ``api`` under ``/api/``.

    On loopback with no proxy in front no code is asked and ``code`` is not used. Beyond
    loopback, or behind a trusted proxy (which lets the world in), ``code`` (checked
    with :func:`scorer.ui.gate.validate_access_code`) or a new random one guards the app, and the
    link carrying it is printed on ``out`` (standard output) with its QR code. ``proxies``
    (:func:`trusted_proxies`): the only peers whose forwarded headers are believed; none by
    default (uvicorn's own default trusts 127.0.0.1, so any program on this machine could
    name itself a new address with each wrong code and never be throttled). ``public``
    (:func:`public_url`): the address the printed link and its QR code carry. ``standings``:
    the store whose standings pages are public (:func:`build_app`); ``None``: none are.
    ``night_codes``: the store whose club nights' codes let in too, each with its role.
    """
    trusted = trusted_proxies(proxies)
    stream = out or sys.stdout
    gated = is_gated(host, proxied=bool(trusted))
    if not gated:
        code = None
    elif code:
        code = validate_access_code(code)
    else:
        code = new_access_code()
    check_port(host, port)
    app = build_app(
        main, code=code, assets_dir=assets_dir, api=api, standings=standings, night_codes=night_codes
    )
    app.prepare()
    link = access_link(host=host, port=port, code=code, public=public)
    print(f"Rummy Scorer: {link}", file=stream)
    if gated:
        print(
            f"Phones on this network: open the link above or scan this QR code (access code {code}).",
            file=stream,
        )
        print(qr_terminal_text(link), file=stream)
    stream.flush()
    # Warnings only: the link and its QR code stay on screen instead of scrolling away.
    uvicorn.run(
        app,
        host=host.strip("[]"),
        port=port,
        log_level="warning",
        proxy_headers=bool(trusted),
        forwarded_allow_ips=list(trusted) or None,
        timeout_graceful_shutdown=STOP_SECONDS,
    )
