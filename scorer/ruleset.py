"""Rulesets: every number and switch of a variant, validated by pydantic.

A ruleset is data: at run time a plain frozen class (:class:`Ruleset`), and where it comes
from outside the program (a user's ruleset file, house-rule options, a stored snapshot)
checked by a pydantic model made from the same fields (:func:`schema`). The bundled rulesets
are part of the program and are built without it: a referee command never imports pydantic.

The variants live as TOML files in ``rulesets/`` (one per variant, each citing its source); a
file may start from another with ``base = "rommi"`` and override fields. House rules override
fields by name:

>>> gin = load_ruleset("gin", options={"undercut_bonus": "10"})
>>> gin.undercut_bonus
10
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any, Literal, get_args, get_origin

from scorer.cards import ACE, DECK, JACK, JOKER, Card, excess
from scorer.errors import IllegalPlayError, RulesetError, quote
from scorer.house_rules import NAMED_RULES, NamedRule, named_value, option_text
from scorer.limits import MAX_RULESET_BYTES, named_file, read_text, require_depth, require_path
from scorer.messages import DEFAULT_LANGUAGE, Message, Param, VariantName, Word, catalog, join

if TYPE_CHECKING:
    from pathlib import Path

    from pydantic import BaseModel
    from pydantic.fields import FieldInfo

AceMode = Literal["low", "low_or_high", "around_the_corner"]
Family = Literal["rummy", "gin", "carousel"]
Scoring = Literal["winner_collects", "penalty", "knock", "lowest_hand"]

#: Fields that identify a ruleset; house-rule options cannot change them.
IDENTITY_FIELDS = frozenset({"id", "name", "description", "family"})

#: The message code that says how aces play in runs, by ace mode.
ACE_MODE_CODE: dict[str, str] = {
    "low": "meld.ace_low",
    "low_or_high": "meld.ace_low_or_high",
    "around_the_corner": "meld.ace_around",
}


class _Field:
    """A field of :class:`Ruleset`: its default (or what makes one), its one-line meaning and
    the bounds pydantic checks (``ge``, ``le``, ``pattern``) where a ruleset comes from
    outside the program (:func:`schema`)."""

    __slots__ = ("constraints", "default", "default_factory", "description")

    def __init__(
        self, default: Any, default_factory: Callable[[], Any] | None, description: str, constraints: Any
    ) -> None:
        self.default, self.default_factory = default, default_factory
        self.description, self.constraints = description, constraints

    @property
    def required(self) -> bool:
        return self.default is _REQUIRED and self.default_factory is None

    def value(self) -> Any:
        """The default value (a new table each time, for a table)."""
        return self.default_factory() if self.default_factory is not None else self.default


#: No default: every ruleset file gives the field.
_REQUIRED: Any = object()


def _field(
    *,
    default: Any = _REQUIRED,
    default_factory: Callable[[], Any] | None = None,
    description: str,
    **bounds: Any,
) -> Any:
    """A field of :class:`Ruleset` as pydantic's ``Field`` writes one."""
    return _Field(default, default_factory, description, bounds)


class _ModelFields:
    """``Ruleset.model_fields``: the fields as pydantic describes them (annotation, default,
    description), from :func:`schema`; importing pydantic only when asked."""

    def __get__(self, instance: object, owner: type) -> dict[str, FieldInfo]:
        return schema().model_fields


