"""The engine's verdicts and error messages in the app's language.

The engine speaks English and quotes the input (``not a run: QH KH AH (aces are low in gin
rummy)``). Each message it can say is a pattern below: a regex with named groups, and a
catalog text ``engine.<name>`` in ``locales/engine.toml`` (English and Finnish) that fills
the same names. A group's name says how its text is carried over:

- ``m_...``: an engine message inside the message (a reason, a rest after ``deal 2:``),
  translated the same way in turn;
- ``w_...``: one of the engine's words (``run``, ``knocker``, ``big gin``), from
  ``engine.word.<word>`` (spaces written ``-``);
- ``g_...``: whose it is (``knocker's``), from ``engine.whose.<word>``;
- ``l_...``: a list the engine joined with ``and`` / ``or``, those words translated;
- anything else (cards, numbers, names, quoted input): as it is.

English is returned unchanged; a message no pattern matches falls back to English.

>>> engine_text("not a run: QH KH AH (aces are low in gin rummy)", "fi")
'ei ole suora: QH KH AH (ässät ovat pieniä pelissä gin rummy)'
"""

from __future__ import annotations

import re
from typing import Final

from scorer.ui.i18n import DEFAULT_LANGUAGE, Language, catalog, tr

_NAME = r"(?P<name>.+?)"
#: A name as Python's repr() quotes it (the league store's messages).
_REPR = r"(?:'.*'|\".*\")"
_NUM = r"(?P<{}>-?\d+)"
#: Input as the engine quotes it, a long one cut with its length after.
_QUOTED = r"'.*'(?: \([\d,]+ characters\))?"
#: The files the engine reads, as its messages name them.
_FILE = r"(?:game file|ruleset file)"
#: A value quoted in one of several problems joined with "; ": never across the join.
_PART = r"(?:(?!; ).)+"
_VALUE = rf"(?P<value>{_PART})"
#: The kinds of value a document's field may want (scorer/validation.py), in its words.
_KIND = (
    r"(?:a whole number|true or false|text|a number|a table of names and values|a list"
    r"|empty \(null\)|another kind of value)"
)


def _n(group: str) -> str:
    return _NUM.format(group)


