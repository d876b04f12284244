"""What the operating system refused, in the user's words: the path, why, and what to do.

A failure the system reports (a read-only folder, a file or folder the user may not touch, a
lock file someone else owns, a full disk, a folder where a file should be, a missing parent)
reaches the user as one line, translated here once, from the error's ``errno``:

>>> import errno
>>> said = os_failure(PermissionError(errno.EACCES, "Permission denied", "/srv/league/.lock"))
>>> str(said)
"cannot use '/srv/league/.lock': permission denied; check its owner and permissions, or choose another path"
>>> str(os_failure(OSError(errno.ENOSPC, "No space left on device"), path="/srv/league"))
"cannot use '/srv/league': the disk is full; free some space and try again (nothing was saved)"

The system's own wording (``strerror``) is English only; the catalog's is in every language,
so it is used for the failures a user meets, and the system's wording for the rare others.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Final

from scorer.errors import ScorerError
from scorer.messages import Message

#: errno -> the catalog's key for why, and for what to do.
_KINDS: Final[dict[int, str]] = {
    errno.EACCES: "denied",
    errno.EPERM: "denied",
    errno.EROFS: "read_only",
    errno.ENOSPC: "full",
    errno.EDQUOT: "full",
    errno.EFBIG: "full",
    errno.EISDIR: "is_folder",
    errno.ENOTDIR: "not_folder",
    errno.ENOENT: "missing",
    errno.ENAMETOOLONG: "name_too_long",
    errno.EMFILE: "too_many_open",
    errno.ENFILE: "too_many_open",
    errno.EIO: "io",
}


class SystemRefusalError(ScorerError):
    """The operating system refused a file operation; the message names the path and what to do."""

    def __init__(self, message: Message, *, error: OSError) -> None:
        super().__init__(message)
        self.error = error


def os_failure(exc: OSError, *, path: str | Path | None = None) -> Message:
    """One line for ``exc``: the path it names (else ``path``), why, and what to do."""
    named = exc.filename if exc.filename is not None else path
    # repr: a control, bidirectional or invisible character in a path is shown escaped,
    # never sent raw to the terminal.
    shown = repr(os.fsdecode(named)) if named is not None else "?"
    return Message("oserror.failed", path=shown, reason=os_reason(exc))


def os_reason(exc: OSError) -> Message:
    """Why the system refused, and what to do, for a message that names the path itself.

    >>> str(os_reason(IsADirectoryError(errno.EISDIR, "Is a directory")))
    'a folder stands where a file should be; move that folder out of the way'
    """
    kind = _KINDS.get(exc.errno or 0)
    if kind is None:
        why = Message("oserror.why_other", text=str(exc.strerror or exc))
        return Message("oserror.reason", why=why, todo=Message("oserror.todo_other"))
    return Message("oserror.reason", why=Message(f"oserror.why_{kind}"), todo=Message(f"oserror.todo_{kind}"))


def refusal(exc: OSError, *, path: str | Path | None = None) -> SystemRefusalError:
    """``exc`` as the project's error, to raise ``from None``."""
    return SystemRefusalError(os_failure(exc, path=path), error=exc)