class Ruleset:
    """One variant with its house rules. Field names are the option names.

    A plain frozen class, built from keyword arguments (every field without a default is
    required; an unknown one is a ``TypeError``), and compared by its fields. It is not a
    dataclass: making a dataclass of this many fields compiles its methods on every start, a
    tenth of a referee command's time. It answers to pydantic's names for what the program
    asks of it (:meth:`model_dump`, :meth:`model_copy`, :meth:`model_validate`,
    :attr:`model_fields`), so that it reads as the documents' models do; only the last two
    import pydantic.
    """

    #: The fields as pydantic describes them: ``Ruleset.model_fields["target"].description``.
    model_fields = _ModelFields()

    # identity
    id: str = _field(pattern=r"^[a-z0-9][a-z0-9-]*$", description="The ruleset's id: 'gin'.")
    name: str = _field(
        description="Name in running text, capitalised only where it is a proper name: 'gin rummy', "
        "'Kalooki' (a heading uses Ruleset.title: 'Gin rummy')."
    )
    description: str = _field(description="One line saying what sets the variant apart.")
    family: Family = _field(
        description="How a deal ends: going out (rummy), a knock (gin), Carousel's knock."
    )

    # players and cards
    players_min: int = _field(ge=2, description="Fewest players.")
    players_max: int = _field(ge=2, description="Most players.")
    decks: int = _field(ge=1, le=2, description="Decks used when the player count does not say.")
    decks_by_players: dict[int, int] = _field(
        default_factory=dict, description="Decks for a player count, where it differs (7=2)."
    )
    jokers_per_deck: int = _field(default=0, ge=0, le=2, description="Jokers in each deck (0: no jokers).")
    cards_dealt: dict[int, int] = _field(description="Cards dealt to each player, by player count (2=10).")
    cards_dealt_two_decks: int | None = _field(
        default=None, ge=1, description="Cards dealt to each player when two decks are used by choice."
    )

    # melds
    ace: AceMode = _field(
        description="Aces in runs: low (A-2-3), low_or_high (also Q-K-A), around_the_corner (also K-A-2)."
    )
    set_min: int = _field(default=3, ge=2, description="Fewest cards in a set.")
    set_max: int = _field(default=4, ge=2, description="Most cards in a set.")
    run_min: int = _field(default=3, ge=2, description="Fewest cards in a run.")
    run_max: int | None = _field(default=None, ge=2, description="Most cards in a run (none: no limit).")
    identical_cards_in_set: bool = _field(
        default=False, description="With two decks, the same card (rank and suit) may appear twice in a set."
    )
    joker_may_duplicate_in_meld: bool = _field(
        default=True,
        description="A joker may stand for a card already in its meld (false in Kalooki).",
    )
    meld_min_natural: int = _field(default=1, ge=1, description="Natural cards (not jokers) a meld needs.")

    # card points in hand (penalty / deadwood)
    ace_points: int = _field(default=1, ge=0, description="What an ace costs left in hand.")
    court_points: int = _field(default=10, ge=0, description="What a J, Q or K costs left in hand.")
    joker_points: int = _field(default=0, ge=0, description="What a joker costs left in hand.")

    # turn and table
    melds_per_turn: int | None = _field(
        default=None, ge=1, description="Melds a player may put down in one turn (none: any number)."
    )
    layoff_on_others: bool = _field(
        default=True, description="Cards may be laid off on other players' melds."
    )
    layoff_before_own_meld: bool = _field(
        default=True, description="A player may lay off on others' melds before their own first meld."
    )
    joker_exchange: bool = _field(
        default=False, description="A joker on the table may be taken by putting the real card in its place."
    )
    must_discard_to_go_out: bool = _field(
        default=False, description="The last card must be discarded, never melded."
    )
    discard_pile: bool = _field(default=True, description="There is a discard pile (false in Carousel).")
    discard_reuse: Literal["turn_over", "shuffle", "none"] = _field(
        default="turn_over",
        description="An empty stock: the discard pile is turned over, shuffled, or not reused (none).",
    )
    discard_draws_stock: bool = _field(
        default=False, description="Taking the discard also draws the top card of the stock (Boathouse)."
    )
    meld_whole_hand_first: bool = _field(
        default=False, description="Nobody melds until one player melds the whole hand at once (Boathouse)."
    )
    table_manipulation: bool = _field(
        default=False, description="Melds on the table may be rearranged when melding (Carousel)."
    )
    first_meld_whole: bool = _field(
        default=False, description="A first meld onto the table is a whole set or run from the hand."
    )
    draws_per_turn: int = _field(
        default=1, ge=1, description="Most cards drawn in a turn until the player melds."
    )

    # opening (Kalooki)
    opening_minimum: int = _field(
        default=0, ge=0, description="Least value of a player's first meld (0: none)."
    )
    opening_ace_points: int = _field(default=15, ge=0, description="What an ace counts towards an opening.")
    opening_court_points: int = _field(
        default=10, ge=0, description="What a J, Q or K counts towards an opening."
    )
    opening_counts_layoffs: bool = _field(
        default=True, description="Cards laid off on others' melds in the opening turn count towards it."
    )

    # how a deal ends and scores
    scoring: Scoring = _field(
        description="How a deal scores: winner_collects, penalty, knock (gin) or lowest_hand (Carousel)."
    )
    stop: bool = _field(
        default=False,
        description="The deal also ends when the stock is gone and everyone refuses the discard.",
    )
    block: bool = _field(
        default=False,
        description="An empty stock with the discard refused ends the deal and the hands count.",
    )
    block_scoring: Literal["difference", "penalty"] = _field(
        default="difference",
        description="A blocked deal: the lowest hand collects the differences, or nobody scores (penalty).",
    )
    going_rummy: Literal["off", "double", "bonus"] = _field(
        default="off",
        description="Going out in one turn with no earlier melds: no extra, doubled, or a bonus.",
    )
    going_rummy_multiplier: int = _field(
        default=2, ge=1, description="Going rummy multiplies the score by this."
    )
    going_rummy_bonus: int = _field(default=10, ge=0, description="Going rummy adds this bonus.")
    kalooki_bonus: int = _field(
        default=0,
        ge=0,
        description="Extra for every other player when someone goes out in one turn (Kalooki).",
    )

    # knocking
    knock_limit: int | None = _field(
        default=None, ge=0, description="Most deadwood a knocker may hold (0: gin only)."
    )
    knock_limit_source: Literal["fixed", "upcard"] = _field(
        default="fixed", description="The knock limit is fixed, or the first upcard's value (Oklahoma)."
    )
    ace_upcard_gin_only: bool = _field(
        default=False, description="An ace upcard means only gin ends the hand."
    )
    spade_doubles: bool = _field(default=False, description="A spade upcard multiplies the hand's score.")
    spade_multiplier: int = _field(
        default=2, ge=1, description="What a spade upcard multiplies the score by."
    )
    gin_bonus: int = _field(default=0, ge=0, description="Bonus for gin (all cards melded).")
    big_gin_bonus: int = _field(default=0, ge=0, description="Bonus for big gin (all 11 cards melded).")
    undercut_bonus: int = _field(
        default=0, ge=0, description="Bonus for the defender who undercuts the knocker."
    )
    undercut_on_tie: bool = _field(default=True, description="Equal deadwood is an undercut.")
    layoff_after_gin: bool = _field(default=False, description="The defender may lay off after gin too.")
    dead_hand_stock: int = _field(
        default=0, ge=0, description="Cards left in the stock at which an unfinished hand is dead."
    )
    not_knocker_bonus: int = _field(default=0, ge=0, description="Bonus for a deal winner who did not knock.")
    knock_tie_bonus: int = _field(
        default=0, ge=0, description="Bonus for a player whose hand ties the knocker's lowest hand."
    )
    going_out_bonus: int = _field(default=0, ge=0, description="Bonus for going out with no cards left.")
    stock_out_extra_turn: bool = _field(
        default=False, description="An empty stock gives everyone one more turn before the hands count."
    )

    # the game
    target: int | None = _field(
        default=None, ge=1, description="The game ends when a player reaches this (none: no target)."
    )
    deals: int | None = _field(
        default=None, ge=1, description="The game ends after this many deals (none: no limit)."
    )
    winner: Literal["highest", "lowest"] = _field(
        default="highest", description="The highest or lowest total wins."
    )
    game_bonus: int = _field(default=0, ge=0, description="Bonus for the player who reaches the target.")
    box_bonus: int = _field(
        default=0, ge=0, description="Bonus for each deal a player won, added at the end."
    )
    shutout: bool = _field(
        default=False, description="A winner whose opponent won no deal has points multiplied."
    )
    shutout_multiplier: int = _field(
        default=2, ge=1, description="What a shutout multiplies the winner's points by."
    )
    games: int = _field(default=1, ge=1, description="Games scored at once (3 in Hollywood gin).")

    # club nights
    handicap_per_mu: int = _field(
        default=0,
        ge=0,
        description="A handicapped club night: starting points per point of rating gap (0: no handicap).",
    )

    def __init__(self, **values: Any) -> None:
        for name, spec in _FIELDS.items():
            if name in values:
                value = values.pop(name)
            elif spec.required:
                raise TypeError(f"Ruleset: missing field {name!r}")
            else:
                value = spec.value()
            object.__setattr__(self, name, value)
        if values:
            raise TypeError(f"Ruleset: unknown field {next(iter(values))!r}")

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"a ruleset is frozen: {name!r} cannot be set (see model_copy)")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a ruleset is frozen: {name!r} cannot be deleted")

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return vars(self) == vars(other)

    def __repr__(self) -> str:
        return f"Ruleset({', '.join(f'{k}={v!r}' for k, v in vars(self).items())})"

    # -- pydantic's names ------------------------------------------------

    def model_dump(
        self, *, mode: Literal["python", "json"] = "python", exclude: Iterable[str] = ()
    ) -> dict[str, Any]:
        """The fields by name, tables copied; ``mode="json"`` writes a table's player counts
        as text (``{"2": 10}``), as JSON keeps them."""
        left_out = set(exclude)
        data: dict[str, Any] = {}
        for name, value in vars(self).items():
            if name in left_out:
                continue
            if isinstance(value, dict):
                value = {str(k) if mode == "json" else k: v for k, v in value.items()}
            data[name] = value
        return data

    def model_copy(self, *, update: Mapping[str, Any] | None = None) -> Ruleset:
        """A copy with ``update``'s fields changed, unchecked: for the program's own changes
        (house rules go through :meth:`with_options`)."""
        return Ruleset(**(vars(self) | dict(update or {})))

    @classmethod
    def model_validate(cls, data: Any) -> Ruleset:
        """A ruleset from outside the program, checked by :func:`schema` (raises pydantic's
        ``ValidationError``)."""
        checked = schema().model_validate(data)
        return cls(**{name: getattr(checked, name) for name in FIELD_NAMES})

    # -- derived values -------------------------------------------------

    @property
    def max_decks(self) -> int:
        return max([self.decks, *self.decks_by_players.values()])

    @property
    def max_jokers(self) -> int:
        return self.max_decks * self.jokers_per_deck

    def decks_for(self, players: int) -> int:
        return self.decks_by_players.get(players, self.decks)

    @property
    def title(self) -> str:
        """The name as a heading or a list shows it: 'Gin rummy', 'Kalooki'."""
        return self.name[:1].upper() + self.name[1:]

    @property
    def players_text(self) -> str:
        """'2 players' or '2-7 players', for messages."""
        if self.players_min == self.players_max:
            return f"{self.players_min} players"
        return f"{self.players_min}-{self.players_max} players"

    @property
    def largest_deal(self) -> int:
        """The most cards dealt to one player, for any number of players."""
        two_decks = [self.cards_dealt_two_decks] if self.cards_dealt_two_decks is not None else []
        return max([*self.cards_dealt.values(), *two_decks])

    @property
    def turn_draws(self) -> int:
        """Cards a hand takes in one turn before it melds or discards (taking the discard
        also draws a stock card where ``discard_draws_stock``)."""
        return self.draws_per_turn + int(self.discard_draws_stock)

    @property
    def max_hand(self) -> int:
        """The most cards a hand holds in a turn: the largest deal and one turn's draws.

        This is the hand the referee answers about (``arrange``, a meld's cards, a
        knock): 11 in gin, 16 in Kalooki, 13 in Carousel.
        """
        return self.largest_deal + self.turn_draws

    @property
    def hand_grows(self) -> bool:
        """Whether a hand can outgrow :attr:`max_hand` over a deal: without a discard pile
        every draw stays in the hand (Carousel), and a discard taken with a stock card
        adds one each time (Boathouse)."""
        return not self.discard_pile or self.discard_draws_stock

    @property
    def max_held(self) -> int:
        """The most cards one player can hold when a deal ends.

        :attr:`max_hand` where a hand cannot grow; where it can, every card of the
        decks except the other players' deals.
        """
        if not self.hand_grows:
            return self.max_hand
        return max(
            self.decks_for(players) * (len(DECK) + self.jokers_per_deck) - (players - 1) * dealt
            for players, dealt in self.cards_dealt.items()
        )

    @property
    def max_meld(self) -> int:
        """The most cards one meld can hold: the longest set or run the ruleset allows."""
        longest_run = len(DECK) // 4  # each rank once
        if self.run_max is not None:
            longest_run = min(longest_run, self.run_max)
        return max(self.set_max, longest_run)

    def most_points(self, cards: int, *, decks: int | None = None) -> int:
        """The most points ``cards`` cards can cost in hand: the dearest cards of the decks.

        ``decks`` defaults to the most the ruleset plays with. Gin: 10 cards cost at most
        100 (ten court cards).
        """
        count = self.max_decks if decks is None else decks
        return _most_points(
            cards, count, self.jokers_per_deck, self.joker_points, self.ace_points, self.court_points
        )

    @property
    def named(self) -> Param:
        """The variant's name as a message names it: a bundled variant's in the message's
        language (``ginirommi``), a ruleset file of the user's own as it names itself."""
        if catalog(DEFAULT_LANGUAGE).get(f"variant.{self.id}") == self.name:
            return VariantName(self.id, self.name)
        return self.name

    @property
    def ace_message(self) -> Message:
        """'aces are low in gin rummy', for verdicts."""
        return Message(ACE_MODE_CODE[self.ace], name=self.named)

    @property
    def ace_text(self) -> str:
        return str(self.ace_message)

    def points(self, card: Card) -> int:
        """What the card costs when left in hand."""
        return card_points(card, joker=self.joker_points, ace=self.ace_points, court=self.court_points)

    def hand_points(self, cards: Iterable[Card]) -> int:
        """What the cards cost together when left in hand."""
        return sum(self.points(card) for card in cards)

    def opening_points(self, card: Card) -> int:
        """What a natural card (or the card a joker stands for) counts towards an opening."""
        if card.rank == ACE:
            return self.opening_ace_points
        if card.rank >= JACK:
            return self.opening_court_points
        return card.rank

    def with_options(self, options: Mapping[str, Any]) -> Ruleset:
        """A copy with house-rule options applied; values may be text (``'10'``, ``'true'``).

        An option is a field by name (``ace_points=15``) or a named house rule
        (``high_ace=true``, :data:`scorer.house_rules.NAMED_RULES`) that sets every
        field it implies; a field given by name wins over a named rule's setting.
        """
        if not options:
            return self
        data = self.model_dump()
        data.update(_option_fields(options, ruleset_id=self.id, family=self.family, name=self.name))
        return _validate(
            data, invalid=lambda found: Message("ruleset.options_invalid", id=repr(self.id), problems=found)
        )


