"""Where a store keeps its access tokens: beside the facts, never among them.

Facts are synced to every device; a token is the server's alone, so each ledger keeps its
tokens in a book of its own (:class:`TokenBook`): a folder store in ``tokens.json`` in its
folder (:class:`FolderTokens`), written whole under the store's lock (a temporary file synced
and renamed over it, readable by its owner only); a PostgreSQL store in its table
``rummy_tokens`` (:class:`scorer.league.pg.PgTokens`); a store in memory in a dict
(:class:`MemoryTokens`). A book keeps every token it was given, revoked ones too (with the
time they were revoked), and never a secret: only its SHA-256 (:mod:`scorer.league.tokens`).

A name is unique among the good tokens (case and spacing aside): once revoked, its name may be
given to a new token (a phone replaced keeps its name).

>>> book = MemoryTokens()
>>> row = new_row("Anna's phone", Role.SCORER, secret="rst_a", at="2026-12-07T02:00:00Z")
>>> book.add(row)
>>> book.find(digest("rst_a")).info.name
"Anna's phone"
>>> try:
...     book.add(new_row("ANNA'S PHONE", Role.VIEWER, secret="rst_b", at="2026-12-07T02:01:00Z"))
... except ValueError as exc:
...     print(exc.message.code, exc.message.params["value"])
store.token_exists "ANNA'S PHONE"
>>> book.revoke("anna's phone", at="2026-12-07T03:00:00Z").revoked
'2026-12-07T03:00:00Z'
>>> book.find(digest("rst_a")) is None
True
"""

from __future__ import annotations

import json
import os
import secrets
import threading
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, Final

from scorer.league.errors import StoreError
from scorer.league.log import write_synced
from scorer.league.tokens import (
    Role,
    TokenInfo,
    TokenRow,
    digest,
    name_taken,
    no_such_token,
    same_digest,
    token_name,
)
from scorer.messages import Message
from scorer.names import name_key
from scorer.oserrors import SystemRefusalError, refusal

#: The folder store's file of tokens.
TOKENS_NAME: Final = "tokens.json"
#: The version of that file's form; a newer one is refused.
TOKENS_VERSION: Final = 1
#: The folder store's secret that a club night's access codes are derived from
#: (:mod:`scorer.league.night_codes`): 32 random bytes in hex, readable by its owner only.
CODES_KEY_NAME: Final = "codes.key"
#: Bytes of that secret.
CODES_KEY_BYTES: Final = 32


def new_row(name: str, role: Role, *, secret: str, at: str) -> TokenRow:
    """The row of a new token named ``name`` (cleaned here) whose secret is ``secret``."""
    clean, key = token_name(name)
    return TokenRow(info=TokenInfo(name=clean, role=role, created=at), key=key, hash=digest(secret))


class TokenBook:
    """A store's tokens: every one made (revoked ones too), found by their secret's digest."""

    def rows(self) -> list[TokenRow]:
        """Every token, in the order they were made."""
        raise NotImplementedError

    def find(self, hashed: str) -> TokenRow | None:
        """The good token whose secret has the digest ``hashed``; ``None`` if none has."""
        raise NotImplementedError

    def add(self, row: TokenRow) -> None:
        """Keep a new token; refused (:func:`~scorer.league.tokens.name_taken`) if a good one
        has its name."""
        raise NotImplementedError

    def revoke(self, name: str, *, at: str) -> TokenInfo:
        """Revoke the good token named ``name`` (case and spacing aside), at time ``at``;
        refused (:func:`~scorer.league.tokens.no_such_token`) if there is none."""
        raise NotImplementedError

    def code_secret(self) -> bytes:
        """The store's secret for derived access codes (:mod:`scorer.league.night_codes`): made
        at random the first time it is asked for, the same ever after, in every process."""
        raise NotImplementedError


def _good(rows: list[TokenRow], key: str) -> int | None:
    """Where the good token of name key ``key`` is in ``rows``."""
    for at, row in enumerate(rows):
        if row.key == key and row.info.revoked is None:
            return at
    return None


def _revoked(row: TokenRow, at: str) -> TokenRow:
    info = row.info
    return TokenRow(
        info=TokenInfo(name=info.name, role=info.role, created=info.created, revoked=at),
        key=row.key,
        hash=row.hash,
    )


class MemoryTokens(TokenBook):
    """Tokens in memory (a store in memory: tests, previews)."""

    def __init__(self) -> None:
        self._rows: list[TokenRow] = []
        self._by_hash: dict[str, TokenRow] = {}
        self._lock = threading.Lock()
        self._code_secret = secrets.token_bytes(CODES_KEY_BYTES)

    def code_secret(self) -> bytes:
        return self._code_secret

    def rows(self) -> list[TokenRow]:
        with self._lock:
            return list(self._rows)

    def find(self, hashed: str) -> TokenRow | None:
        row = self._by_hash.get(hashed)
        return row if row is not None and same_digest(row.hash, hashed) else None

    def add(self, row: TokenRow) -> None:
        with self._lock:
            if _good(self._rows, row.key) is not None:
                raise name_taken(row.info.name)
            self._rows.append(row)
            self._by_hash[row.hash] = row

    def revoke(self, name: str, *, at: str) -> TokenInfo:
        with self._lock:
            found = _good(self._rows, name_key(name))
            if found is None:
                raise no_such_token(name)
            row = _revoked(self._rows[found], at)
            self._rows[found] = row
            self._by_hash.pop(row.hash, None)
            return row.info