#: Every message the engine raises or returns: catalog key (without ``engine.``) and pattern.
#: Order matters only where two patterns could match one message: the more specific first.
PATTERNS: Final[tuple[tuple[str, re.Pattern[str]], ...]] = tuple(
    (key, re.compile(pattern))
    for key, pattern in (
        # -- cards (scorer/cards.py) --------------------------------------------------------------
        ("joker_suit", rf"a joker has no suit, got suit {_n('suit')}"),
        ("joker_for_joker", r"a joker cannot stand for another joker"),
        ("bad_rank_number", rf"invalid rank {_n('rank')}: (?P<m_why>.+)"),
        ("bad_suit_number", rf"invalid suit {_n('suit')}: (?P<m_why>.+)"),
        ("only_joker_stands", r"only a joker can stand for a card, not (?P<card>\S+)"),
        ("bad_card", rf"invalid card (?P<token>'.*') at position {_n('position')}: (?P<m_why>.+)"),
        ("rank_help", r"rank must be one of A 2-10 T J Q K"),
        ("suit_help", r"suit must be one of S H D C \(or ♠ ♥ ♦ ♣\)"),
        ("card_shape", r"a card is a rank and a suit, like 'TH' or '10♥'"),
        ("declared_joker_names", r"a declared joker names its card, like '\*=6H'"),
        ("only_joker_declared", r"only a joker can be declared as another card \('\*=6H'\)"),
        ("empty_meld", rf"meld {_n('number')} of (?P<text>'.*') is empty"),
        # -- melds and layoffs (scorer/melds.py) ----------------------------------------------------
        ("not_a", r"not a (?P<w_kind>meld|set|run): (?P<cards>[^()]*?) \((?P<m_why>.*)\)"),
        ("set_max", rf"a set has at most {_n('most')} cards in {_NAME}"),
        ("run_max", rf"a run has at most {_n('most')} cards in {_NAME}"),
        ("run_13", r"a run has at most 13 cards"),
        ("set_twice", rf"(?P<card>\S+) twice; a set may not hold the same card twice in {_NAME}"),
        ("joker_duplicate", rf"(?P<joker>\S+) stands for a card already in the set, which {_NAME} forbids"),
        (
            "joker_would_duplicate",
            rf"a joker would stand for a card already in the set, which {_NAME} forbids",
        ),
        ("run_twice", r"(?P<card>\S+) twice; a run holds each rank once"),
        ("ace_low", rf"aces are low in {_NAME}"),
        ("ace_low_or_high", rf"aces are low or high but a run cannot turn the corner in {_NAME}"),
        ("ace_around", rf"aces are low or high and runs may turn the corner in {_NAME}"),
        ("gap_jokers", rf"not consecutive: {_n('missing')} cards missing and only {_n('free')} jokers?"),
        ("gap", r"not consecutive: (?P<cards>.+) missing"),
        ("too_many_jokers", rf"{_n('jokers')} jokers?, and {_NAME} plays with {_n('most')}"),
        ("one_deck_twice", rf"(?P<card>\S+) twice, and {_NAME} plays with one deck"),
        ("meld_min", rf"a meld needs at least {_n('least')} cards"),
        ("meld_natural", rf"a meld needs at least {_n('least')} natural card in {_NAME}"),
        ("rank_or_suit", r"a set needs one rank and a run needs one suit"),
        ("kind_min", rf"a (?P<w_kind>set|run) needs at least {_n('least')} cards in {_NAME}"),
        ("table_meld_illegal", r"the table meld is not legal: (?P<m_reason>.+)"),
        ("no_layoff_cards", r"no cards to lay off"),
        (
            "no_joker_exchange",
            rf"(?P<card>\S+) is already in the meld as a joker, and {_NAME} has no joker exchange",
        ),
        (
            "layoff_changes_kind",
            r"cannot lay off (?P<cards>.+?) on (?P<meld>.+?): the (?P<w_kind>set|run) "
            r"would become a (?P<w_other>set|run)",
        ),
        ("layoff_fails", r"cannot lay off (?P<cards>.+?) on (?P<meld>.+?): (?P<m_why>.*)"),
        # -- gin knocks (scorer/knock.py) -------------------------------------------------------------
        ("needs_upcard", rf"{_NAME} takes the knock limit from the upcard: no upcard given"),
        ("upcard_joker", rf"the upcard (?P<card>\S+) is a joker; {_NAME} is played without jokers"),
        ("no_knock_limit", rf"ruleset (?P<id>'[^']*') \({_NAME}\) sets no knock limit"),
        ("no_hand_size", rf"ruleset (?P<id>'[^']*') deals no hand for {_n('players')} players"),
        (
            "not_gin",
            rf"ruleset (?P<id>'[^']*') \({_NAME}\) is a (?P<w_family>rummy|carousel) game; "
            r"only gin has knocks",
        ),
        (
            "knocker_size",
            rf"the knocker spreads {_n('size')} cards \({_n('big')} for big gin\) in {_NAME}, "
            rf"got {_n('count')}: (?P<text>'.*')",
        ),
        (
            "defender_size",
            rf"the defender holds {_n('size')} cards in {_NAME}, got {_n('count')}: (?P<text>'.*')",
        ),
        (
            "hand_joker",
            rf"the (?P<g_who>knocker|defender)'s hand (?P<text>'.*') holds a joker; {_NAME} has no jokers",
        ),
        (
            "card_twice_in_hand",
            r"(?P<card>\S+) is twice in the (?P<g_who>knocker|defender)'s hand "
            rf"\(knocker (?P<knocker>'.*'), defender (?P<defender>'.*')\); {_NAME} is played with one deck",
        ),
        (
            "card_in_both",
            r"(?P<card>\S+) is in both hands "
            rf"\(knocker (?P<knocker>'.*'), defender (?P<defender>'.*')\); {_NAME} is played with one deck",
        ),
        ("upcard_one", r"the upcard is one card, got (?P<text>'.*')"),
        ("upcard_joker_no_jokers", rf"the upcard (?P<card>\S+) is a joker; {_NAME} has no jokers"),
        (
            "upcard_in_hand",
            r"the upcard (?P<card>\S+) is also in the (?P<g_who>knocker|defender)'s hand "
            rf"(?P<text>'.*'); {_NAME} is played with one deck",
        ),
        (
            "declared_not_in_hand",
            rf"declared meld {_n('number')} (?P<meld>'.*') uses (?P<card>\S+), "
            r"which is not in the knocker's hand (?P<hand>'.*')",
        ),
        (
            "declared_twice",
            r"(?P<card>\S+) is declared twice in the melds (?P<melds>'.*'); one deck has one \S+",
        ),
        (
            "big_gin_melded",
            rf"{_n('size')} cards are a big gin only when all {_n('all')} are melded; "
            rf"knocker's deadwood is {_n('points')}",
        ),
        (
            "over_limit_ace",
            rf"knocker's deadwood {_n('points')} is over the knock limit of {_n('limit')} in "
            rf"{_NAME} \(the upcard (?P<card>\S+) is an ace: only gin may end the hand\)",
        ),
        (
            "over_limit_upcard",
            rf"knocker's deadwood {_n('points')} is over the knock limit of {_n('limit')} in "
            rf"{_NAME} \(set by the upcard (?P<card>\S+)\)",
        ),
        (
            "over_limit_gin",
            rf"knocker's deadwood {_n('points')} is over the knock limit of {_n('limit')} in "
            rf"{_NAME} \(only gin may end the hand\)",
        ),
        (
            "over_limit",
            rf"knocker's deadwood {_n('points')} is over the knock limit of {_n('limit')} in {_NAME}",
        ),
        # -- openings (scorer/opening.py) -------------------------------------------------------------
        ("opening_empty", r"an opening needs at least one meld: got no melds and no layoffs"),
        (
            "layoff_undeclared",
            rf"layoff {_n('number')} of (?P<text>'.*') is an undeclared joker: "
            r"say which card it stands for, like '\*=7H'",
        ),
        (
            "layoffs_alone",
            rf"layoffs alone are not an opening: {_NAME} allows no laying off on others' melds "
            r"before one's own first meld",
        ),
        (
            "opening_short_layoffs",
            rf"opening worth {_n('value')}, {_NAME} needs at least {_n('required')} "
            rf"\(melds {_n('melds')} \+ layoffs {_n('layoffs')}\)",
        ),
        (
            "opening_short_no_layoffs",
            rf"opening worth {_n('value')}, {_NAME} needs at least {_n('required')} "
            r"\(layoffs in the same turn do not count in .+\)",
        ),
        ("opening_short", rf"opening worth {_n('value')}, {_NAME} needs at least {_n('required')}"),
        ("hand_no_meld", rf"this hand holds no meld, and {_NAME} opens with at least one"),
        (
            "hand_short",
            rf"the best opening in this hand is worth {_n('value')}, {_NAME} needs at least "
            rf"{_n('required')}",
        ),
        ("meld_number", rf"meld {_n('number')}: (?P<m_reason>.+)"),
        # Layoffs checked against the other players' melds (``onto``).
        ("layoffs_fit_no_table", r"layoffs (?P<cards>.+) fit none of the melds on the table: none"),
        ("layoff_fits_no_table", r"layoff (?P<card>\S+) fits none of the melds on the table: none"),
        ("layoffs_fit_none", r"layoffs (?P<cards>.+) fit none of the melds on the table: (?P<table>[^;]+)"),
        ("layoff_fits_none", r"layoff (?P<card>\S+) fits none of the melds on the table: (?P<table>[^;]+)"),
        ("table_meld_quoted", rf"table meld {_n('number')} (?P<meld>'.*') is not legal: (?P<m_reason>.+)"),
        # -- card supply and rulesets (scorer/ruleset.py) ---------------------------------------------
        (
            "supply_jokers",
            rf"{_n('count')} jokers (?P<w_where>in the .+?|on the .+?), and {_NAME} plays with "
            rf"{_n('most')}",
        ),
        (
            "supply_twice",
            rf"(?P<card>\S+) twice (?P<w_where>in the .+|on the .+), and {_NAME} plays with one deck",
        ),
        (
            "supply_times_one_deck",
            rf"(?P<card>\S+) {_n('count')} times (?P<w_where>in the .+|on the .+), and {_NAME} "
            r"plays with one deck",
        ),
        ("supply_no_jokers", rf"a joker (?P<w_where>in the .+?|on the .+?), and {_NAME} has no jokers"),
        (
            "supply_cards",
            rf"(?P<card>\S+) {_n('count')} times (?P<w_where>in the .+|on the .+), and {_NAME} "
            rf"plays with {_n('decks')} decks?",
        ),
        ("option_identity", r"option (?P<key>'[^']*') cannot be changed: it names the ruleset"),
        (
            "named_rules_clash",
            r"house rules (?P<rule>'[^']*') and (?P<other>'[^']*') both set (?P<field>'[^']*'): choose one",
        ),
        (
            "option_unknown_hint",
            r"unknown option (?P<key>'[^']*') for ruleset (?P<id>'[^']*'); did you mean (?P<close>'[^']*')\? "
            r"\(every option: 'rummy rulesets --options (?P<listed>[^']*)'\)",
        ),
        (
            "option_unknown_listed",
            r"unknown option (?P<key>'[^']*') for ruleset (?P<id>'[^']*') "
            r"\(every option: 'rummy rulesets --options (?P<listed>[^']*)'\)",
        ),
        ("house_rule_games", rf"house rule (?P<rule>'[^']*') is for (?P<l_games>.+) games, not {_NAME}"),
        ("house_rule_value", r"house rule (?P<rule>'[^']*'): (?P<given>'.*') is not one of (?P<values>.+)"),
        (
            "option_not_table",
            r"option (?P<field>[a-z_]+): (?P<text>'.*') is not a table; "
            r"write PLAYERS=NUMBER pairs, e\.g\. 2=10, 3=7",
        ),
        (
            "ruleset_unknown_hint",
            r"unknown ruleset (?P<id>'[^']*'); did you mean (?P<close>'[^']*')\? known: (?P<known>.+)",
        ),
        (
            "option_unknown",
            r"unknown option (?P<key>'[^']*') for ruleset (?P<id>'[^']*'); known: (?P<known>.+)",
        ),
        (
            "options_invalid",
            r"invalid options for ruleset (?P<id>'[^']*'): (?P<m_problems>.+)",
        ),
        ("ruleset_file_invalid", r"invalid ruleset file (?P<path>'.*?'): (?P<m_problems>.+)"),
        ("rulesets_missing", r"the bundled rulesets folder is missing from this installation"),
        ("ruleset_unreadable", r"cannot read ruleset file (?P<path>'.*'): (?P<why>.+)"),
        ("ruleset_toml", r"ruleset file (?P<path>'.*') is not valid TOML: (?P<why>.+)"),
        ("ruleset_loop", r"ruleset files form a loop: (?P<chain>.+)"),
        ("ruleset_options_table", r"ruleset file (?P<path>'.*'): 'options' must be a table"),
        ("ruleset_unknown", r"unknown ruleset (?P<id>'[^']*'); known: (?P<known>.+)"),
        ("ruleset_no_file", r"ruleset file (?P<path>'.*') does not exist"),
        # -- the solver ---------------------------------------------------------------------------------
        ("discard_empty", r"cannot discard from an empty hand"),
        # -- Carousel tables (scorer/table.py) ----------------------------------------------------------
        ("no_table_rule", rf"table rearrangement is a Carousel rule; {_NAME} does not allow it"),
        ("table_meld_number", rf"table meld {_n('number')} is not legal: (?P<m_reason>.+)"),
        (
            "declare_table_joker",
            rf"declare the joker in table meld {_n('number')} \((?P<cards>[^()]*)\): "
            r"it could stand for (?P<l_choices>.+)",
        ),
        ("replaced_joker_stays", r"the joker replaced by (?P<card>\S+) must stay on the table this turn"),
        ("joker_left", r"a joker left the table: no card leaves the table"),
        ("cards_left", r"(?P<cards>.+) left the table: no card leaves the table"),
        ("hand_cards_unplaced", r"(?P<cards>.+) from the hand (?:is|are) not on the table after"),
        (
            "cards_from_nowhere",
            r"(?P<cards>.+) (?:is|are) on the table after, but neither on it before nor from "
            r"the hand",
        ),
        (
            "joker_keeps_card",
            r"the joker standing for (?P<card>\S+) cannot change its card unless the real \S+ "
            r"replaces it",
        ),
        (
            "jokers_keep_cards",
            r"the jokers standing for (?P<l_cards>.+) cannot all keep their cards at once: "
            r"a joker's card changes only when the real card replaces it",
        ),
        ("table_needs_hand", r"a rearrangement needs at least one card from the hand"),
        ("group_after", rf"group {_n('number')} after: (?P<m_reason>.+)"),
        ("first_meld_whole", r"a first meld must be a legal set or run from the hand"),
        # -- deal entries (scorer/deal.py, scorer/scoring.py) -------------------------------------------
        ("deal_number", rf"deal {_n('number')}: (?P<m_rest>.+)"),
        # An entry's field before its problem, matched before the patterns that start with a name.
        (
            "field",
            r"(?P<w_field>hands|points|deadwood|knocker|out|ended|one_turn|melds|big_gin|upcard|players"
            r"|first_dealer): (?P<m_rest>.+)",
        ),
        ("upcard_not_one", r"(?P<text>'.*') is not one card"),
        ("unknown_player", r"unknown player (?P<player>'.*'); the players are (?P<players>.+)"),
        ("points_not_number", r"(?P<player>.+)'s (?P<value>.+) is not a whole number of points"),
        ("points_negative", r"(?P<player>.+)'s (?P<value>-?\d+) is negative; points left are never negative"),
        ("deal_jokers", rf"{_n('count')} jokers, but {_NAME} with {_n('players')} players has {_n('most')}"),
        (
            "deal_card_one_deck",
            rf"(?P<card>\S+) is (?P<m_where>in .+|the upcard .+), but {_NAME} with "
            rf"{_n('players')} players plays with one deck",
        ),
        (
            "deal_card_decks",
            rf"(?P<card>\S+) is (?P<m_where>in .+|the upcard .+), but {_NAME} with "
            rf"{_n('players')} players plays with {_n('decks')} decks",
        ),
        (
            "deal_joker_none",
            rf"a joker (?P<m_where>in .+|the upcard .+), but {_NAME} with {_n('players')} players "
            r"has no jokers",
        ),
        # Where a card is: "in Bea's hand twice and in Cid's hand".
        (
            "where_and",
            r"(?P<m_first>in .+?'s hand(?: twice| \d+ times)?|the upcard) and (?P<m_rest>in .+|the upcard)",
        ),
        ("where_hand_times", rf"in (?P<player>.+)'s hand {_n('count')} times"),
        ("where_hand_twice", r"in (?P<player>.+)'s hand twice"),
        ("where_hand", r"in (?P<player>.+)'s hand"),
        ("where_upcard", r"the upcard"),
        (
            "points_over_hand",
            rf"(?P<player>.+)'s {_n('value')} is more than a hand of at most {_n('size')} cards can "
            rf"cost in {_NAME} \(at most {_n('most')}\)",
        ),
        (
            "deadwood_over_cards",
            rf"(?P<player>.+)'s {_n('value')} is more than {_n('size')} cards can cost in {_NAME} "
            rf"\(at most {_n('most')}\)",
        ),
        (
            "points_over_all",
            rf"{_n('total')} in all is more than the hands can cost together in {_NAME} with "
            rf"{_n('players')} players \(at most {_n('most')}\)",
        ),
        (
            "melds_over_hand",
            rf"(?P<player>.+)'s melds hold {_n('count')} cards; a hand in {_NAME} holds at most "
            rf"{_n('most')}",
        ),
        (
            "cards_over_hand",
            rf"(?P<w_what>.+?): {_n('count')} cards, but a hand in {_NAME} holds at most {_n('most')} "
            rf"\({_n('dealt')} dealt and {_n('drawn')} drawn in a turn\)",
        ),
        (
            "cards_over_meld",
            rf"(?P<w_what>.+?): {_n('count')} cards, but a meld in {_NAME} holds at most {_n('most')}",
        ),
        (
            "hand_over_most",
            rf"(?P<player>.+) holds {_n('count')} cards; a hand in {_NAME} holds at most {_n('most')}",
        ),
        ("melds_not_in_hand", r"(?P<player>.+)'s melds use (?P<cards>.+), which are not in .+'s hand"),
        # -- the league store (scorer/league): what the league and player screens can meet -------
        ("league_exists", rf"a league named (?P<value>{_REPR}) already exists"),
        ("season_exists", rf"league (?P<league>{_REPR}) already has a season named (?P<value>{_REPR})"),
        ("player_exists", rf"a player named (?P<value>{_REPR}) already exists"),
        ("same_player", rf"(?P<first>{_REPR}) and (?P<second>{_REPR}) are the same player already"),
        ("needs_name", r"a (?P<w_what>league|season|player) needs a name"),
        (
            "name_too_long",
            rf"(?P<w_what>league|season|player) name (?P<value>{_REPR})\.\.\. is too long "
            r"\(100 characters at most\)",
        ),
        ("season_closed", rf"season (?P<value>{_REPR}) is closed: its games are final"),
        ("memory_no_backup", r"a league kept in memory has no files to back up"),
        ("memory_no_restore", r"a league kept in memory has no files to restore"),
        ("memory_no_repair", r"a league kept in memory has no files to repair"),
        ("hands_or_points", r"a deal records either hands \(cards\) or points, not both"),
        ("ended_unknown", rf"(?P<value>'{_PART}') is not one of (?P<l_endings>{_PART})"),
        ("gin_entries", rf"dead, deadwood, big_gin, upcard and melds are gin entries, not {_NAME}'s"),
        ("out_and_ended", r"a deal either ends with someone out or ends (?P<value>'.*'), not both"),
        ("knock_and_ended", r"a deal either ends with a knock or ends (?P<value>'.*'), not both"),
        (
            "say_how_carousel",
            r"say who knocked \(knocker\), who went out \(out\) or how the deal ended \(ended\)",
        ),
        ("no_knocking", rf"{_NAME} has no knocking; say who went out \(out\)"),
        ("say_how", r"say who went out \(out\) or how the deal ended \(ended\)"),
        (
            "out_holds_cards",
            r"(?P<player>.+) went out but still holds (?P<cards>.+); going out empties the hand",
        ),
        (
            "out_has_points",
            rf"(?P<player>.+) went out but has {_n('points')} points; going out empties the hand",
        ),
        ("out_points_left", rf"(?P<player>.+) went out but has {_n('points')} points left"),
        ("no_entry", r"no entry for (?P<players>.+)"),
        ("gin_points", r"gin records deadwood \(the defender's after layoffs\), not points"),
        ("not_gin_entries", r"out, ended and one_turn are not gin entries: record the knocker, or dead"),
        ("dead_hand_empty", r"a dead hand has no knocker, hands or deadwood"),
        ("say_knocker_or_dead", r"say who knocked, or record a dead hand \(dead\)"),
        ("hands_or_deadwood", r"a deal records either hands \(cards\) or deadwood, not both"),
        ("hands_or_deadwood_needed", r"record both players' hands \(cards\) or their deadwood"),
        (
            "knocker_hand_size",
            rf"(?P<player>.+) has {_n('count')} cards; in {_NAME} the knocker spreads "
            rf"{_n('size')} cards \({_n('big')} for big gin\)",
        ),
        ("hand_size", rf"(?P<player>.+) has {_n('count')} cards; in {_NAME} a hand is {_n('size')} cards"),
        (
            "big_gin_with_hands",
            r"big_gin is for a deadwood entry; with hands, a fully melded extra card is big gin",
        ),
        (
            "ended_not_here_out",
            rf"(?P<value>'.*') does not end a deal in {_NAME}; a deal ends when someone "
            r"goes out",
        ),
        (
            "ended_not_here_empty",
            rf"(?P<value>'.*') does not end a deal in {_NAME}; a deal ends when someone "
            r"empties the hand",
        ),
        ("ended_not_here", rf"(?P<value>'.*') does not end a deal in {_NAME}"),
        ("say_out", r"say who went out"),
        ("no_one_turn_bonus", rf"{_NAME} has no bonus for going out in one turn"),
        ("say_knocker", r"say who knocked"),
        ("knock_illegal", r"(?P<player>.+)'s knock is illegal: (?P<m_reason>.+)"),
        (
            "deadwood_over_limit",
            rf"(?P<player>.+) knocked with {_n('points')}, over the knock limit of "
            rf"{_n('limit')} in {_NAME}",
        ),
        ("big_gin_deadwood", rf"(?P<player>.+) has {_n('points')} deadwood; big gin melds every card"),
        (
            "carousel_knock_limit",
            rf"(?P<player>.+)'s hand is worth {_n('points')}; a knock needs {_n('limit')} or "
            rf"less in {_NAME}",
        ),
        # -- what a deal scored (DealScore.events) ------------------------------------------------------
        ("event_going_rummy_double", rf"going rummy: x{_n('multiplier')} = {_n('total')}"),
        ("event_going_rummy_bonus", rf"going rummy: \+{_n('bonus')} = {_n('total')}"),
        ("event_block_penalty", r"blocked: every player loses the points in hand"),
        (
            "event_block_one",
            rf"blocked: (?P<player>.+) has the lowest hand \({_n('low')}\) and collects "
            rf"{_n('share')}",
        ),
        (
            "event_block_shared",
            rf"blocked: (?P<players>.+) share the lowest hand \({_n('low')}\): {_n('total')} "
            rf"split, {_n('share')} each",
        ),
        ("event_stop", r"stop: every player scores the points in hand"),
        ("event_out_collects", rf"(?P<player>.+) went out and collects {_n('total')}"),
        ("event_out_penalty", r"(?P<player>.+) went out; the others score the points left in hand"),
        ("event_melded_first", r"the others melded what they could before counting"),
        ("event_kalooki", rf"kalooki: every other player \+{_n('bonus')}"),
        ("event_dead_hand", r"dead hand: no score"),
        ("event_knock", rf"(?P<w_outcome>knock|gin|big gin|undercut): (?P<player>.+) scores {_n('points')}"),
        (
            "event_knock_tie",
            rf"(?P<player>.+) knocked and tied with (?P<players>.+), who win: \+{_n('bonus')} each",
        ),
        ("event_beat_knocker", rf"(?P<players>.+) beat the knocker (?P<player>.+): \+{_n('bonus')}"),
        ("event_stock_out", r"the stock ran out; after one more turn each, the lowest hand wins"),
        (
            "event_lowest",
            rf"(?P<player>.+) has the lowest hand \({_n('low')}\) and scores the differences, "
            rf"{_n('points')}",
        ),
        ("event_out_bonus", rf"(?P<player>.+) went out with no cards: \+{_n('bonus')}"),
        # -- games (scorer/game.py, scorer/gamefile.py) -------------------------------------------------
        ("player_name", r"a player needs a name"),
        ("players_twice", r"(?P<players>.+) named twice; each player needs their own name"),
        ("player_count", rf"{_n('count')} players, but {_NAME} is for (?P<allowed>\d+(?:-\d+)?) players"),
        ("player_count_one", rf"1 player, but {_NAME} is for (?P<allowed>\d+(?:-\d+)?) players"),
        ("not_a_seat", rf"{_n('seat')} is not a seat \(0-{_n('last')}\)"),
        ("game_over", rf"the game is already over after deal {_n('number')}"),
        ("no_such_deal", rf"there is no such deal \(the game has {_n('count')}\)"),
        # -- input beyond what a player could type or a file could hold (scorer/limits.py) ------------
        (
            "text_too_long",
            rf"(?P<w_what>cards|melds) (?P<text>{_QUOTED}): too long, at most (?P<most>[\d,]+) characters",
        ),
        ("file_folder", rf"cannot read (?P<w_file>{_FILE}) (?P<path>{_QUOTED}): it is a folder"),
        (
            "file_not_regular",
            rf"cannot read (?P<w_file>{_FILE}) (?P<path>{_QUOTED}): it is not a regular file",
        ),
        (
            "file_too_big_more",
            rf"(?P<w_file>{_FILE}) (?P<path>{_QUOTED}) is more than (?P<size>[\d,]+) bytes; "
            rf"a {_FILE} is at most (?P<most>[\d,]+) bytes",
        ),
        (
            "file_too_big",
            rf"(?P<w_file>{_FILE}) (?P<path>{_QUOTED}) is (?P<size>[\d,]+) bytes; a {_FILE} is at most "
            r"(?P<most>[\d,]+) bytes",
        ),
        (
            "file_not_utf8",
            rf"(?P<w_file>{_FILE}) (?P<path>{_QUOTED}) is not UTF-8 text: byte (?P<byte>[\d,]+) "
            r"\(line (?P<line>[\d,]+)\) cannot be read",
        ),
        (
            "file_nests",
            rf"(?P<w_file>{_FILE}) (?P<path>{_QUOTED}) nests (?P<depth>[\d,]+) levels deep; "
            r"a document nests at most (?P<most>\d+)",
        ),
        (
            "file_big_number",
            rf"(?P<w_file>{_FILE}) (?P<path>{_QUOTED}) holds a number too long to be a score",
        ),
        ("game_file_unreadable", r"cannot read game file (?P<path>'.*'): (?P<why>.+)"),
        (
            "game_file_json",
            rf"game file (?P<path>{_QUOTED}) is not JSON: (?P<why>.+) at line (?P<line>[\d,]+), "
            r"column (?P<column>[\d,]+)",
        ),
        ("bad_option", r"bad --option (?P<pair>'.*'): write it as KEY=VALUE, e\.g\. undercut_bonus=10"),
        # -- a document's problems in plain words (scorer/validation.py), after every other pattern --
        (
            "field_unknown_hint",
            r"unknown field (?P<field>'.*') \(did you mean (?P<close>'[^']*')\?\)",
        ),
        ("field_unknown", r"unknown field (?P<field>'.*')"),
        ("field_missing", r"missing field (?P<field>'.*')"),
        ("value_kind", rf"{_VALUE} is not (?P<m_kinds>{_KIND}(?: or {_KIND})*)"),
        ("kind_whole_number", r"a whole number"),
        ("kind_true_or_false", r"true or false"),
        ("kind_text", r"text"),
        ("kind_number", r"a number"),
        ("kind_table", r"a table of names and values"),
        ("kind_list", r"a list"),
        ("kind_empty", r"empty \(null\)"),
        ("kind_other", r"another kind of value"),
        ("kinds_or", rf"(?P<m_first>{_KIND}) or (?P<m_rest>.+)"),
        ("value_not_one_of", rf"{_VALUE} is not one of (?P<l_values>{_PART})"),
        ("value_only", rf"{_VALUE} is not (?P<expected>{_PART}), the only value allowed"),
        (
            "value_bound",
            rf"{_VALUE} is not allowed: it must be (?P<w_bound>at least|more than|at most|less than) "
            rf"(?P<bound>{_PART})",
        ),
        ("value_slug", rf"{_VALUE} may hold only lowercase letters, digits and '-'"),
        ("value_too_long", rf"{_VALUE} is too long: at most (?P<most>[\d,]+) characters"),
        ("entries_count", r"(?P<count>[\d,?]+) entries; (?P<w_bound>at most|at least) (?P<size>[\d,]+)"),
        ("value_not_here", rf"{_VALUE} is not allowed here"),
        ("more_problem", r"and 1 more problem"),
        ("more_problems", r"and (?P<more>\d+) more problems"),
        ("problem_at", r"(?P<place>[A-Za-z_][\w.]*): (?P<m_problem>.+)"),
    )
)

