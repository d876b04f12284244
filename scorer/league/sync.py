"""Sync: one league of this store and a club server, by facts (``rummy league sync``).

A device sends the facts of the league the server lacks, then receives those it lacks, in
pages, over the club server's sync API (docs/serving.md, "Sync API";
:mod:`scorer.api.facts` serves it). Both sides apply a page in one write by the import's
rules (:func:`~scorer.league.merge.merge_page`): a fact already there (by its id) is left out,
so a page sent twice is applied once; a game or night changed on both sides apart is a
conflict, reported and left as it is on each side, never merged in silence (a game's, until a
choice made on one side joins its two histories again, :mod:`scorer.league.joins`: the next
syncs bring every store to the same game); a league one side
lacks is received whole, its ids kept, so both end with the same facts.

How far a sync has come is saved in the store per server and league
(:meth:`~scorer.league.store.Store.sync_mark`): this store's position sent up to and the
server's position received up to, each advanced only after its page is acknowledged or
applied. A sync cut off midway (the program killed, the connection dropped) starts again from
its marks: what it sends or receives again is skipped by id.

The connection is a :class:`Transport` (:class:`HttpTransport`: the standard library's
``urllib``), so a test can run the server in-process or cut the connection after a page.

>>> page = facts_page([], 7, after=0, limit=10)
>>> page == {"facts": [], "position": 7, "more": False}
True
"""

from __future__ import annotations

import json
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Protocol

from scorer.league.errors import StoreError, UnknownLeagueError
from scorer.messages import Message
from scorer.names import name_key

if TYPE_CHECKING:
    from scorer.league.facts import Fact
    from scorer.league.log import Commit
    from scorer.league.store import Store

#: Facts a page holds by default, and at most (a page is whole commits: one commit larger
#: than the limit is sent as one page).
PAGE_FACTS: Final = 500
MOST_PAGE_FACTS: Final = 2000
#: The sync API's path under the server's address.
API_PATH: Final = "/api/v1"
#: Seconds to wait for the server's answer.
TIMEOUT: Final = 30.0
#: The environment variable that may hold the token (instead of ``--token``).
TOKEN_ENV: Final = "RUMMY_SYNC_TOKEN"


class SyncError(StoreError, ValueError):
    """A sync that could not go on: the server out of reach, the token refused, an answer
    that is not the sync API's. What was applied before it stays applied (and marked)."""


# -- the pages (both sides) --------------------------------------------------------------------


def facts_page(
    commits: Sequence[Commit], position: int, *, after: int, limit: int, first: Fact | None = None
) -> dict[str, Any]:
    """One page of a league's commits after ``after`` (``commits``: those holding its facts,
    read at store ``position``): whole commits up to ``limit`` facts (at least one commit),
    ``position`` the last one's number when ``more`` follow, else the store's.

    ``first``: a fact put at the page's head (the league's ``league.created`` on the first
    page, so a side that lacks the league can take the rest; it comes again in its place,
    skipped by id)."""
    facts: list[dict[str, Any]] = [first.to_json()] if first is not None else []
    for taken, commit in enumerate(commits):
        if taken and len(facts) + len(commit.facts) > limit:
            return {"facts": facts, "position": commits[taken - 1].n, "more": True}
        facts.extend(f.to_json() for f in commit.facts)
    return {"facts": facts, "position": max(position, after), "more": False}


def creation_fact(store: Store, league: str) -> Fact | None:
    """The fact that made ``league`` (its first page's head, :func:`facts_page`)."""
    league_id = store.league(league).id
    commits, _ = store.league_commits(league_id, 0)
    return next(
        (f for c in commits for f in c.facts if f.kind == "league.created" and f.data.league == league_id),
        None,
    )


# -- the connection ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Reply:
    """The server's answer: its HTTP status, its JSON body, its ``Retry-After`` (if any)."""

    status: int
    body: Any
    retry_after: str | None = None


class Transport(Protocol):
    """How requests reach the server: ``send("GET", "/leagues", None)`` answers a
    :class:`Reply`; a connection that fails raises :class:`OSError`."""

    url: str

    def send(self, method: str, path: str, body: Any) -> Reply: ...


class HttpTransport:
    """The sync API over HTTP(S) with the standard library, the token as a bearer token."""

    def __init__(self, url: str, token: str, *, timeout: float = TIMEOUT) -> None:
        parsed = urllib.parse.urlsplit(url.strip())
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise SyncError(Message("sync.bad_url", url=repr(url)))
        self.url = url.strip().rstrip("/")
        self.token = token
        self.timeout = timeout

    def send(self, method: str, path: str, body: Any) -> Reply:
        data = json.dumps(body).encode("utf-8") if body is not None else None
        request = urllib.request.Request(self.url + API_PATH + path, data=data, method=method)
        request.add_header("Authorization", f"Bearer {self.token}")
        request.add_header("Accept", "application/json")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as answer:
                return Reply(answer.status, _json(answer.read()))
        except urllib.error.HTTPError as exc:
            with exc:
                return Reply(exc.code, _json(exc.read()), exc.headers.get("Retry-After"))
        except urllib.error.URLError as exc:
            reason = exc.reason
            raise reason if isinstance(reason, OSError) else ConnectionError(str(reason)) from None


