"""Scenario parameters of the two-prisoner dilemma warm-up, validated strictly.

Reading the TOML file is the job of :mod:`companion.session.scenario_files`; this module only
validates data that is already parsed (``companion scenarios`` calls :func:`check_scenario`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal

from pydantic import Field, model_validator

from companion.rules.core.parsing import StrictModel
from companion.rules.core.scenario import validated
from companion.rules.dilemma.strategies import DEFAULT, Strategy

MAX_PLAYERS = 1000


class Sentences(StrictModel):
    """Months served after one round, for each outcome of a pair."""

    both_silent: int = Field(ge=0, le=1200)
    both_betray: int = Field(ge=0, le=1200)
    betrayer: int = Field(ge=0, le=1200)
    betrayed: int = Field(ge=0, le=1200)

    @model_validator(mode="after")
    def _a_dilemma(self) -> Sentences:
        if not self.betrayer < self.both_silent < self.both_betray < self.betrayed:
            raise ValueError(
                "the sentences must rise from betrayer to both_silent to both_betray to "
                f"betrayed (now {self.betrayer}, {self.both_silent}, {self.both_betray}, "
                f"{self.betrayed}), or betraying is not tempting and there is no dilemma"
            )
        return self

    def months(self, mine: str, theirs: str) -> int:
        """The months I serve when I chose ``mine`` and my partner ``theirs``."""
        if mine == "silent":
            return self.both_silent if theirs == "silent" else self.betrayed
        return self.betrayer if theirs == "silent" else self.both_betray


class DilemmaRules(StrictModel):
    """Every number the dilemma tournament plays by."""

    game: Literal["dilemma"] = "dilemma"
    description: str = ""
    rounds: int = Field(ge=1, le=100)
    min_players: int = Field(default=2, ge=2, le=MAX_PLAYERS)
    max_players: int = Field(default=MAX_PLAYERS, ge=2, le=MAX_PLAYERS)
    # Months for a round missed (joined late, away): "mean" is the round's played sentences'
    # mean, rounded to whole months, so a missed round neither rewards nor punishes; a number
    # is served as it is (older sessions kept 1).
    sitting_out: Annotated[int, Field(ge=0, le=1200)] | Literal["mean"] = "mean"
    sentences: Sentences
    house: Strategy = DEFAULT  # the house player's strategy, who fills an odd room's empty seat
    # Seconds per round (the round closes at zero), or none for no timer.
    round_seconds: int | None = Field(default=None, ge=10, le=3600)
    # What a player who gives no answer serves as: their partner's sentence is decided as if
    # they had made this choice, and the boards say "no answer".
    no_answer: Literal["silent", "betray"] = "silent"

    @model_validator(mode="after")
    def _players_range(self) -> DilemmaRules:
        if self.max_players < self.min_players:
            raise ValueError(
                f"max_players ({self.max_players}) is smaller than min_players ({self.min_players})"
            )
        return self


def rules_from_mapping(data: Mapping[str, Any], where: str) -> DilemmaRules:
    """Parsed scenario data as the rules, or ScenarioError naming ``where``."""
    return validated(DilemmaRules, data, where)


def with_rounds(rules: DilemmaRules, rounds: int, where: str) -> DilemmaRules:
    """The same rules with another number of rounds, validated as strictly as a file."""
    merged = rules.model_dump()
    merged["rounds"] = rounds
    return rules_from_mapping(merged, where)


def check_scenario(data: Mapping[str, Any], where: str) -> str:
    """Validate a parsed dilemma scenario; a one-line summary, or ScenarioError."""
    r = rules_from_mapping(data, where)
    s = r.sentences
    return (
        f"two-prisoner dilemma for {r.min_players}-{r.max_players} players, {r.rounds} rounds; "
        f"months: both silent {s.both_silent}, both betray {s.both_betray}, "
        f"betrayer {s.betrayer}, betrayed {s.betrayed}"
    )