@cache
def _most_points(cards: int, decks: int, jokers_per_deck: int, joker: int, ace: int, court: int) -> int:
    """:meth:`Ruleset.most_points` from what it depends on: the dearest ``cards`` cards of
    ``decks`` decks with their jokers, at these points (the same few answers are asked for
    twice in every deal checked: sorting the decks' cards each time was most of a replay)."""
    supply = [*DECK * decks, *[JOKER] * (decks * jokers_per_deck)]
    costs = (card_points(card, joker=joker, ace=ace, court=court) for card in supply)
    return sum(sorted(costs, reverse=True)[:cards])


def card_points(card: Card, *, joker: int, ace: int, court: int) -> int:
    """What ``card`` costs in hand at these points for a joker, an ace and a court card (the
    rest count their rank): :meth:`Ruleset.points` with the ruleset's own."""
    if card.is_joker:
        return joker
    if card.rank == ACE:
        return ace
    if card.rank >= JACK:
        return court
    return card.rank


#: The fields of a ruleset by name, in order.
_FIELDS: dict[str, _Field] = {name: spec for name, spec in vars(Ruleset).items() if isinstance(spec, _Field)}
FIELD_NAMES: tuple[str, ...] = tuple(_FIELDS)

#: Every option name: the fields a house rule may set, and the named rules.
OPTION_NAMES = tuple(sorted({*FIELD_NAMES, *NAMED_RULES} - IDENTITY_FIELDS))


