"""Who is knocking, and how often they guessed wrong: the one throttle of the server's doors.

Two doors of a served app refuse guesses: the access gate (:mod:`scorer.ui.gate`: a table's
access code) and the sync API's tokens (:mod:`scorer.api.auth`). Both count wrong guesses per
client address with one :class:`Throttle`: after :data:`FREE_TRIES` wrong ones an address must
wait, twice as long after each further one, and meanwhile what it sends is answered 429 with
``Retry-After`` without being looked at.

The address is the connection's peer (:func:`client_address`), by its IPv4 address or the /64
network of an IPv6 one (:func:`throttled_as`). Behind a reverse proxy every client comes from
the proxy's address, so the proxies named by ``--trusted-proxy`` (and only they) are believed
when their ``X-Forwarded-For`` header names the client: the rightmost address in it that is
not itself a trusted proxy, as uvicorn's ``proxy_headers`` reads it. Reading it again after
uvicorn has done so finds the same client.

>>> scope = {"client": ("10.0.0.1", 5000), "headers": [(b"x-forwarded-for", b"203.0.113.9, 10.0.0.2")]}
>>> client_address(scope), client_address(scope, proxies=trusted_networks(["10.0.0.0/24"]))
('10.0.0.1', '203.0.113.9')
"""

from __future__ import annotations

import ipaddress
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, TypeAlias

from scorer.errors import ScorerError
from scorer.messages import Message

#: Wrong guesses an address may send before it must wait.
FREE_TRIES: Final = 5
#: The first wait, in seconds; each further wrong guess doubles it, up to LONGEST_WAIT.
FIRST_WAIT: Final = 2.0
LONGEST_WAIT: Final = 600.0
#: An address whose last wrong guess is this many seconds old starts again with its free tries.
FORGET_AFTER: Final = 3600.0
#: Addresses remembered at once: a table has a few phones; a flood of addresses (spoofed, or
#: many on one machine) pushes out the stalest, so memory stays bounded.
MAX_ADDRESSES: Final = 4096

Network: TypeAlias = ipaddress.IPv4Network | ipaddress.IPv6Network


class ProxyError(ScorerError, ValueError):
    """A trusted proxy that is not an address or a network."""


@dataclass(slots=True)
class _Tries:
    wrong: int
    last: float
    until: float


class Throttle:
    """Wrong guesses counted per client address, with waits that grow.

    An address has :data:`FREE_TRIES` wrong guesses free; each one after that makes it wait
    :data:`FIRST_WAIT` seconds, doubled each time, at most :data:`LONGEST_WAIT`. A right guess
    (once the wait is over) forgets the address; so does :data:`FORGET_AFTER` seconds of quiet.
    The clock is injected, so that tests need not wait. Safe to share between threads (the API's
    requests are answered on several).

    >>> now = [0.0]
    >>> throttle = Throttle(clock=lambda: now[0])
    >>> [throttle.failed("10.0.0.7") for _ in range(7)]
    [0.0, 0.0, 0.0, 0.0, 0.0, 2.0, 4.0]
    >>> throttle.wait("10.0.0.7"), throttle.wait("10.0.0.8")
    (4.0, 0.0)
    >>> now[0] = 4.0
    >>> throttle.wait("10.0.0.7")
    0.0
    """

    def __init__(
        self,
        *,
        clock: Callable[[], float] = time.monotonic,
        free_tries: int = FREE_TRIES,
        first_wait: float = FIRST_WAIT,
        longest_wait: float = LONGEST_WAIT,
        forget_after: float = FORGET_AFTER,
        capacity: int = MAX_ADDRESSES,
    ) -> None:
        self._clock = clock
        self._free = free_tries
        self._first = first_wait
        self._longest = longest_wait
        self._forget = forget_after
        self._capacity = capacity
        self._tries: OrderedDict[str, _Tries] = OrderedDict()
        self._lock = threading.Lock()

    def wait(self, address: str) -> float:
        """Seconds ``address`` must still wait before a guess of its is looked at (0.0: none)."""
        with self._lock:
            tries = self._current(address)
            return max(0.0, tries.until - self._clock()) if tries else 0.0

    def failed(self, address: str) -> float:
        """Count a wrong guess from ``address``; the wait it now has (0.0 while tries are free)."""
        with self._lock:
            now = self._clock()
            tries = self._current(address) or _Tries(wrong=0, last=now, until=now)
            tries.wrong += 1
            tries.last = now
            beyond = tries.wrong - self._free
            if beyond > 0:
                tries.until = now + min(self._longest, self._first * 2 ** min(beyond - 1, 32))
            self._tries[address] = tries
            self._tries.move_to_end(address)
            while len(self._tries) > self._capacity:
                self._tries.popitem(last=False)
            return max(0.0, tries.until - now)

    def passed(self, address: str) -> None:
        """A right guess from ``address``: its count starts again."""
        with self._lock:
            self._tries.pop(address, None)

    def _current(self, address: str) -> _Tries | None:
        tries = self._tries.get(address)
        if tries is not None and self._clock() - max(tries.last, tries.until) > self._forget:
            del self._tries[address]
            return None
        return tries


