"""The project's error hierarchy.

Every error that is the input's fault is also a :class:`ValueError`, and its
message quotes the input and names the rule. The message is a value
(:class:`scorer.messages.Message`: a code and its parameters), ``exc.message``; ``str(exc)``
is its English text, and :func:`scorer.messages.render` writes it in another language.
"""

from __future__ import annotations

from scorer.messages import Message


class ScorerError(Exception):
    """Base class of every error raised by the engine; ``message`` says what went wrong."""

    def __init__(self, message: Message) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return str(self.message)


class InvalidCardError(ScorerError, ValueError):
    """Card text that is not well-formed: ``invalid card 'XQ' at position 3: ...``."""


class RulesetError(ScorerError, ValueError):
    """An unknown ruleset, an unknown house-rule option, or a bad option value."""


class IllegalMeldError(ScorerError, ValueError):
    """Cards that were declared as a meld but are not one under the ruleset."""


class IllegalPlayError(ScorerError, ValueError):
    """A well-formed request that the rules do not allow (a layoff, a knock, ...)."""


class InputTooLargeError(ScorerError, ValueError):
    """Input beyond what the program reads: a file too big, nested too deep, a text too long."""


#: Characters of an input a message quotes before it says how long the input was.
QUOTE_CHARS = 60


def quote(text: str, *, limit: int = QUOTE_CHARS) -> str:
    """The input as a message quotes it: whole when short, else its start and its length.

    >>> quote("KH KH")
    "'KH KH'"
    >>> quote("KH " * 1_000_000)
    "'KH KH KH KH KH KH KH KH KH KH KH KH KH KH KH KH KH KH KH KH ...' (3,000,000 characters)"
    """
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit].rstrip() + ' ...'!r} ({len(text):,} characters)"