class FolderTokens(TokenBook):
    """Tokens in ``tokens.json`` in a folder store's folder.

    Every change is made under ``locked`` (the store's own lock, shared with every program
    that writes the store) and written whole (:func:`~scorer.league.log.write_synced`, mode
    ``0o600``). A lookup reads the file again only when it changed (its size, time and inode),
    so a token revoked by ``rummy league token revoke`` in another program is refused by a
    running server at its next request, and an unchanged file costs one ``stat``.
    """

    def __init__(self, folder: Path, *, locked: Callable[[], AbstractContextManager[None]]) -> None:
        self.path = folder / TOKENS_NAME
        self._locked = locked
        self._seen: tuple[int, int, int] | None = None
        self._rows: list[TokenRow] = []
        self._by_hash: dict[str, TokenRow] = {}
        self._mutex = threading.Lock()
        self.key_path = folder / CODES_KEY_NAME
        self._code_secret: bytes | None = None

    def _stamp(self) -> tuple[int, int, int] | None:
        try:
            found = os.stat(self.path)
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise refusal(exc, path=self.path) from None
        return (found.st_ino, found.st_size, found.st_mtime_ns)

    def _load(self) -> list[TokenRow]:
        """The file's rows, read again if it changed since it was last read."""
        with self._mutex:
            stamp = self._stamp()
            if stamp == self._seen:
                return self._rows
            rows = self._read() if stamp is not None else []
            self._rows, self._seen = rows, stamp
            self._by_hash = {row.hash: row for row in rows if row.info.revoked is None}
            return rows

    def _read(self) -> list[TokenRow]:
        try:
            data: Any = json.loads(self.path.read_bytes())
        except FileNotFoundError:
            return []
        except OSError as exc:
            raise refusal(exc, path=self.path) from None
        except ValueError as exc:
            raise self._damaged(str(exc)) from None
        try:
            version = int(data["v"])
            if version > TOKENS_VERSION:
                raise self._damaged(f"a file of version {version}; this version reads up to {TOKENS_VERSION}")
            return [TokenRow.from_json(item) for item in data["tokens"]]
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise self._damaged(f"not a file of tokens: {type(exc).__name__} {exc}") from None

    def damage(self) -> list[tuple[Path, str]]:
        """Each of this book's two files (``tokens.json``, ``codes.key``) that is there but
        cannot be read, with why (for ``rummy league verify``); reads only, makes nothing."""
        found: list[tuple[Path, str]] = []
        for path, read in ((self.path, self._read), (self.key_path, self._read_key)):
            try:
                read()
            except SystemRefusalError as exc:  # the system's refusal: its own words
                found.append((path, exc.error.strerror or type(exc.error).__name__))
            except StoreError as exc:
                found.append((path, str(exc.message.params.get("why", exc))))
        return found

    def _damaged(self, why: str) -> StoreError:
        return StoreError(Message("store.tokens_damaged", path=f"'{self.path}'", why=why))

    def _write(self, rows: list[TokenRow]) -> None:
        document = {"v": TOKENS_VERSION, "tokens": [row.to_json() for row in rows]}
        payload = (json.dumps(document, ensure_ascii=False, indent=1) + "\n").encode()
        try:
            write_synced(self.path, payload, mode=0o600)
        except OSError as exc:
            raise refusal(exc, path=self.path) from None

    def rows(self) -> list[TokenRow]:
        return list(self._load())

    def find(self, hashed: str) -> TokenRow | None:
        self._load()
        row = self._by_hash.get(hashed)
        return row if row is not None and same_digest(row.hash, hashed) else None

    def add(self, row: TokenRow) -> None:
        with self._locked():
            rows = list(self._load())
            if _good(rows, row.key) is not None:
                raise name_taken(row.info.name)
            self._write([*rows, row])

    def revoke(self, name: str, *, at: str) -> TokenInfo:
        with self._locked():
            rows = list(self._load())
            found = _good(rows, name_key(name))
            if found is None:
                raise no_such_token(name)
            rows[found] = _revoked(rows[found], at)
            self._write(rows)
            return rows[found].info

    def code_secret(self) -> bytes:
        """Read from ``codes.key``; made there (under the store's lock, written whole, mode
        ``0o600``) by the first program that asks, so every later one reads the same."""
        if self._code_secret is None:
            found = self._read_key()
            if found is None:
                with self._locked():
                    found = self._read_key()
                    if found is None:
                        found = secrets.token_bytes(CODES_KEY_BYTES)
                        try:
                            write_synced(self.key_path, (found.hex() + "\n").encode(), mode=0o600)
                        except OSError as exc:
                            raise refusal(exc, path=self.key_path) from None
            self._code_secret = found
        return self._code_secret

    def _read_key(self) -> bytes | None:
        try:
            text = self.key_path.read_text(encoding="ascii").strip()
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise refusal(exc, path=self.key_path) from None
        except ValueError:
            text = ""
        try:
            found = bytes.fromhex(text)
        except ValueError:
            found = b""
        if len(found) != CODES_KEY_BYTES:
            why = f"not {CODES_KEY_BYTES} bytes in hex"
            raise StoreError(Message("store.codes_key_damaged", path=f"'{self.key_path}'", why=why))
        return found


__all__ = [
    "CODES_KEY_BYTES",
    "CODES_KEY_NAME",
    "TOKENS_NAME",
    "FolderTokens",
    "MemoryTokens",
    "TokenBook",
    "new_row",
]
