"""Every user-visible string of the UI, by language.

Card text itself is always typed the engine's way (``QH``, ``10S``, ``*``), whatever the
language; the Finnish help text says which letter is which card. The engine's verdicts
(``not a run: ...``) and error messages are shown as the engine wrote them.

>>> tr("deadwood_points", "fi", points=22)
'irtokorttien pisteet: 22'
"""

from __future__ import annotations

from typing import Final, Literal

Language = Literal["en", "fi"]

DEFAULT_LANGUAGE: Final[Language] = "en"

STRINGS: Final[dict[Language, dict[str, str]]] = {
    "en": {
        "app_title": "Rummy Scorer",
        "screen_title": "Meld referee",
        "ruleset_label": "Ruleset",
        "cards_label": "Cards",
        "cards_hint": "5H 6H 7H or 5H * 7H",
        "cards_help": "Ranks A 2-10 J Q K, suits S H D C, * is a joker; *=6H says which card it is.",
        "check_button": "Check meld",
        "arrange_button": "Best arrangement",
        "legal_meld": "legal {kinds}: {meld}",
        "kind_run": "run",
        "kind_set": "set",
        "kinds_separator": " or ",
        "joker_options": "joker {number} can stand for {cards}: declare it, e.g. *={example}",
        "melds_line": "melds: {melds}",
        "deadwood_line": "deadwood: {cards}",
        "deadwood_points": "deadwood points: {points}",
        "none": "none",
    },
    "fi": {
        "app_title": "Rommin pistelasku",
        "screen_title": "Yhdistelmien tuomari",
        "ruleset_label": "Säännöt",
        "cards_label": "Kortit",
        "cards_hint": "5H 6H 7H tai 5H * 7H",
        "cards_help": (
            "A ässä, J jätkä, Q rouva, K kuningas; S pata, H hertta, D ruutu, C risti; "
            "* jokeri, *=6H kertoo mikä kortti jokeri on."
        ),
        "check_button": "Tarkista yhdistelmä",
        "arrange_button": "Paras järjestys",
        "legal_meld": "sallittu {kinds}: {meld}",
        "kind_run": "suora",
        "kind_set": "setti",
        "kinds_separator": " tai ",
        "joker_options": "jokeri {number} voi olla {cards}: ilmoita se, esim. *={example}",
        "melds_line": "yhdistelmät: {melds}",
        "deadwood_line": "irtokortit: {cards}",
        "deadwood_points": "irtokorttien pisteet: {points}",
        "none": "ei yhtään",
    },
}


def tr(key: str, language: Language = DEFAULT_LANGUAGE, /, **values: object) -> str:
    """The string ``key`` in ``language``, with ``{placeholders}`` filled from ``values``."""
    text = STRINGS[language][key]
    return text.format(**values) if values else text