def _json(raw: bytes) -> Any:
    try:
        return json.loads(raw) if raw else None
    except ValueError:
        return None


# -- the client ----------------------------------------------------------------------------------


@dataclass(slots=True)
class SyncReport:
    """What a sync did (``rummy league sync --json``): the facts the server added from here,
    the facts this store added from the server, the conflicts (as the import's report lists
    them, on either side) and how many facts could not apply because of them."""

    league: str
    sent: int = 0
    received: int = 0
    conflicts: list[dict[str, Any]] = field(default_factory=list)
    not_applied: int = 0
    #: Of :attr:`not_applied`, the facts this store held back, by game or night (a join
    #: received later in the same sync takes them in: no longer counted).
    held_here: dict[str, int] = field(default_factory=dict, repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "league": self.league,
            "sent": self.sent,
            "received": self.received,
            "conflicts": list(self.conflicts),
            "not_applied": self.not_applied,
        }

    def settle(self, games: Iterable[Any]) -> None:
        """Drop the conflicts of games a join settled since they were reported (a page held
        the other history back, a later one brought the join that takes it in)."""
        done = {str(g) for g in games}
        self.conflicts[:] = [c for c in self.conflicts if c.get("game") not in done]
        for game in done:
            self.not_applied -= self.held_here.pop(game, 0)

    def add_conflicts(self, found: Sequence[Mapping[str, Any]]) -> None:
        """Add conflicts not reported yet (a game's facts over several pages are one conflict)."""
        have = {(c.get("game"), c.get("night"), c.get("file")) for c in self.conflicts}
        for c in found:
            if (c.get("game"), c.get("night"), c.get("file")) not in have:
                have.add((c.get("game"), c.get("night"), c.get("file")))
                self.conflicts.append(dict(c))


def sync(store: Store, transport: Transport, *, league: str, limit: int = PAGE_FACTS) -> SyncReport:
    """Sync ``league`` (a name or an id, here or on the server) of ``store`` with the server
    ``transport`` reaches: send what it lacks, then receive what this store lacks, a page at a
    time, each page's mark saved once it is acknowledged or applied."""
    client = _Client(store, transport, limit=limit)
    league_id = client.league_id(league)
    report = SyncReport(league=league_id)
    client.send(league_id, report)
    client.receive(league_id, report)
    return report