def _consistent(ruleset: Any) -> None:
    """Raise :class:`RulesetError` where fields disagree (fewer players at most than at
    least, a set's least size over its most, a table's decks out of range)."""
    if ruleset.players_min > ruleset.players_max:
        raise RulesetError(_order("players", ruleset.players_min, ruleset.players_max))
    if ruleset.set_min > ruleset.set_max:
        raise RulesetError(_order("set", ruleset.set_min, ruleset.set_max))
    if ruleset.run_max is not None and ruleset.run_min > ruleset.run_max:
        raise RulesetError(_order("run", ruleset.run_min, ruleset.run_max))
    for players, decks in ruleset.decks_by_players.items():
        if not 1 <= decks <= 2:
            raise RulesetError(Message("ruleset.decks_by_players", players=players, decks=decks))


@cache
def schema() -> type[BaseModel]:
    """The pydantic model that checks a ruleset from outside the program: :class:`Ruleset`'s
    fields with their types, defaults, meanings and bounds, and the checks across fields.

    Made on first use: importing pydantic and building its validator cost more than all the
    rest of a referee command's start.
    """
    from pydantic import BaseModel, ConfigDict, Field, create_model, model_validator

    class Checked(BaseModel):
        model_config = ConfigDict(extra="forbid", frozen=True)

        @model_validator(mode="after")
        def _agree(self) -> Checked:
            _consistent(self)
            return self

    types = _types()
    specs: dict[str, Any] = {}
    for name, spec in _FIELDS.items():
        given: dict[str, Any] = {}
        if spec.default is not _REQUIRED:
            given["default"] = spec.default
        if spec.default_factory is not None:
            given["default_factory"] = spec.default_factory
        info = Field(**given, description=spec.description, **spec.constraints)
        specs[name] = (types[name], info)
    model: type[BaseModel] = create_model("Ruleset", __base__=Checked, __doc__=Ruleset.__doc__, **specs)
    return model


