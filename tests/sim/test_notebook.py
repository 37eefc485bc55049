"""The notebook's pieces: what a game shows of how it was played, a playtest's key, the charts
and the verdicts."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

from companion.rules.core.game import History, Refused
from companion.rules.prison.commands import PrisonCommand
from companion.rules.prison.engine import PRISON_BREAK, new_game
from companion.rules.prison.scenario import with_overrides
from companion.session.prison.scenarios import load_named_scenario, load_scenario
from companion.sim.measures import measure
from companion.sim.notebook.charts import rate_chart
from companion.sim.notebook.figures import Figures
from companion.sim.notebook.playtest import from_script
from companion.sim.notebook.verdicts import verdicts
from companion.sim.runner import play_game
from companion.sim.stats import wilson
from companion.sim.strategies.mixes import MIXES
from companion.sim.strategies.prisoners import Habits, Habitual
from companion.sim.strategies.yard import Plan

ROSTER = ["Ada", "Ben", "Cy", "Dee"]
GAME = [
    {"do": "choose", "prisoner": "Ada", "choice": "work"},
    {"do": "choose", "prisoner": "Ben", "choice": "work"},
    {"do": "close_planning"},
    {"do": "interview", "prisoner": "Cy", "deal": True},
    {"do": "search", "prisoner": "Ben"},
    {"do": "accuse", "accuser": "Dee", "accused": "Cy"},
    {"do": "end_day"},
    {"do": "choose", "prisoner": "Ada", "choice": "work"},
    {"do": "choose", "prisoner": "Dee", "choice": "work"},
    {"do": "close_planning"},
    {"do": "interview", "prisoner": "Ada", "deal": False},
    {"do": "search", "prisoner": "Ada"},
]


def script(names: list[str] = ROSTER, warden: str = "Wendy") -> dict[str, object]:
    seats = dict(zip(ROSTER, names, strict=True))
    commands = [{k: seats.get(v, v) if isinstance(v, str) and k != "do" else v
                 for k, v in c.items()} for c in GAME]
    return {"scenario": "classic", "rules": {"nights_to_escape": 2}, "warden": warden,
            "prisoners": names, "commands": commands}


def test_measures_count_how_the_game_was_played() -> None:
    rules = with_overrides(load_scenario("classic"), {"nights_to_escape": 2}, "test")
    history = History(PRISON_BREAK, new_game(rules, "Wendy", ROSTER))
    for c in GAME:
        assert not hasattr(history.submit(PRISON_BREAK.parse_command(c)), "reason")
    state = history.state
    assert state.outcome == "escape"
    m = measure(state)
    assert (m.days, m.nights, m.prisoner_nights, m.work) == (2, 2, 6, 4)
    assert (m.interviews, m.deals, m.searches, m.catches) == (2, 1, 2, 2)
    assert (m.accusations, m.hits, m.accusation_chances) == (1, 1, 3)


def test_a_playtest_key_ignores_names_and_undone_commands() -> None:
    plain = from_script(script(), load_named_scenario, "a")
    renamed = from_script(script(["Zoë", "Bo", "Cat", "Dan"], "Vera"), load_named_scenario, "b")
    slipped = script()
    commands = list(GAME)
    commands[1:1] = [{"do": "choose", "prisoner": "Cy", "choice": "work"}, {"do": "undo"},
                     {"do": "search", "prisoner": "Ada"}]  # refused: planning is open
    slipped["commands"] = commands
    again = from_script(slipped, load_named_scenario, "c")
    assert plain.key == renamed.key == again.key
    assert plain.commands == again.commands
    other = script()
    other["rules"] = {"nights_to_escape": 2, "max_days": 9}
    assert from_script(other, load_named_scenario, "d").key != plain.key
    assert "Zoë" not in str(renamed.anonymous().record())


def test_a_habitual_prisoner_works_as_often_as_told() -> None:
    rng = random.Random(3)
    bot = Habitual(Habits(work=0.3, accept=0.0, accuse=0.0))
    choices = [bot.choose("Ada", Plan(1, frozenset({"Ada"})), rng, None) for _ in range(4000)]
    assert 0.27 < choices.count("work") / 4000 < 0.33


def test_verdicts_speak_only_beyond_chance() -> None:
    real, bots = Figures(), Figures()
    real.counts.update(escape=7, parole=1, all_caught=1)
    bots.counts.update(escape=310, parole=390, all_caught=300)
    said = verdicts(real, bots)
    assert said and said[0].startswith("Real tables escape more often than the bots predict: "
                                       "7 of 9 games against 31%")
    real.counts.update(escape=4, parole=3, all_caught=2)
    assert verdicts(real, bots) == []


def test_a_chart_is_svg_with_a_bar_for_each_side() -> None:
    svg = rate_chart("How the games ended", [("escape", wilson(7, 9), wilson(310, 1000)),
                                             ("parole", wilson(0, 0), wilson(1, 10))], "bots")
    root = ET.fromstring(svg)
    rects = [e for e in root.iter() if e.tag.endswith("rect")]
    assert len(rects) >= 5  # background, two legend keys, three bars
    assert "7/9" in svg and "no real games" in svg


def test_bots_record_the_commands_they_play() -> None:
    rules = load_scenario("classic")
    log: list[PrisonCommand] = []
    result = play_game(rules, 4, MIXES["standard"], random.Random(1), log=log)
    history = History(PRISON_BREAK, new_game(rules, "Warden", ["P1", "P2", "P3", "P4"]))
    for c in log:
        assert not isinstance(history.submit(c), Refused)
    assert history.state.outcome == result.outcome
