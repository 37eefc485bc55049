"""What a reveal costs in a lecture hall: a crowd's phones get the room's totals, not every
pair (1,000 players: some 120 kB on each phone at each reveal), each phone's own pair still in
its part; a small room's phones still list the pairs."""

from __future__ import annotations

from pathlib import Path

from companion.rules.dilemma.views import SMALL_ROOM, player, public
from companion.session.session import Session
from companion.web.dilemma.pages import render_player_part, render_results
from tests.dilemma_helpers import scenario


def revealed_room(folder: Path, players: int) -> Session:
    s = Session.create(folder / "hall.sqlite", "dilemma",
                       {"rules": scenario(rounds=2, max_players=1000)})
    for i in range(players):
        s.submit({"do": "join", "pid": f"p{i}", "name": f"Student {i:04d}"})
    s.submit({"do": "start_round", "seed": 5})
    for i, pid in enumerate(list(s.state.waiting())):
        s.submit({"do": "choose", "pid": pid, "choice": "betray" if i % 3 == 0 else "silent"})
    assert s.state.phase == "revealed"
    return s


def test_a_crowds_phones_show_the_rooms_totals_and_their_own_pair(tmp_path: Path) -> None:
    s = revealed_room(tmp_path, 300)
    shared = public(s.state)
    results = render_results(shared.board)
    last = results.split('id="last-round"', 1)[1].split("</section>", 1)[0]
    totals = shared.board["last"]["totals"]  # type: ignore[index]
    assert "the room&#39;s pairs" in last or "the room's pairs" in last
    assert f"{totals['both_silent']} pairs" in last and f"{totals['one_betrayed']} pairs" in last
    assert sum(totals.values()) == 150
    assert "Student 0007" not in last  # no pair is listed: each phone has its own
    assert len(results) < 20_000
    mine = render_player_part(player(s.state, "p7", shared))
    r = s.state.rounds[-1]
    partner = s.state.name(r.partner("p7"))  # type: ignore[arg-type]
    assert partner in mine.split('id="my-result"', 1)[1].split("</section>", 1)[0]
    s.close()


def test_a_small_rooms_phones_still_list_the_pairs(tmp_path: Path) -> None:
    s = revealed_room(tmp_path, SMALL_ROOM)
    results = render_results(public(s.state).board)
    last = results.split('id="last-round"', 1)[1].split("</section>", 1)[0]
    assert "Round 1: the sentences" in last
    assert all(f"Student {i:04d}" in last for i in range(SMALL_ROOM))
    s.close()


def test_a_halls_numbers_are_written_in_the_languages_digits(tmp_path: Path) -> None:
    """A rank among 1,000, the count that has chosen, the board's phones: "1,000" in English,
    "1.000" in German, on every face that shows them (the counts' patches already were)."""
    from companion.language import language
    from companion.rules.dilemma.views import board as board_view
    from companion.web.dilemma.pages import PhonesConnected, render_board_part

    s = revealed_room(tmp_path, 1000)
    shared = public(s.state)
    for code, thousand in (("en", "1,000"), ("de", "1.000")):
        lang = language(code)
        mine = render_player_part(player(s.state, "p7", shared), lang)
        rank = mine.split('id="my-rank">', 1)[1].split("</span>", 1)[0]
        assert rank.endswith(thousand) or f"{thousand}," in rank, rank
        assert "1000" not in mine
        s.submit({"do": "start_round", "seed": 6})
        board = render_board_part(board_view(s.state), "http://x/join-room",
                                  PhonesConnected(998, 1000), lang)
        assert "1000" not in board and thousand in board
        mine = render_player_part(player(s.state, "p7"), lang)
        progress = mine.split('id="progress">', 1)[1].split("</p>", 1)[0]
        assert thousand in progress and "1000" not in progress
        s.undo()  # back to the reveal, for the next language
    s.close()
