"""A playtest: one finished prison break as the designers' notebook keeps it.

A playtest is a game script (the format ``companion replay`` reads) holding the whole rules and
only the commands that stand (undone ones are dropped), plus where it came from, whether bots
played it (a rehearsal) and the day it ended. Its ``key`` is a content hash of the scenario, the
rules, the group's size and the commands with every name replaced by its seat, so the same game
is one game whether it comes from a session file, a script or an anonymous export.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from typing_extensions import TypeIs

from companion.rules.core.game import History, Refused
from companion.rules.core.roster import RosterError, check_roster, name_key
from companion.rules.core.scenario import ScenarioError
from companion.rules.core.scripts import ScriptError, check_keys, parse_commands, play_commands
from companion.rules.prison.engine import PRISON_BREAK, new_game
from companion.rules.prison.epilogue import epilogue_view, steps
from companion.rules.prison.epilogue_phrases import step_phrases
from companion.rules.prison.scenario import RULE_KEYS, PrisonRules, with_overrides
from companion.rules.prison.state import PrisonState

GAME = "prison-break"
SCRIPT_KEYS = {"game", "scenario", "rules", "warden", "prisoners", "commands"}
NAME_FIELDS = ("prisoner", "accuser", "accused")
WARDEN_SEAT = "Warden"


class PlaytestError(ValueError):
    """A game the notebook cannot take: one sentence (what, where, what to do)."""


def seat(index: int) -> str:
    return f"Seat {index + 1}"


@dataclass(frozen=True)
class Playtest:
    scenario: str
    rules: dict[str, Any]  # every rule parameter (RULE_KEYS)
    warden: str
    prisoners: list[str]
    commands: list[dict[str, Any]]  # the commands that stand, in order
    rehearsal: bool = False
    played: str | None = None  # the day the game ended (YYYY-MM-DD), when known
    source: str = ""
    state: PrisonState | None = field(default=None, compare=False, repr=False)
    lang: str = field(default="en", compare=False)  # the session's language: the epilogue's

    @property
    def size(self) -> int:
        return len(self.prisoners)

    @property
    def key(self) -> str:
        anonymous = self.anonymous()
        body = {
            "scenario": anonymous.scenario,
            "rules": anonymous.rules,
            "prisoners": anonymous.size,
            "commands": anonymous.commands,
        }
        text = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]

    def final(self) -> PrisonState:
        """The game's final state (replayed once, then kept)."""
        if self.state is not None:
            return self.state
        state = replay(self.scenario_rules(), self.warden, self.prisoners, self.commands)
        object.__setattr__(self, "state", state)
        return state

    def scenario_rules(self) -> PrisonRules:
        return PrisonRules.model_validate({"game": GAME, **self.rules})

    def anonymous(self) -> Playtest:
        """The same game with the warden called "Warden" and each prisoner by their seat."""
        seats = {name_key(self.warden): WARDEN_SEAT}
        seats |= {name_key(n): seat(i) for i, n in enumerate(self.prisoners)}
        commands = [
            {k: seats.get(name_key(v), v) if k in NAME_FIELDS and isinstance(v, str) else v
             for k, v in c.items()}
            for c in self.commands
        ]
        return Playtest(
            self.scenario, self.rules, WARDEN_SEAT, [seat(i) for i in range(self.size)],
            commands, self.rehearsal, self.played, "", self.state, self.lang,
        )

    def script(self) -> dict[str, Any]:
        """The game as a script ``companion replay`` plays."""
        return {
            "game": GAME, "scenario": self.scenario, "rules": self.rules, "warden": self.warden,
            "prisoners": self.prisoners, "commands": self.commands,
        }

    def record(self) -> dict[str, Any]:
        """What the notebook writes for this game (an import, an export's entry)."""
        return {
            "playtest": self.key, "rehearsal": self.rehearsal, "played": self.played,
            "source": self.source, "script": self.script(), "language": self.lang,
            "epilogue": self.epilogue(),
        }

    def epilogue(self) -> list[dict[str, Any]]:
        """What really happened, step by step as the room was shown it, in the session's
        language, with the names this record has (an anonymous one: the seats)."""
        from companion.language import language

        state = replay(self.scenario_rules(), self.warden, self.prisoners, self.commands)
        view = epilogue_view(state, steps(state))
        if view is None:
            return []
        _ = language(self.lang)
        return [
            {"head": _.say(head), "lines": [_.say(line) for line in lines]}
            for head, lines in step_phrases(view)
        ]


def replay(
    rules: PrisonRules, warden: str, prisoners: list[str], commands: list[dict[str, Any]]
) -> PrisonState:
    history = History(PRISON_BREAK, new_game(rules, warden, prisoners))
    for command in commands:
        result = history.submit(PRISON_BREAK.parse_command(command))
        if isinstance(result, Refused):
            raise PlaytestError(f"a recorded command was refused on replay: {command}")
    return history.state


