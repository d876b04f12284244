"""Which store an address names: a PostgreSQL database (``postgresql://USER@HOST/NAME``) or a folder.

This module needs no database driver, so the command line and the app can tell the two
apart before anything is imported. An address shown to a person has its password masked.

>>> is_address("postgresql://club@db.example/rummy")
True
>>> is_address("~/league")
False
>>> masked("postgresql://club:s3cret@db.example:5433/rummy?sslmode=require")
'postgresql://club:***@db.example:5433/rummy?sslmode=require'
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Final

#: The schemes of a PostgreSQL address (libpq's connection URI).
SCHEMES: Final = ("postgresql://", "postgres://")
#: The environment variable that chooses the store (a folder or a PostgreSQL address).
ENV_VAR: Final = "RUMMY_DB"

_PASSWORD = re.compile(r"^(?P<head>[a-z]+://[^:@/?#]*):(?P<password>[^@/?#]*)@", re.IGNORECASE)
_QUERY_PASSWORD = re.compile(r"(?P<key>[?&]password=)[^&]*", re.IGNORECASE)


def is_address(location: str | Path | None) -> bool:
    """Whether ``location`` is a PostgreSQL address (a :class:`~pathlib.Path` never is)."""
    return isinstance(location, str) and location.strip().lower().startswith(SCHEMES)


def chosen(location: str | Path | None) -> str | None:
    """The PostgreSQL address that ``location`` (or, when ``None``, ``$RUMMY_DB``) names;
    ``None`` when it names a folder."""
    if location is None:
        location = os.environ.get(ENV_VAR, "").strip() or None
    return location.strip() if isinstance(location, str) and is_address(location) else None


def masked(address: str) -> str:
    """``address`` with its password (in the user part or as ``password=``) shown as ``***``."""
    shown = _PASSWORD.sub(lambda m: f"{m['head']}:***@", address.strip(), count=1)
    return _QUERY_PASSWORD.sub(lambda m: f"{m['key']}***", shown)


__all__ = ["ENV_VAR", "SCHEMES", "chosen", "is_address", "masked"]
