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

from typing import Final

from scorer.messages import DEFAULT_LANGUAGE, Message, Param, Text, Word, catalog, message_of, render
from scorer.ui.i18n import Language, tr

#: What the engine says in the game file's terms (``say who went out (out)``: the file's
#: field ``out``), said in the app's: the Deal entry's controls, not the file's fields.
APP_WORDS: Final = {
    "deal.say_how": "deal.say_how_app",
    "deal.say_how_carousel": "deal.say_how_carousel_app",
    "deal.no_knocking": "deal.no_knocking_app",
    "deal.say_knocker_or_dead": "deal.say_knocker_or_dead_app",
}
#: A refused name as it is said under the field that holds it: which character, and why,
#: without the name again (escaped) or the character's English Unicode name.
FIELD_WORDS: Final = {
    "name.control": "names.refused_control",
    "name.bidi": "names.refused_bidi",
    "name.invisible": "names.refused_invisible",
}


def engine_text(said: str | Message | BaseException | None, language: Language) -> str:
    """What the engine said (a message, an exception, or the text a view-model kept) in
    ``language``; ``""`` for nothing said.

    >>> engine_text(Message("deal.say_how"), "fi")
    'Kerro, kuka meni ulos tai miten jako päättyi.'
    """
    if said is None:
        return ""
    message = message_of(said)
    if message is None:
        return str(said)
    # The text remembers the engine's message, not the words: shown again in another language,
    # it is said in that language's words, the app's own included.
    return Text(_in_app_words(message, language, APP_WORDS), message)


def field_text(said: str | Message | BaseException | None, language: Language) -> str:
    """What the engine said about a field's value, shown under that field: as
    :func:`engine_text`, and a refused name says which of its characters, and why, in the
    screen's language only.

    >>> from scorer.names import clean_name
    >>> try:
    ...     clean_name("An\u202ena", what="player")
    ... except ValueError as exc:
    ...     print(field_text(exc, "fi"))
    Merkki 3 on näkymätön kirjoitussuunnan ohjausmerkki, joka voi saada nimen näkymään takaperin: poista se.
    """
    if said is None:
        return ""
    message = message_of(said)
    if message is None:
        return str(said)
    return Text(_in_app_words(message, language, {**APP_WORDS, **FIELD_WORDS}), message)


def _in_app_words(message: Message, language: Language, words: dict[str, str]) -> str:
    key = words.get(message.code)
    if key is not None:  # the app's own words use only the texts and numbers of the message
        return tr(key, language, **{k: _param(v, language, words) for k, v in message.params.items()})
    if not any(isinstance(v, Message) for v in message.params.values()):
        return render(message, language)
    params: dict[str, Param] = {
        k: _param(v, language, words) if isinstance(v, Message) else v for k, v in message.params.items()
    }
    return render(Message(message.code, **params), language)


def _param(value: Param, language: Language, words: dict[str, str]) -> Param:
    if isinstance(value, Message):
        return _in_app_words(value, language, words)
    if isinstance(value, Word):  # the engine's word (a variant's name) in the language
        return catalog(language).get(value.key) or catalog(DEFAULT_LANGUAGE).get(value.key, value.word)
    return value