def _option_fields(options: Mapping[str, Any], *, ruleset_id: str, family: Any, name: Any) -> dict[str, Any]:
    """The fields that ``options`` set: named rules first, then fields by name, which win."""
    named: dict[str, tuple[str, Any]] = {}
    direct: dict[str, Any] = {}
    for key, given in options.items():
        if key in IDENTITY_FIELDS:
            raise RulesetError(Message("ruleset.option_identity", key=repr(key)))
        rule = NAMED_RULES.get(key)
        if rule is not None:
            for field, value in _named_settings(rule, given, family=family, name=name).items():
                if field in named and named[field][0] != key:
                    raise RulesetError(
                        Message(
                            "ruleset.named_rules_clash",
                            rule=repr(named[field][0]),
                            other=repr(key),
                            field=repr(field),
                        )
                    )
                named[field] = (key, value)
        elif key in FIELD_NAMES:
            direct[key] = _option_value(key, given)
        else:
            from difflib import get_close_matches  # only for a mistyped option

            close = get_close_matches(key, OPTION_NAMES, n=1)
            listed = ruleset_id if ruleset_id in bundled_ids() else "FILE"
            if close:
                raise RulesetError(
                    Message(
                        "ruleset.option_unknown_hint",
                        key=quote(key),
                        id=repr(ruleset_id),
                        close=repr(close[0]),
                        listed=listed,
                    )
                )
            raise RulesetError(
                Message("ruleset.option_unknown_listed", key=quote(key), id=repr(ruleset_id), listed=listed)
            )
    return {field: value for field, (_, value) in named.items()} | direct


