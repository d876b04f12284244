"""The New game screen's state: variant, house rules, players in seating order, first dealer.

The model decides nothing about the rules: the house rules offered are those the rulebook
lists for the variant (:func:`scorer.house_rules.house_rules_of`), a house rule's value is
checked by loading the ruleset with it (:func:`scorer.ruleset.load_ruleset`), the players by
the engine's :class:`scorer.game.Game` when the store starts the game.

>>> model = NewGameModel(ruleset_id="gin")
>>> model.set_player(0, "Anna"); model.set_player(1, "Bea")
>>> model.set_rule("target", "150")
>>> model.rule("target").in_use
150
>>> game_id = model.start(Store.memory())
>>> model.error
''
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final, get_args

import flet as ft

from scorer.errors import ScorerError
from scorer.house_rules import NAMED_RULES, current_value, house_rules_of, option_text
from scorer.league.errors import LookAlikeError
from scorer.league.store import Store
from scorer.names import InvalidNameError, clean_name, name_key
from scorer.ruleset import Ruleset, all_rulesets, bundled_ids, load_ruleset
from scorer.ruleset_text import option_label, option_meaning, value_text, variant_description, variant_title
from scorer.ui.i18n import Language, tr

DEFAULT_RULESET: Final = "rommi"


def _choices(name: str) -> tuple[Any, ...]:
    """The values of a house rule that takes one of a few (``going_rummy``, a yes-or-no rule),
    as the ruleset holds them; () for a number typed in."""
    rule = NAMED_RULES.get(name)
    if rule is not None:
        return tuple(rule.settings)
    annotation = Ruleset.model_fields[name].annotation
    args = get_args(annotation)
    if args and all(isinstance(a, str) for a in args):
        return args
    if annotation is bool:
        return (True, False)
    return ()


def _may_be_empty(name: str) -> bool:
    """Whether a field may hold no value (``target``: no target), so an empty field says so."""
    return name not in NAMED_RULES and type(None) in get_args(Ruleset.model_fields[name].annotation)


def _option(name: str, text: str) -> str:
    """A field's text as ``--option`` takes it: an empty field is no value (no target, no
    limit) where the rule may have none, in any language; the field itself stays as typed."""
    typed = text.strip()
    return "none" if not typed and _may_be_empty(name) else typed


def _shown(value: Any) -> str:
    """A value as its field shows it: as typed, and no value as an empty field."""
    return "" if value is None else option_text(value)


def _value(ruleset: Ruleset, name: str) -> Any:
    """The value of house rule ``name`` in ``ruleset``: a field's value, or the value of a named
    rule its fields hold (``None`` where they hold none of its settings)."""
    rule = NAMED_RULES.get(name)
    if rule is None:
        return getattr(ruleset, name)
    return current_value(rule, ruleset.model_dump())


@dataclass(frozen=True, slots=True)
class HouseRule:
    """One house rule as the screen shows it: values as the ruleset holds them (``True``,
    ``500``, ``None``); :func:`scorer.ruleset_text.value_text` words them in a language."""

    name: str
    default: Any  # the variant's own value
    in_use: Any  # with every valid change the table made (a named rule may change a field)
    text: str  # what the field shows: what was typed, else the value in use as typed ('' for none)
    choices: tuple[Any, ...]  # the values to choose from; empty: a number typed in
    error: str

    @property
    def changed(self) -> bool:
        return bool(self.in_use != self.default)

    def label(self, language: Language) -> str:
        return option_label(self.name, language)

    def meaning(self, language: Language) -> str:
        """One line on what the rule does (a named rule's fields are rows of their own)."""
        # A field emptied is no value: said in the screen's words, not as --option takes it.
        return option_meaning(self.name, language, fields=False, none=tr("new_game.empty_value", language))

    def status(self, language: Language) -> str:
        """The default, and the value in use where the table changed it, in words:
        ``oletus: ei``, ``käytössä: 150 (oletus: 100)``."""
        default = value_text(self.name, self.default, language)
        if not self.changed:
            return tr("new_game.rule_default", language, value=default)
        in_use = value_text(self.name, self.in_use, language)
        return tr("new_game.rule_changed", language, value=in_use, default=default)

    def choice_texts(self, language: Language) -> tuple[tuple[str, str], ...]:
        """(value as typed, value in words) of each choice, for a picker."""
        return tuple((option_text(c), value_text(self.name, c, language)) for c in self.choices)


@dataclass(frozen=True, slots=True)
class VariantChoice:
    """A variant in the picker; ``name`` and ``description`` remember their messages, so the
    screen shows them in its language (:func:`scorer.ui.engine_text.engine_text`)."""

    id: str
    name: str
    description: str


def variant_choices() -> tuple[VariantChoice, ...]:
    return tuple(VariantChoice(r.id, variant_title(r), variant_description(r)) for r in all_rulesets())


@dataclass(eq=False)
class NewGameModel(ft.Observable):
    """What the table chose so far; :meth:`start` asks the store to start the game."""

    ruleset_id: str = DEFAULT_RULESET
    rules: dict[str, str] = field(default_factory=dict)  # field -> text as typed, only those changed
    players: list[str] = field(default_factory=lambda: ["", ""])
    first_dealer: int = 0
    league: str = ""
    season: str = ""
    error: str = ""
    #: A new name that looks just like a player's (``Аnna``, ``Anna``), asked about before starting.
    look_alike: tuple[str, str] | None = None
    #: New names the table said are different people from the players they look like.
    new_players: tuple[str, ...] = ()
    #: Why a seat's name was refused (seat -> the engine's message), shown under that seat.
    seat_errors: dict[int, str] = field(default_factory=dict)

    # -- variant and house rules -------------------------------------------------------------

    @property
    def ruleset(self) -> Ruleset:
        """The variant with every valid house-rule change applied."""
        return self._with(self.options) or self.base

    @property
    def base(self) -> Ruleset:
        return load_ruleset(self.ruleset_id)

    def _with(self, options: dict[str, Any]) -> Ruleset | None:
        """The variant with ``options``; ``None`` where they are not valid."""
        try:
            return load_ruleset(self.ruleset_id, options=options)
        except ScorerError:
            return None

    def choose_ruleset(self, ruleset_id: str) -> None:
        if ruleset_id == self.ruleset_id or ruleset_id not in bundled_ids():
            return
        self.ruleset_id = ruleset_id
        self.rules = {}
        self.error = ""
        base = self.base
        while len(self.players) < base.players_min:
            self.players = [*self.players, ""]
        if len(self.players) > base.players_max:
            self.players = self.players[: base.players_max]
        self.first_dealer = min(self.first_dealer, len(self.players) - 1)

    def house_rules(self) -> tuple[HouseRule, ...]:
        """The house rules the rulebook lists for the variant (:func:`scorer.house_rules.house_rules_of`)."""
        base, in_use = self.base, self.ruleset
        return tuple(self._rule(name, base, in_use) for name in house_rules_of(self.ruleset_id))

    def rule(self, name: str) -> HouseRule:
        return self._rule(name, self.base, self.ruleset)

    def _rule(self, name: str, base: Ruleset, in_use: Ruleset) -> HouseRule:
        text = self.rules.get(name)
        error = ""
        if text is not None:
            try:
                load_ruleset(self.ruleset_id, options={name: _option(name, text)})
            except ScorerError as exc:
                error = str(exc)
        value = _value(in_use, name)
        return HouseRule(
            name=name,
            default=_value(base, name),
            in_use=value,
            text=_shown(value) if text is None else text,
            choices=_choices(name),
            error=error,
        )

    def set_rule(self, name: str, text: str) -> None:
        """Change a house rule the variant offers; a change that leaves the rules as they
        were (the default typed back) is dropped."""
        if name not in house_rules_of(self.ruleset_id):
            return
        others = {key: value for key, value in self.rules.items() if key != name}
        rules = {**others, name: text}  # as typed: an emptied field stays empty
        valid = self._valid(rules)
        without = self._with(self._valid(others))
        same = name in valid and without is not None and without == self._with(valid)
        self.rules = others if same else rules
        self.error = ""

    def _valid(self, rules: dict[str, str]) -> dict[str, Any]:
        """The rules of ``rules`` that are valid each on its own, as typed values."""
        chosen: dict[str, Any] = {}
        for name, text in rules.items():
            ruleset = self._with({name: _option(name, text)})
            if ruleset is not None:
                chosen[name] = _value(ruleset, name)
        return chosen

    @property
    def options(self) -> dict[str, Any]:
        """The valid changed house rules as the game file keeps them (typed values)."""
        return self._valid(self.rules)

    # -- players ----------------------------------------------------------------------------

    def set_player(self, seat: int, name: str) -> None:
        if 0 <= seat < len(self.players):
            players = list(self.players)
            players[seat] = name
            self.players = players
            self.error = ""
            if seat in self.seat_errors:
                self.seat_errors = {s: e for s, e in self.seat_errors.items() if s != seat}

    def _refused_names(self) -> dict[int, str]:
        """Each seat whose name the rule of names refuses (:func:`scorer.names.clean_name`):
        the seat, and why."""
        refused = {}
        for seat, name in enumerate(self.players):
            try:
                clean_name(name, what="player")
            except InvalidNameError as exc:
                refused[seat] = str(exc)
        return refused

    def can_add_player(self) -> bool:
        return len(self.players) < self.base.players_max

    def can_remove_player(self) -> bool:
        return len(self.players) > self.base.players_min

    def add_player(self, name: str = "") -> None:
        if self.can_add_player():
            self.players = [*self.players, name]

    def seat_known(self, name: str) -> None:
        """A known player taps in: the first empty seat, or a new one."""
        if name in self.players:
            return
        for seat, current in enumerate(self.players):
            if not current.strip():
                self.set_player(seat, name)
                return
        self.add_player(name)

    def remove_player(self, seat: int) -> None:
        if self.can_remove_player() and 0 <= seat < len(self.players):
            self.players = [p for i, p in enumerate(self.players) if i != seat]
            self.seat_errors = {}
            if self.first_dealer >= len(self.players):
                self.first_dealer = 0

    def move_player(self, seat: int, step: int) -> None:
        """Swap a player with the neighbour ``step`` seats away (seating order)."""
        other = seat + step
        if 0 <= seat < len(self.players) and 0 <= other < len(self.players):
            players = list(self.players)
            players[seat], players[other] = players[other], players[seat]
            self.players = players
            self.seat_errors = {}

    def set_first_dealer(self, seat: int) -> None:
        if 0 <= seat < len(self.players):
            self.first_dealer = seat

    def set_league(self, league: str) -> None:
        self.league = league

    def set_season(self, season: str) -> None:
        self.season = season

    def same_person(self) -> None:
        """The answer to :attr:`look_alike`: it is that player; the seat takes their name."""
        if self.look_alike is not None:
            name, existing = self.look_alike
            self.players = [existing if name_key(p) == name_key(name) else p for p in self.players]
            self.look_alike = None

    def different_person(self) -> None:
        """The answer to :attr:`look_alike`: a new player who only looks like one already here."""
        if self.look_alike is not None:
            self.new_players = (*self.new_players, self.look_alike[0])
            self.look_alike = None

    # -- starting ---------------------------------------------------------------------------

    def start(self, store: Store, *, by: str | None = None) -> str | None:
        """Start the game on the store (signed ``by``); its id, or ``None`` with :attr:`error` saying why."""
        broken = [rule for rule in self.house_rules() if rule.error]
        if broken:
            self.error = broken[0].error
            return None
        self.seat_errors = self._refused_names()
        if self.seat_errors:  # said under each seat concerned; nothing is started
            self.error = ""
            return None
        try:
            saved = store.start_game(
                ruleset=self.ruleset_id,
                players=[p.strip() for p in self.players],
                options=self.options,
                league=self.league.strip() or None,
                season=self.season.strip() or None,
                first_dealer=self.first_dealer,
                by=by,
                new_players=self.new_players,
            )
        except LookAlikeError as exc:  # asked, never decided for the table
            self.look_alike, self.error = (exc.name, exc.existing), ""
            return None
        except ScorerError as exc:
            self.error = str(exc)
            return None
        self.error = ""
        return saved.id


def known_players(store: Store) -> list[str]:
    """The league store's players by name (for tapping into a seat)."""
    return sorted((p.name for p in store.players()), key=str.casefold)


def known_leagues(store: Store) -> list[str]:
    return [league.name for league in store.leagues()]