def throttled_as(host: str) -> str:
    """The address wrong guesses are counted by: an IPv4 address, the /64 network of an IPv6
    one (one machine may take any number of addresses in its /64).

    >>> throttled_as("192.168.1.7"), throttled_as("::ffff:192.168.1.7")
    ('192.168.1.7', '192.168.1.7')
    >>> throttled_as("fe80::1:2:3:4%eth0"), throttled_as("2001:db8:0:7::99")
    ('fe80::/64', '2001:db8:0:7::/64')
    """
    ip = _ip(host)
    if ip is None:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network(f"{ip}/64", strict=False))
    return str(ip)


def trusted_networks(items: Iterable[str]) -> tuple[Network, ...]:
    """The trusted proxies (``--trusted-proxy``): each an address or a network, several in one
    item split at commas; :class:`ProxyError` quoting one that is neither.

    >>> [str(n) for n in trusted_networks(["127.0.0.1", "10.0.0.0/24, ::1"])]
    ['127.0.0.1/32', '10.0.0.0/24', '::1/128']
    """
    found: list[Network] = []
    for item in items:
        for part in item.split(","):
            text = part.strip()
            try:
                found.append(ipaddress.ip_network(text, strict=False))
            except ValueError:
                raise ProxyError(Message("app.bad_proxy", value=repr(text))) from None
    return tuple(found)


def _ip(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(host.strip().strip("[]").split("%")[0])
    except ValueError:
        return None


def _trusted(host: str, proxies: Sequence[Network]) -> bool:
    ip = _ip(host)
    if ip is None:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return any(ip.version == network.version and ip in network for network in proxies)


def client_host(scope: Mapping[str, Any], *, proxies: Sequence[Network] = ()) -> str:
    """The client's host: the connection's peer, or, when the peer is one of ``proxies``, the
    rightmost address of ``X-Forwarded-For`` that is not itself a trusted proxy (the leftmost
    when all are). ``"?"`` when the server does not say who connected."""
    client = scope.get("client")
    host = str(client[0]) if client else "?"
    if not proxies or not _trusted(host, proxies):
        return host
    raw: list[tuple[bytes, bytes]] = scope.get("headers", [])
    named = [v.decode("latin-1") for k, v in raw if k.lower() == b"x-forwarded-for"]
    hops = [hop.strip() for header in named for hop in header.split(",") if hop.strip()]
    if not hops:
        return host
    for hop in reversed(hops):
        if not _trusted(hop, proxies):
            return hop
    return hops[0]


def client_address(scope: Mapping[str, Any], *, proxies: Sequence[Network] = ()) -> str:
    """The address a request's wrong guesses are counted by (:func:`client_host`, then
    :func:`throttled_as`)."""
    return throttled_as(client_host(scope, proxies=proxies))


__all__ = [
    "FIRST_WAIT",
    "FORGET_AFTER",
    "FREE_TRIES",
    "LONGEST_WAIT",
    "MAX_ADDRESSES",
    "ProxyError",
    "Throttle",
    "client_address",
    "client_host",
    "throttled_as",
    "trusted_networks",
]