def _named_settings(rule: NamedRule, given: Any, *, family: Any, name: Any) -> Mapping[str, Any]:
    if family not in rule.families:
        games = join((Word(f) for f in sorted(rule.families)), last="and", each=True)
        raise RulesetError(
            Message("ruleset.house_rule_games", rule=repr(rule.name), games=games, name=str(name))
        )
    try:
        return rule.settings[named_value(rule, given)]
    except KeyError:
        values = ", ".join(option_text(v) for v in rule.settings)
        raise RulesetError(
            Message("ruleset.house_rule_value", rule=repr(rule.name), given=repr(given), values=values)
        ) from None


def _option_value(field: str, value: Any) -> Any:
    """An option's value as the field takes it; text may come from a command line.

    ``none`` or ``null`` is no value (no target, no limit) only for a field that
    may be empty; a field with a choice named ``none`` (``discard_reuse``) takes it
    as that choice. A table of numbers by player count is written ``2=10, 3=7``
    (``none``: an empty table).
    """
    if not isinstance(value, str):
        return value
    annotation = _types()[field]
    empty = value.strip().lower() in {"none", "null"}
    if empty and type(None) in get_args(annotation):
        return None
    if get_origin(annotation) is dict:
        return {} if empty else _mapping(field, value)
    if get_origin(annotation) is Literal and value.strip().lower() in get_args(annotation):
        return value.strip().lower()  # a choice in any case: 'Low_or_high'
    return value


@cache
def _types() -> dict[str, Any]:
    """Each field's type (``int | None``, ``dict[int, int]``, a ``Literal`` of choices)."""
    from typing import get_type_hints

    return get_type_hints(Ruleset)


def _mapping(field: str, text: str) -> dict[str, str]:
    pairs: dict[str, str] = {}
    for part in text.replace(",", " ").split():
        key, sep, value = part.partition("=")
        if not sep or not key or not value:
            raise RulesetError(Message("ruleset.option_not_table", field=field, text=repr(text[:60])))
        pairs[key] = value
    return pairs


def _order(what: str, least: int, most: int) -> Message:
    return Message(f"ruleset.{what}_min_over_max", least=least, most=most)


def _validate(data: Mapping[str, Any], *, invalid: Callable[[Message], Message]) -> Ruleset:
    from pydantic import ValidationError  # only for a ruleset from outside the program

    try:
        return Ruleset.model_validate(dict(data))
    except ValidationError as exc:
        from scorer.validation import problems

        raise RulesetError(invalid(problems(exc, model=schema()))) from None


def _file_invalid(path: str) -> Callable[[Message], Message]:
    return lambda found: Message("ruleset.ruleset_file_invalid", path=f"'{path}'", problems=found)


def _named(what: Param) -> Param:
    """An input's name in a message: a word of the catalog, or a message given whole."""
    return Word(what) if isinstance(what, str) else what


def require_hand_fits(
    cards: Sequence[Card], ruleset: Ruleset, *, what: str | Message, meld: bool = False
) -> None:
    """Raise :class:`IllegalPlayError` when ``cards`` are more than a hand in a turn (or, with
    ``meld``, a meld) holds under ``ruleset``: the referee answers about no larger hand.

    ``what`` names the input in the message: ``'CARDS: 60 cards, but a hand in Carousel
    holds at most 13 (10 dealt and 3 drawn in a turn)'``.
    """
    if meld:
        if len(cards) > ruleset.max_meld:
            raise IllegalPlayError(
                Message(
                    "deal.cards_over_meld",
                    what=_named(what),
                    count=len(cards),
                    name=ruleset.named,
                    most=ruleset.max_meld,
                )
            )
        return
    if len(cards) > ruleset.max_hand:
        raise IllegalPlayError(
            Message(
                "deal.cards_over_hand",
                what=_named(what),
                count=len(cards),
                name=ruleset.named,
                most=ruleset.max_hand,
                dealt=ruleset.largest_deal,
                drawn=ruleset.turn_draws,
            )
        )