class _Client:
    def __init__(self, store: Store, transport: Transport, *, limit: int) -> None:
        self.store = store
        self.transport = transport
        self.url = transport.url
        self.limit = max(1, min(limit, MOST_PAGE_FACTS))

    def ask(self, method: str, path: str, body: Any = None) -> Any:
        """The server's JSON answer; a refusal or a failed connection is a :class:`SyncError`."""
        try:
            reply = self.transport.send(method, path, body)
        except OSError as exc:
            reason = exc.strerror or str(exc) or type(exc).__name__
            raise SyncError(Message("sync.unreachable", url=self.url, reason=reason)) from None
        if reply.status == 200 and isinstance(reply.body, dict):
            return reply.body
        detail = _detail(reply.body)
        if reply.status == 401:
            raise SyncError(Message("sync.bad_token", url=self.url))
        if reply.status == 403:
            raise SyncError(Message("sync.forbidden", url=self.url, detail=detail))
        if reply.status == 429:
            raise SyncError(Message("sync.wait", url=self.url, seconds=reply.retry_after or "?"))
        if reply.status == 200:
            raise SyncError(Message("sync.bad_reply", url=self.url, what=type(reply.body).__name__))
        raise SyncError(Message("sync.refused", url=self.url, status=reply.status, detail=detail))

    def league_id(self, league: str) -> str:
        """The league's id here, else on the server (then received whole)."""
        try:
            return self.store.league(league).id
        except UnknownLeagueError:
            pass
        found = self.ask("GET", "/leagues").get("leagues")
        for entry in found if isinstance(found, list) else []:
            if isinstance(entry, dict) and (
                entry.get("id") == league.strip() or name_key(str(entry.get("name", ""))) == name_key(league)
            ):
                return str(entry["id"])
        raise SyncError(Message("sync.no_league", league=repr(league), url=self.url))

    def marks(self, league_id: str) -> tuple[int, int]:
        sent, received = self.store.sync_mark(self.url, league_id)
        if sent > self.store.position:  # the store replaced from a backup: send all again
            sent = 0
        return sent, received

    def send(self, league_id: str, report: SyncReport) -> None:
        """Send this store's facts of the league after the mark, a page at a time."""
        if league_id not in {lg.id for lg in self.store.leagues()}:
            return  # received whole below
        sent, _ = self.marks(league_id)
        commits, position = self.store.league_commits(league_id, sent)
        first = creation_fact(self.store, league_id) if sent == 0 else None
        path = f"/leagues/{urllib.parse.quote(league_id, safe='')}/facts"
        while True:
            page = facts_page(commits, position, after=sent, limit=self.limit, first=first)
            # A page is whole commits, but the server takes at most MOST_PAGE_FACTS at once: one
            # commit larger than that (a league imported from a file is one commit) goes in
            # parts, in order, and the mark moves on only once the last is acknowledged.
            facts: list[dict[str, Any]] = page["facts"]
            for start in range(0, len(facts), MOST_PAGE_FACTS):
                answer = self.ask("POST", path, {"facts": facts[start : start + MOST_PAGE_FACTS]})
                report.sent += _count(answer, "added", self.url)
                report.not_applied += _count(answer, "held", self.url)
                report.settle(_settled(answer, self.url))
                report.add_conflicts(_conflicts(answer, self.url))
            sent = int(page["position"])
            self.store.save_sync_mark(self.url, league_id, sent=sent, received=self.marks(league_id)[1])
            if not page["more"]:
                return
            commits = [c for c in commits if c.n > sent]
            first = None

    def receive(self, league_id: str, report: SyncReport) -> None:
        """Receive the server's facts of the league after the mark, a page at a time; then
        mark as sent the commits that only hold what was received (nothing to send back)."""
        sent_before, received = self.marks(league_id)
        position_before = self.store.position
        path = f"/leagues/{urllib.parse.quote(league_id, safe='')}/facts"
        got: set[str] = set()
        while True:
            answer = self.ask("GET", f"{path}?after={received}&limit={self.limit}")
            facts, position, more = answer.get("facts"), answer.get("position"), answer.get("more")
            if not isinstance(facts, list) or not isinstance(position, int) or not isinstance(more, bool):
                raise SyncError(Message("sync.bad_reply", url=self.url, what="page"))
            if more and position <= received:  # a page that does not move on would never end
                raise SyncError(Message("sync.bad_reply", url=self.url, what="position"))
            if facts:
                applied = self.store.receive_facts(league_id, facts, source=self.url)
                report.received += applied.added
                report.settle(applied.settled)
                report.not_applied += applied.held
                for subject, held in applied.held_facts.items():
                    report.held_here[subject] = report.held_here.get(subject, 0) + len(held)
                report.add_conflicts(applied.conflicts)
                got.update(str(f.get("id")) for f in facts if isinstance(f, dict))
            received = max(received, position)
            self.store.save_sync_mark(self.url, league_id, sent=self.marks(league_id)[0], received=received)
            if not more:
                break
        if sent_before >= position_before:  # everything here was sent: what came since is the server's
            sent = sent_before
            for commit in self.store.commits_since(sent_before):
                if not all(f.id in got for f in commit.facts):
                    break
                sent = commit.n
            if sent > sent_before:
                self.store.save_sync_mark(self.url, league_id, sent=sent, received=received)


def _detail(body: Any) -> str:
    """The server's reason in a refusal (FastAPI's ``detail``: a text, or a message's)."""
    detail = body.get("detail") if isinstance(body, dict) else None
    if isinstance(detail, dict):
        detail = detail.get("text") or detail.get("code")
    return str(detail) if detail else "-"


def _count(answer: Mapping[str, Any], key: str, url: str) -> int:
    value = answer.get(key, 0)
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise SyncError(Message("sync.bad_reply", url=url, what=key))
    return value


def _settled(answer: Mapping[str, Any], url: str) -> list[str]:
    found = answer.get("settled", [])  # a server of an earlier version says none
    if not isinstance(found, list) or not all(isinstance(g, str) for g in found):
        raise SyncError(Message("sync.bad_reply", url=url, what="settled"))
    return found


def _conflicts(answer: Mapping[str, Any], url: str) -> list[dict[str, Any]]:
    found = answer.get("conflicts", [])
    if not isinstance(found, list) or not all(isinstance(c, dict) for c in found):
        raise SyncError(Message("sync.bad_reply", url=url, what="conflicts"))
    return found


__all__ = [
    "API_PATH",
    "MOST_PAGE_FACTS",
    "PAGE_FACTS",
    "HttpTransport",
    "Reply",
    "SyncError",
    "SyncReport",
    "Transport",
    "facts_page",
    "sync",
]
