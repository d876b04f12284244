"""The New game screen's state: variant, house rules, players in seating order, first dealer.

The model decides nothing about the rules: a house rule's value is checked by loading the
ruleset with it (:func:`scorer.ruleset.load_ruleset`), the players by the engine's
:class:`scorer.game.Game` when the store starts the game.

>>> model = NewGameModel(ruleset_id="gin")
>>> model.set_player(0, "Anna"); model.set_player(1, "Bea")
>>> model.set_rule("target", "150")
>>> model.rule("target").in_use
'150'
>>> game_id = model.start(Store.memory())
>>> model.error
''
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final, get_args

import flet as ft

from scorer.errors import ScorerError
from scorer.league.errors import LookAlikeError
from scorer.league.store import Store
from scorer.names import name_key
from scorer.ruleset import Ruleset, Scoring, all_rulesets, bundled_ids, load_ruleset

DEFAULT_RULESET: Final = "rommi"

#: The house rules the New game screen offers, by how the variant scores. Each is a ruleset
#: field (its value is the option); its one-line explanation is ``new_game.rule.<field>``.
HOUSE_RULES: Final[dict[Scoring, tuple[str, ...]]] = {
    "winner_collects": (
        "target",
        "going_rummy",
        "going_rummy_multiplier",
        "going_rummy_bonus",
        "block_scoring",
    ),
    "penalty": ("target", "ace_points", "court_points", "joker_points", "kalooki_bonus", "stop"),
    "knock": (
        "target",
        "knock_limit",
        "gin_bonus",
        "big_gin_bonus",
        "undercut_bonus",
        "undercut_on_tie",
        "game_bonus",
        "box_bonus",
        "shutout",
        "spade_doubles",
    ),
    "lowest_hand": (
        "target",
        "knock_limit",
        "not_knocker_bonus",
        "knock_tie_bonus",
        "going_out_bonus",
        "game_bonus",
    ),
}

#: Every house-rule field any variant offers (the catalog test checks each has its text).
ALL_HOUSE_RULES: Final[tuple[str, ...]] = tuple(dict.fromkeys(f for fs in HOUSE_RULES.values() for f in fs))


def option_text(value: Any) -> str:
    """A ruleset value as the screen shows and edits it: ``true``, ``100``, ``none``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    return str(value)


def _choices(name: str) -> tuple[str, ...]:
    """The allowed values of a field that takes one of a few words (``going_rummy``), or ()."""
    annotation = Ruleset.model_fields[name].annotation
    args = get_args(annotation)
    if args and all(isinstance(a, str) for a in args):
        return tuple(str(a) for a in args)
    if annotation is bool:
        return ("true", "false")
    return ()


@dataclass(frozen=True, slots=True)
class HouseRule:
    """One house rule as the screen shows it."""

    name: str
    default: str
    in_use: str
    choices: tuple[str, ...]  # empty: a number typed in
    error: str

    @property
    def changed(self) -> bool:
        return self.in_use != self.default


@dataclass(frozen=True, slots=True)
class VariantChoice:
    id: str
    name: str
    description: str


def variant_choices() -> tuple[VariantChoice, ...]:
    return tuple(VariantChoice(r.id, r.name, r.description) for r in all_rulesets())


@dataclass(eq=False)
class NewGameModel(ft.Observable):
    """What the table chose so far; :meth:`start` asks the store to start the game."""

    ruleset_id: str = DEFAULT_RULESET
    rules: dict[str, str] = field(default_factory=dict)  # field -> text, only those changed
    players: list[str] = field(default_factory=lambda: ["", ""])
    first_dealer: int = 0
    league: str = ""
    season: str = ""
    error: str = ""
    #: A new name that looks just like a player's (``Аnna``, ``Anna``), asked about before starting.
    look_alike: tuple[str, str] | None = None
    #: New names the table said are different people from the players they look like.
    new_players: tuple[str, ...] = ()

    # -- variant and house rules -------------------------------------------------------------

    @property
    def ruleset(self) -> Ruleset:
        """The variant with every valid house-rule change applied."""
        return load_ruleset(self.ruleset_id, options=self.options)

    @property
    def base(self) -> Ruleset:
        return load_ruleset(self.ruleset_id)

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
        base = self.base
        return tuple(self.rule(name) for name in HOUSE_RULES[base.scoring])

    def rule(self, name: str) -> HouseRule:
        base = self.base
        default = option_text(getattr(base, name))
        text = self.rules.get(name)
        error = ""
        in_use = default
        if text is not None:
            try:
                in_use = option_text(getattr(load_ruleset(self.ruleset_id, options={name: text}), name))
            except ScorerError as exc:
                error = str(exc)
        return HouseRule(name=name, default=default, in_use=in_use, choices=_choices(name), error=error)

    def set_rule(self, name: str, text: str) -> None:
        if name not in HOUSE_RULES[self.base.scoring]:
            return
        text = text.strip()
        rules = dict(self.rules)
        if text == option_text(getattr(self.base, name)):
            rules.pop(name, None)
        else:
            rules[name] = text
        self.rules = rules
        self.error = ""

    @property
    def options(self) -> dict[str, Any]:
        """The valid changed house rules as the game file keeps them (typed values)."""
        chosen: dict[str, Any] = {}
        for name in self.rules:
            rule = self.rule(name)
            if rule.error:
                continue
            value = getattr(load_ruleset(self.ruleset_id, options={name: self.rules[name]}), name)
            chosen[name] = value
        return chosen

    # -- players ----------------------------------------------------------------------------

    def set_player(self, seat: int, name: str) -> None:
        if 0 <= seat < len(self.players):
            players = list(self.players)
            players[seat] = name
            self.players = players
            self.error = ""

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
            if self.first_dealer >= len(self.players):
                self.first_dealer = 0

    def move_player(self, seat: int, step: int) -> None:
        """Swap a player with the neighbour ``step`` seats away (seating order)."""
        other = seat + step
        if 0 <= seat < len(self.players) and 0 <= other < len(self.players):
            players = list(self.players)
            players[seat], players[other] = players[other], players[seat]
            self.players = players

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
