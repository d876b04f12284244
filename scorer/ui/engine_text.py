"""The engine's verdicts and error messages in the app's language.

The engine, the league store and the command line say everything as a value: a
:class:`~scorer.messages.Message`, a stable code with its parameters, carried by the
exception (``exc.message``) or the verdict (``verdict.message``). This module shows one in
the app's language with :func:`scorer.messages.render`, from the catalogs in
``scorer/locales/`` that the command line uses too. Nothing here reads English back.

A view-model may keep what it was told as a value or as ``str(exc)``: that text remembers
its message (:class:`~scorer.messages.Text`), so either way it is shown in the language
asked for. A plain string (the app's own words, or what the player typed) is shown as it is.

>>> from scorer.melds import check_meld
>>> from scorer.ruleset import load_ruleset
>>> engine_text(check_meld("QH KH AH", load_ruleset("gin")).reason, "fi")
'ei ole suora: QH KH AH (ässät ovat pieniä pelissä ginirommi)'
"""

from __future__ import annotations

from scorer.messages import Message, message_of, render
from scorer.ui.i18n import Language


def engine_text(said: str | Message | BaseException | None, language: Language) -> str:
    """What the engine said (a message, an exception, or the text a view-model kept) in
    ``language``; ``""`` for nothing said."""
    if said is None:
        return ""
    message = message_of(said)
    if message is None:
        return str(said)
    return render(message, language)
