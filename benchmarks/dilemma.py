"""How long the dilemma warm-up takes to draw a round's pairs and to render every phone's page,
for rooms of 10, 30, 60, 300 and 1,000 players (with players leaving and joining between
rounds, which forces the search instead of the round-robin plan). Every phone's page is made
as the phone server makes it after a reveal: the shared part (results, leaderboard) once,
each phone's own lines around it. Prints figures; asserts nothing.

    .venv/bin/python benchmarks/dilemma.py
"""

from __future__ import annotations

import random
import time
import tomllib
from pathlib import Path

from companion.rules.core.game import History
from companion.rules.dilemma.engine import DILEMMA, initial_state
from companion.rules.dilemma.views import player, public
from companion.web.dilemma.pages import mark_me, render_player_part, render_results

ROOT = Path(__file__).resolve().parent.parent


def run(size: int, rounds: int = 6) -> None:
    with (ROOT / "scenarios" / "dilemma.toml").open("rb") as handle:
        rules = tomllib.load(handle)
    rules["rounds"] = 100
    rules["max_players"] = max(size, 2)
    h = History(DILEMMA, initial_state({"rules": rules}))
    rng = random.Random(size)
    for i in range(size):
        h.submit(DILEMMA.parse_command({"do": "join", "pid": f"p{i}", "name": f"Player {i}"}))
    draws: list[float] = []
    renders: list[float] = []
    joined = size
    for r in range(rounds):
        if r % 3 == 2:  # churn: one leaves, one arrives
            gone = rng.choice(h.state.present())
            h.submit(DILEMMA.parse_command({"do": "remove", "pid": gone}))
            h.submit(
                DILEMMA.parse_command({"do": "join", "pid": f"p{joined}", "name": f"New {joined}"})
            )
            joined += 1
        start = time.perf_counter()
        h.submit(DILEMMA.parse_command({"do": "start_round", "seed": rng.randrange(2**62)}))
        draws.append(time.perf_counter() - start)
        for pid in h.state.current.paired():
            choice = rng.choice(["silent", "betray"])
            h.submit(DILEMMA.parse_command({"do": "choose", "pid": pid, "choice": choice}))
        start = time.perf_counter()
        shared = public(h.state)
        results = render_results(shared.board)
        for pid in h.state.present():
            render_player_part(
                player(h.state, pid, shared), results=mark_me(results, shared.order.get(pid))
            )
        renders.append(time.perf_counter() - start)
    print(
        f"{size:>3} players: draw a round {1000 * sum(draws) / len(draws):7.1f} ms mean, "
        f"{1000 * max(draws):7.1f} ms worst; render every phone after a change "
        f"{1000 * sum(renders) / len(renders):7.1f} ms mean"
    )


if __name__ == "__main__":
    for n in (10, 30, 60, 300, 1000):
        run(n)