def standing(history: History[PrisonState, Any, Any]) -> list[dict[str, Any]]:
    """The commands of a history that are not undone, as dicts."""
    undone = {e.reverts for e in history.entries if e.kind == "undo"}
    return [
        PRISON_BREAK.command_to_dict(e.command)
        for e in history.entries
        if e.kind == "command" and e.command is not None and e.seq not in undone
    ]


def finished(
    state: PrisonState, history: History[PrisonState, Any, Any], scenario: str, where: str,
    *, rehearsal: bool = False, played: str | None = None, source: str = "",
) -> Playtest:
    if not state.over:
        raise PlaytestError(
            f"{where} holds a game that is not finished (day {state.day.number}, "
            f"{state.phase}); finish it before it can count as a playtest."
        )
    rules = state.rules.model_dump()
    return Playtest(
        scenario, {k: rules[k] for k in RULE_KEYS}, state.warden, list(state.roster),
        standing(history), rehearsal, played, source, state,
    )


def from_script(
    data: Mapping[str, Any], load_scenario: Callable[[str], PrisonRules], where: str,
    *, rehearsal: bool = False, played: str | None = None,
) -> Playtest:
    """A finished game from a game script (rejected commands are left out, as in a replay)."""
    try:
        if data.get("game", GAME) != GAME:
            raise ScriptError(f"The script is a {data.get('game')!r} game, not a prison break.")
        check_keys(data, SCRIPT_KEYS, ("scenario", "warden", "prisoners", "commands"))
        name = data["scenario"]
        if not isinstance(name, str):
            raise ScriptError("The script's 'scenario' must be a scenario name such as "
                              "\"classic\".")
        rules = load_scenario(name)
        overrides = data.get("rules") or {}
        if not isinstance(overrides, Mapping):
            raise ScriptError("The script's 'rules' must be an object of scenario parameters.")
        if overrides:
            rules = with_overrides(rules, overrides, "The script's 'rules'")
        warden, prisoners = check_roster(
            data["warden"], data["prisoners"], rules.min_prisoners, rules.max_prisoners
        )
        parsed = parse_commands(PRISON_BREAK, data["commands"])
    except (ScriptError, ScenarioError, RosterError) as error:
        raise PlaytestError(f"{where}: {error}") from None
    history = History(PRISON_BREAK, new_game(rules, warden, prisoners))
    play_commands(history, parsed)
    return finished(history.state, history, name, where, rehearsal=rehearsal, played=played,
                    source=where)


def _known(lang: object) -> TypeIs[str]:
    """Whether ``lang`` names a language the catalogs have (a record from elsewhere may not)."""
    from companion.language import SOURCE, available

    return isinstance(lang, str) and (lang == SOURCE or lang in available())


def from_record(
    data: Mapping[str, Any], load_scenario: Callable[[str], PrisonRules], where: str
) -> Playtest:
    """A game the notebook wrote (an import or an export's entry)."""
    script = data.get("script")
    if not isinstance(script, Mapping):
        raise PlaytestError(f"{where} is not a playtest the notebook wrote (no 'script').")
    played = data.get("played")
    rules = script.get("rules")
    if isinstance(rules, Mapping) and set(RULE_KEYS) <= set(rules):
        # Every number is in the record: the scenario file need not exist on this laptop.
        own = {k: rules[k] for k in RULE_KEYS}

        def load_scenario(name: str) -> PrisonRules:  # noqa: ARG001 - the record's own rules
            try:
                return PrisonRules.model_validate({"game": GAME, **own})
            except ValueError:
                raise ScenarioError("its rules are not valid prison-break rules") from None

    lang = data.get("language")
    game = from_script(
        script, load_scenario, where, rehearsal=bool(data.get("rehearsal")),
        played=played if isinstance(played, str) else None,
    )
    return replace(game, lang=lang) if _known(lang) else game


def from_session_file(path: Path) -> Playtest | None:
    """The finished prison break in a session file; ``None`` for another game or a game still
    being played; PlaytestError when the file cannot be read."""
    from companion.session.prison import is_prison
    from companion.session.session import Session
    from companion.session.store import StoreError

    try:
        session = Session.open(path)
    except StoreError as error:
        raise PlaytestError(str(error)) from None
    try:
        if not is_prison(session) or not session.state.over:
            return None
        meta = session.settings
        played = session.rows[-1].at[:10] if session.rows else None
        game = finished(
            session.state, session.history, str(session.setup.get("scenario", "classic")),
            str(path), rehearsal=bool(meta.get("rehearsal")), played=played, source=str(path),
        )
        lang = meta.get("lang")
        return replace(game, lang=lang) if _known(lang) else game
    finally:
        session.close()