#: Message groups whose text is a list joined with these English words.
_LIST_WORDS: Final[tuple[str, ...]] = ("and", "or")
_SEPARATOR: Final = "; "


def engine_text(message: str, language: Language) -> str:
    """``message`` from the engine in ``language``; English, or an unknown message, unchanged."""
    if language == DEFAULT_LANGUAGE:
        return message
    return translate(message, language) or message


def translate(message: str, language: Language) -> str | None:
    """``message`` wholly translated, or ``None`` when some part of it matches no pattern."""
    if not message:
        return message
    for key, pattern in PATTERNS:
        match = pattern.fullmatch(message)
        if match is None:
            continue
        values = _values(match.groupdict(), language)
        if values is not None:
            return tr(f"engine.{key}", language, **values)
    # Several problems joined with "; ": translate each (a part may itself hold "; ").
    start = 0
    while (cut := message.find(_SEPARATOR, start)) != -1:
        head = translate(message[:cut], language)
        if head is not None:
            tail = translate(message[cut + len(_SEPARATOR) :], language)
            if tail is not None:
                return head + _SEPARATOR + tail
        start = cut + 1
    return None


def _values(groups: dict[str, str | None], language: Language) -> dict[str, str] | None:
    values: dict[str, str] = {}
    for name, text in groups.items():
        text = text or ""
        if name.startswith("m_"):
            inner = translate(text, language)
            if inner is None:
                return None
            values[name] = inner
        elif name.startswith("w_"):
            key = "engine.word." + text.replace(" ", "-")
            if key not in catalog()[language]:
                return None
            values[name] = tr(key, language)
        elif name.startswith("g_"):
            key = "engine.whose." + text
            if key not in catalog()[language]:
                return None
            values[name] = tr(key, language)
        elif name.startswith("l_"):
            values[name] = _list(text, language)
        else:
            values[name] = text
    return values


def _list(text: str, language: Language) -> str:
    for word in _LIST_WORDS:
        text = text.replace(f" {word} ", f" {tr('engine.word.' + word, language)} ")
    return text