def require_card_supply(cards: Iterable[Card], ruleset: Ruleset, *, where: str | Message) -> None:
    """Raise :class:`IllegalPlayError` when ``cards`` hold more copies than the decks do.

    ``where`` completes the message: ``'6H 3 times in the melds and layoffs, ...'``.
    A joker is a joker here, whatever it was declared as.
    """
    found = excess(cards, copies=ruleset.max_decks, jokers=ruleset.max_jokers)
    if found is None:
        return
    card, count = found
    place, name = _named(where), ruleset.named
    if card.is_joker and ruleset.max_jokers == 0:
        raise IllegalPlayError(Message("ruleset.supply_no_jokers", where=place, name=name))
    if card.is_joker:
        raise IllegalPlayError(
            Message("ruleset.supply_jokers", count=count, where=place, name=name, most=ruleset.max_jokers)
        )
    shown = str(card)
    if ruleset.max_decks == 1:
        if count == 2:
            raise IllegalPlayError(Message("ruleset.supply_twice", card=shown, where=place, name=name))
        raise IllegalPlayError(
            Message("ruleset.supply_times_one_deck", card=shown, count=count, where=place, name=name)
        )
    # Two decks or more: a card is too many only at three copies or more.
    raise IllegalPlayError(
        Message(
            "ruleset.supply_cards", card=shown, count=count, where=place, name=name, decks=ruleset.max_decks
        )
    )


# -- finding and loading ruleset files -----------------------------------------


def rulesets_dir() -> Path:
    """The folder of the bundled variant files, in a wheel or in a checkout."""
    from pathlib import Path

    return Path(_rulesets_folder())


def _rulesets_folder() -> str:
    # Read as files, not through importlib.resources: the wheel installs them as files, and
    # importing importlib.resources costs every command a noticeable share of its start; and
    # with os.path, not pathlib, which a referee command would import for this alone.
    here = os.path.dirname(os.path.realpath(__file__))
    for folder in (os.path.join(here, "rulesets"), os.path.join(os.path.dirname(here), "rulesets")):
        if os.path.isdir(folder):
            return folder
    raise RulesetError(Message("ruleset.rulesets_missing"))


def _stem(path: str | Path) -> str:
    """The file's name without its suffix, as ``Path.stem``: ``gin`` for ``.../gin.toml``."""
    return os.path.splitext(os.path.basename(path))[0]


def _read_toml(path: str | Path, *, bundled: bool) -> dict[str, Any]:
    """The file's TOML, read within the limits of :mod:`scorer.limits`; a ``bundled`` file
    in the plain form by :func:`read_plain_ruleset`."""
    text = read_text(path, what="ruleset file", limit=MAX_RULESET_BYTES, error=RulesetError)
    if bundled:
        try:
            return read_plain_ruleset(text)
        except ValueError:
            pass  # a line outside the plain form: TOML reads the file
    require_depth(text, what=named_file("ruleset file", path), syntax="toml")
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesetError(Message("ruleset.ruleset_toml", path=quote(str(path)), why=str(exc))) from None


def read_plain_ruleset(text: str) -> dict[str, Any]:
    """A ruleset file written in the plain form the bundled files keep to, read fast;
    ``ValueError`` for any line outside that form (then ``tomllib`` reads the file).

    Every referee command reads a bundled ruleset, and importing a TOML parser costs it more
    than reading the file. The plain form: ``key = value`` lines, the value a whole number,
    ``true``, ``false`` or a string with no quote, backslash or control character in it;
    ``[table]`` lines, each opening a table of such lines; comments on lines of their own.
    A test requires this and ``tomllib`` to read every bundled file alike.
    """
    data: dict[str, Any] = {}
    table = data
    for line in text.split("\n"):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("[") and line.endswith("]"):
            name = line[1:-1]
            if not (name.isascii() and name.isidentifier()) or name in data:
                raise ValueError(line)
            table = data[name] = {}
            continue
        key, equals, value = line.partition(" = ")
        if not (equals and key.isascii() and key.replace("_", "a").isalnum()) or key in table:
            raise ValueError(line)
        table[key] = _plain_value(value)
    return data


