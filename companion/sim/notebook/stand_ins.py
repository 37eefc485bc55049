"""Games played by bots standing in for a table, written as game scripts: for trying the
notebook before any real table has played, and for its tests."""

from __future__ import annotations

import random
from typing import Any

from companion.rules.prison.commands import PrisonCommand
from companion.rules.prison.engine import PRISON_BREAK
from companion.rules.prison.scenario import RULE_KEYS, PrisonRules
from companion.sim.learned import mix_named
from companion.sim.runner import play_game


def bot_script(
    scenario: str, rules: PrisonRules, warden: str, prisoners: list[str], *,
    mix: str = "standard", seed: int | str = 1,
) -> dict[str, Any]:
    """A whole game played by bots with these names, as the script ``companion replay``
    reads (the rules written out in full)."""
    log: list[PrisonCommand] = []
    play_game(rules, len(prisoners), mix_named(mix), random.Random(f"stand-in/{seed}"),
              log=log, names=list(prisoners), warden=warden)
    dump = rules.model_dump()
    return {
        "scenario": scenario,
        "rules": {k: dump[k] for k in RULE_KEYS},
        "warden": warden,
        "prisoners": list(prisoners),
        "commands": [PRISON_BREAK.command_to_dict(c) for c in log],
    }
