"""Rulesets: every number and switch of a variant, validated by pydantic.

A ruleset is data. The variants live as TOML files in ``rulesets/`` (one per
variant, each citing its source); a file may start from another with
``base = "rommi"`` and override fields. House rules override fields by name:

>>> gin = load_ruleset("gin", options={"undercut_bonus": "10"})
>>> gin.undercut_bonus
10
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping
from difflib import get_close_matches
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from scorer.cards import ACE, DECK, JACK, JOKER, Card, excess
from scorer.errors import IllegalPlayError, RulesetError, quote
from scorer.limits import MAX_RULESET_BYTES, read_text, require_depth, require_path
from scorer.validation import problems

AceMode = Literal["low", "low_or_high", "around_the_corner"]
Family = Literal["rummy", "gin", "carousel"]
Scoring = Literal["winner_collects", "penalty", "knock", "lowest_hand"]

#: Fields that identify a ruleset; house-rule options cannot change them.
IDENTITY_FIELDS = frozenset({"id", "name", "description", "family"})

ACE_MODE_TEXT: dict[str, str] = {
    "low": "aces are low",
    "low_or_high": "aces are low or high but a run cannot turn the corner",
    "around_the_corner": "aces are low or high and runs may turn the corner",
}


class Ruleset(BaseModel):
    """One variant with its house rules. Field names are the option names."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    # identity
    id: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    name: str = Field(description="Name used in verdicts: 'aces are low in gin rummy'.")
    description: str
    family: Family

    # players and cards
    players_min: int = Field(ge=2)
    players_max: int = Field(ge=2)
    decks: int = Field(ge=1, le=2, description="Decks used when the player count does not say.")
    decks_by_players: dict[int, int] = Field(default_factory=dict)
    jokers_per_deck: int = Field(default=0, ge=0, le=2)
    cards_dealt: dict[int, int]
    cards_dealt_two_decks: int | None = Field(default=None, ge=1)

    # melds
    ace: AceMode
    set_min: int = Field(default=3, ge=2)
    set_max: int = Field(default=4, ge=2)
    run_min: int = Field(default=3, ge=2)
    run_max: int | None = Field(default=None, ge=2)
    identical_cards_in_set: bool = False
    joker_may_duplicate_in_meld: bool = Field(
        default=True,
        description="False: a joker may not stand for a card already in its meld (Kalooki).",
    )
    meld_min_natural: int = Field(default=1, ge=1, description="Natural cards a meld needs.")

    # card points in hand (penalty / deadwood)
    ace_points: int = Field(default=1, ge=0)
    court_points: int = Field(default=10, ge=0, description="J, Q and K.")
    joker_points: int = Field(default=0, ge=0)

    # turn and table
    melds_per_turn: int | None = Field(default=None, ge=1)
    layoff_on_others: bool = True
    layoff_before_own_meld: bool = True
    joker_exchange: bool = False
    must_discard_to_go_out: bool = False
    discard_pile: bool = True
    discard_reuse: Literal["turn_over", "shuffle", "none"] = "turn_over"
    discard_draws_stock: bool = False
    meld_whole_hand_first: bool = False
    table_manipulation: bool = False
    first_meld_whole: bool = Field(default=False, description="First meld is a set or run.")
    draws_per_turn: int = Field(default=1, ge=1)

    # opening (Kalooki)
    opening_minimum: int = Field(default=0, ge=0)
    opening_ace_points: int = Field(default=15, ge=0)
    opening_court_points: int = Field(default=10, ge=0)
    opening_counts_layoffs: bool = True

    # how a deal ends and scores
    scoring: Scoring
    stop: bool = False
    block: bool = False
    block_scoring: Literal["difference", "penalty"] = "difference"
    going_rummy: Literal["off", "double", "bonus"] = "off"
    going_rummy_multiplier: int = Field(default=2, ge=1)
    going_rummy_bonus: int = Field(default=10, ge=0)
    kalooki_bonus: int = Field(default=0, ge=0)

    # knocking
    knock_limit: int | None = Field(default=None, ge=0)
    knock_limit_source: Literal["fixed", "upcard"] = "fixed"
    ace_upcard_gin_only: bool = False
    spade_doubles: bool = False
    spade_multiplier: int = Field(default=2, ge=1)
    gin_bonus: int = Field(default=0, ge=0)
    big_gin_bonus: int = Field(default=0, ge=0)
    undercut_bonus: int = Field(default=0, ge=0)
    undercut_on_tie: bool = True
    layoff_after_gin: bool = False
    dead_hand_stock: int = Field(default=0, ge=0)
    not_knocker_bonus: int = Field(default=0, ge=0)
    knock_tie_bonus: int = Field(default=0, ge=0)
    going_out_bonus: int = Field(default=0, ge=0)
    stock_out_extra_turn: bool = False

    # the game
    target: int | None = Field(default=None, ge=1)
    deals: int | None = Field(default=None, ge=1)
    winner: Literal["highest", "lowest"] = "highest"
    game_bonus: int = Field(default=0, ge=0)
    box_bonus: int = Field(default=0, ge=0)
    shutout: bool = False
    shutout_multiplier: int = Field(default=2, ge=1)
    games: int = Field(default=1, ge=1)

    @model_validator(mode="after")
    def _consistent(self) -> Ruleset:
        if self.players_min > self.players_max:
            raise ValueError(f"players_min {self.players_min} > players_max {self.players_max}")
        if self.set_min > self.set_max:
            raise ValueError(f"set_min {self.set_min} > set_max {self.set_max}")
        if self.run_max is not None and self.run_min > self.run_max:
            raise ValueError(f"run_min {self.run_min} > run_max {self.run_max}")
        for players, decks in self.decks_by_players.items():
            if not 1 <= decks <= 2:
                raise ValueError(f"decks_by_players[{players}] = {decks}: one or two decks")
        return self

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
        supply = [*DECK * count, *[JOKER] * (count * self.jokers_per_deck)]
        return sum(sorted((self.points(card) for card in supply), reverse=True)[:cards])

    @property
    def ace_text(self) -> str:
        """'aces are low in gin rummy', for verdicts."""
        return f"{ACE_MODE_TEXT[self.ace]} in {self.name}"

    def points(self, card: Card) -> int:
        """What the card costs when left in hand."""
        if card.is_joker:
            return self.joker_points
        if card.rank == ACE:
            return self.ace_points
        if card.rank >= JACK:
            return self.court_points
        return card.rank

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
        """A copy with house-rule options applied; values may be text (``'10'``, ``'true'``)."""
        if not options:
            return self
        for key in options:
            if key in IDENTITY_FIELDS:
                raise RulesetError(f"option {key!r} cannot be changed: it names the ruleset")
            if key not in Ruleset.model_fields:
                known = sorted(set(Ruleset.model_fields) - IDENTITY_FIELDS)
                close = get_close_matches(key, known, n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else " (an option is a ruleset field's name)"
                raise RulesetError(f"unknown option {quote(key)} for ruleset {self.id!r}{hint}")
        data = self.model_dump()
        data.update({k: _option_value(v) for k, v in options.items()})
        return _validate(data, origin=f"options for ruleset {self.id!r}")


def _option_value(value: Any) -> Any:
    """Option text from a command line: 'none' means no value (no target, no limit)."""
    if isinstance(value, str) and value.strip().lower() in {"none", "null"}:
        return None
    return value


def _validate(data: Mapping[str, Any], *, origin: str) -> Ruleset:
    try:
        return Ruleset.model_validate(dict(data))
    except ValidationError as exc:
        raise RulesetError(f"invalid {origin}: {problems(exc, model=Ruleset)}") from None


def require_card_supply(cards: Iterable[Card], ruleset: Ruleset, *, where: str) -> None:
    """Raise :class:`IllegalPlayError` when ``cards`` hold more copies than the decks do.

    ``where`` completes the message: ``'6H 3 times in the melds and layoffs, ...'``.
    A joker is a joker here, whatever it was declared as.
    """
    found = excess(cards, copies=ruleset.max_decks, jokers=ruleset.max_jokers)
    if found is None:
        return
    card, count = found
    if card.is_joker and ruleset.max_jokers == 0:
        raise IllegalPlayError(f"a joker {where}, and {ruleset.name} has no jokers")
    if card.is_joker:
        raise IllegalPlayError(f"{count} jokers {where}, and {ruleset.name} plays with {ruleset.max_jokers}")
    decks = "one deck" if ruleset.max_decks == 1 else f"{ruleset.max_decks} decks"
    times = "twice" if count == 2 else f"{count} times"
    raise IllegalPlayError(f"{card} {times} {where}, and {ruleset.name} plays with {decks}")


# -- finding and loading ruleset files -----------------------------------------


def rulesets_dir() -> Path:
    """The folder of the bundled variant files, in a wheel or in a checkout."""
    bundled = resources.files("scorer") / "rulesets"
    if bundled.is_dir():
        return Path(str(bundled))
    checkout = Path(__file__).resolve().parent.parent / "rulesets"
    if checkout.is_dir():
        return checkout
    raise RulesetError("the bundled rulesets folder is missing from this installation")


def _read_toml(path: Path) -> dict[str, Any]:
    """The file's TOML, read within the limits of :mod:`scorer.limits`."""
    text = read_text(path, what="ruleset file", limit=MAX_RULESET_BYTES, error=RulesetError)
    shown = f"ruleset file {quote(str(path))}"
    require_depth(text, what=shown, syntax="toml")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesetError(f"{shown} is not valid TOML: {exc}") from None


def _raw(path: Path, *, seen: tuple[Path, ...] = ()) -> dict[str, Any]:
    """The file's fields with its base (``base = "id"``) and ``[options]`` merged in."""
    if path in seen:
        chain = " -> ".join(p.name for p in (*seen, path))
        raise RulesetError(f"ruleset files form a loop: {chain}")
    data = _read_toml(path)
    base_id = data.pop("base", None)
    options = data.pop("options", {})
    if not isinstance(options, dict):
        raise RulesetError(f"ruleset file '{path}': 'options' must be a table")
    merged: dict[str, Any] = {}
    if base_id is not None:
        require_path(str(base_id), what=f"base of ruleset file {quote(path.name)}")
        merged.update(_raw(_bundled_path(str(base_id)), seen=(*seen, path)))
        merged.pop("description", None)
    merged.update(data)
    merged.update(options)
    return merged


def _bundled_path(ruleset_id: str) -> Path:
    path = rulesets_dir() / f"{ruleset_id}.toml"
    if not path.is_file():
        known = ", ".join(bundled_ids())
        raise RulesetError(f"unknown ruleset {ruleset_id!r}; known: {known}")
    return path


def bundled_ids() -> tuple[str, ...]:
    return tuple(sorted(p.stem for p in rulesets_dir().glob("*.toml")))


@cache
def _load_bundled(ruleset_id: str) -> Ruleset:
    path = _bundled_path(ruleset_id)
    return _validate(_raw(path), origin=f"ruleset file '{path.name}'")


def load_ruleset(id_or_path: str | Path, *, options: Mapping[str, Any] | None = None) -> Ruleset:
    """A bundled ruleset by id (``'gin'``), or a user's ruleset file by path.

    A user's file has the same fields; it may start from a bundled one with
    ``base = "gin"`` and may carry an ``[options]`` table.
    """
    text = str(id_or_path)
    require_path(text, what="ruleset id or path")
    if isinstance(id_or_path, Path) or text.endswith(".toml") or "/" in text or "\\" in text:
        path = Path(text)
        if not path.is_file():
            raise RulesetError(f"ruleset file '{text}' does not exist")
        ruleset = _validate(_raw(path), origin=f"ruleset file '{text}'")
    else:
        ruleset = _load_bundled(text)
    return ruleset.with_options(options or {})


def all_rulesets() -> tuple[Ruleset, ...]:
    return tuple(_load_bundled(i) for i in bundled_ids())