def _plain_value(text: str) -> int | bool | str:
    if text in ("true", "false"):
        return text == "true"
    if text.isascii() and text.isdigit() and (text == "0" or not text.startswith("0")):
        return int(text)
    if len(text) > 1 and text[0] == text[-1] == '"' and text.isprintable():
        inside = text[1:-1]
        if '"' not in inside and "\\" not in inside:
            return inside
    raise ValueError(text)


def _raw(path: str | Path, *, bundled: bool, seen: tuple[str, ...] = ()) -> dict[str, Any]:
    """The file's fields with its base (``base = "id"``) and ``[options]`` merged in."""
    if str(path) in seen:
        chain = " -> ".join(os.path.basename(p) for p in (*seen, str(path)))
        raise RulesetError(Message("ruleset.ruleset_loop", chain=chain))
    data = _read_toml(path, bundled=bundled)
    base_id = data.pop("base", None)
    options = data.pop("options", {})
    if not isinstance(options, dict):
        raise RulesetError(Message("ruleset.ruleset_options_table", path=f"'{path}'"))
    merged: dict[str, Any] = {}
    if base_id is not None:
        require_path(str(base_id), what=Message("ruleset.base_of", path=quote(os.path.basename(path))))
        merged.update(_raw(_bundled_path(str(base_id)), bundled=True, seen=(*seen, str(path))))
        merged.pop("description", None)
    merged.update(data)
    ruleset_id = str(merged.get("id", _stem(path)))
    family, name = merged.get("family"), merged.get("name", ruleset_id)
    merged.update(_option_fields(options, ruleset_id=ruleset_id, family=family, name=name))
    return merged


def _bundled_path(ruleset_id: str) -> str:
    """The bundled file of ``ruleset_id``, matched case-insensitively (``Gin`` is ``gin``)."""
    known = bundled_ids()
    wanted = ruleset_id.strip().lower()
    if wanted not in known:
        from difflib import get_close_matches  # only for a mistyped id

        close = get_close_matches(wanted, known, n=1)
        listed = ", ".join(known)
        if close:
            raise RulesetError(
                Message(
                    "ruleset.ruleset_unknown_hint", id=repr(ruleset_id), close=repr(close[0]), known=listed
                )
            )
        raise RulesetError(Message("ruleset.ruleset_unknown", id=repr(ruleset_id), known=listed))
    return os.path.join(_rulesets_folder(), f"{wanted}.toml")


def bundled_ids() -> tuple[str, ...]:
    # The files glob("*.toml") finds: a name starting with a dot is none of them.
    names = os.listdir(_rulesets_folder())
    return tuple(sorted(name[: -len(".toml")] for name in names if name.endswith(".toml") and name[0] != "."))


@cache
def _load_bundled(ruleset_id: str) -> Ruleset:
    """A bundled ruleset, built from its file without running the validator.

    The bundled files are part of the program: the test suite validates every one of them and
    requires this to give the very same ruleset (tests/test_rulesets.py). Building pydantic's
    validator is most of what a referee command would spend starting; a user's file and any
    option still go through it.
    """
    path = _bundled_path(ruleset_id)
    return _trusted(_raw(path, bundled=True))


def _trusted(data: Mapping[str, Any]) -> Ruleset:
    given = dict(data)
    for name in ("cards_dealt", "decks_by_players"):
        if name in given:
            given[name] = {int(players): value for players, value in given[name].items()}
    return Ruleset(**given)


def validated_bundled(ruleset_id: str) -> Ruleset:
    """A bundled ruleset read as a user's file is (its TOML by ``tomllib``, its fields through
    the validator): for the tests."""
    path = _bundled_path(ruleset_id)
    return _validate(_raw(path, bundled=False), invalid=_file_invalid(os.path.basename(path)))


def load_ruleset(id_or_path: str | Path, *, options: Mapping[str, Any] | None = None) -> Ruleset:
    """A bundled ruleset by id (``'gin'``), or a user's ruleset file by path.

    A user's file has the same fields; it may start from a bundled one with
    ``base = "gin"`` and may carry an ``[options]`` table.
    """
    text = str(id_or_path)
    require_path(text, what=Word("ruleset id or path"))
    if not isinstance(id_or_path, str) or text.endswith(".toml") or "/" in text or "\\" in text:
        from pathlib import Path  # a user's file, named as pathlib writes its path

        path = Path(text)
        if not path.is_file():
            raise RulesetError(Message("ruleset.ruleset_no_file", path=f"'{text}'"))
        ruleset = _validate(_raw(path, bundled=False), invalid=_file_invalid(text))
    else:
        ruleset = _load_bundled(_stem(_bundled_path(text)))
    return ruleset.with_options(options or {})


def all_rulesets() -> tuple[Ruleset, ...]:
    return tuple(_load_bundled(i) for i in bundled_ids())
