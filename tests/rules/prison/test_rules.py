"""Every rule and ruling of the prison break, one behaviour per test."""

from __future__ import annotations

from companion.rules.prison.views import script_result
from tests.prison_helpers import game, ok, refused


def play_day(h, work=(), deal=None, search="Ada", accuse=None, end=True):
    for name in h.state.active():
        ok(h, do="choose", prisoner=name, choice="work" if name in work else "rest")
    ok(h, do="close_planning")
    if deal:
        ok(h, do="interview", prisoner=deal, deal=True)
    ok(h, do="search", prisoner=search)
    if accuse and not h.state.over:
        ok(h, do="accuse", accuser=accuse[0], accused=accuse[1])
    if end and not h.state.over:
        ok(h, do="end_day")


def test_a_new_game_starts_in_planning_on_day_one() -> None:
    s = game().state
    assert (s.day.number, s.phase, s.nights_done) == (1, "planning", 0)
    assert all(p.shivs == 1 and p.parole_tokens == 0 for p in s.prisoners.values())


def test_choices_can_change_until_planning_closes() -> None:
    h = game()
    ok(h, do="choose", prisoner="Ada", choice="work")
    ok(h, do="choose", prisoner="Ada", choice="rest")
    ok(h, do="close_planning")
    assert "only during planning" in refused(h, do="choose", prisoner="Ada", choice="work")
    ok(h, do="search", prisoner="Ada")
    assert h.state.prisoners["Ada"].status == "active"


def test_a_prisoner_who_never_chose_rests() -> None:  # R3
    h = game()
    ok(h, do="close_planning")
    ok(h, do="search", prisoner="Ben")
    assert h.state.prisoners["Ben"].status == "active"
    assert h.state.nights_done == 0


def test_a_searched_worker_is_caught_and_the_others_complete_nights() -> None:
    h = game()
    play_day(h, work=("Ada", "Ben", "Cy"), search="Ada", end=False)
    assert h.state.prisoners["Ada"].status == "caught"
    assert h.state.nights_done == 2
    assert h.state.day.workers == ("Ben", "Cy")
    assert h.state.phase == "accusations"


def test_one_deal_a_day_and_one_interview_each() -> None:
    h = game()
    ok(h, do="close_planning")
    ok(h, do="interview", prisoner="Ada", deal=True)
    assert "already made 1 deal" in refused(h, do="interview", prisoner="Ben", deal=True)
    ok(h, do="interview", prisoner="Ben", deal=False)
    assert "already interviewed" in refused(h, do="interview", prisoner="Ben", deal=False)


def test_parole_ends_the_game_at_once_without_a_search() -> None:
    h = game(parole_tokens_to_win=1)
    ok(h, do="close_planning")
    ok(h, do="interview", prisoner="Cy", deal=True)
    s = h.state
    assert (s.phase, s.outcome, s.winners) == ("over", "parole", ("Cy", "Wendy"))
    assert s.prisoners["Cy"].status == "paroled"
    assert "game is over" in refused(h, do="search", prisoner="Ada")


def test_escape_when_nights_reach_the_threshold() -> None:  # R5
    h = game(nights_to_escape=3)
    play_day(h, work=("Ben", "Cy", "Dee"), search="Ada")
    s = h.state
    assert (s.outcome, s.winners) == ("escape", ("Ada", "Ben", "Cy", "Dee"))
    assert all(p.status == "escaped" for p in s.prisoners.values())
    assert s.day.number == 1


def test_only_surviving_prisoners_escape() -> None:
    h = game(nights_to_escape=2)
    play_day(h, work=("Ada", "Ben", "Cy"), search="Ada")
    assert h.state.winners == ("Ben", "Cy", "Dee")
    assert h.state.prisoners["Ada"].status == "caught"


def test_all_caught_when_no_prisoner_is_left() -> None:  # R1
    h = game(searches_per_day=4, nights_to_escape=50)
    for name in h.state.active():
        ok(h, do="choose", prisoner=name, choice="work")
    ok(h, do="close_planning")
    for name in ["Ada", "Ben", "Cy"]:
        ok(h, do="search", prisoner=name)
        assert h.state.phase == "search"
    ok(h, do="search", prisoner="Dee")
    assert (h.state.outcome, h.state.winners) == ("all_caught", ("Wendy",))


def test_shived_prisoners_count_as_removed_for_all_caught() -> None:  # R1
    h = game(["Ada", "Ben", "Cy", "Dee"], searches_per_day=1, parole_tokens_per_day=4)
    play_day(h, work=("Ada",), deal="Ben", search="Ada", accuse=("Cy", "Ben"))
    assert h.state.prisoners["Ben"].status == "shived"
    assert h.state.prisoners["Ada"].status == "caught"
    assert h.state.active() == ["Cy", "Dee"]


def test_several_searches_a_day_reveal_after_the_last() -> None:
    h = game(searches_per_day=2)
    for name in h.state.active():
        ok(h, do="choose", prisoner=name, choice="rest" if name == "Ada" else "work")
    ok(h, do="close_planning")
    ok(h, do="interview", prisoner="Ada", deal=False)
    ok(h, do="search", prisoner="Ada")
    assert h.state.phase == "search"
    assert h.state.prisoners["Ada"].status == "active"
    assert "only during the interviews" in refused(h, do="interview", prisoner="Ben", deal=False)
    assert "already searched" in refused(h, do="search", prisoner="Ada")
    ok(h, do="search", prisoner="Ben")
    assert h.state.prisoners["Ben"].status == "caught"
    assert h.state.phase == "accusations"
    assert h.state.nights_done == 2


def test_reveal_comes_early_when_nobody_is_left_to_search() -> None:
    h = game(searches_per_day=3)
    ok(h, do="close_planning")
    ok(h, do="search", prisoner="Ada")
    ok(h, do="search", prisoner="Ben")
    ok(h, do="search", prisoner="Cy")
    assert h.state.phase == "accusations"


def test_accusation_of_a_token_holder_shives_them_and_their_shivs_leave() -> None:  # R7
    h = game()
    play_day(h, deal="Ben", search="Ada", accuse=("Cy", "Ben"), end=False)
    s = h.state
    assert s.prisoners["Ben"].status == "shived" and s.prisoners["Ben"].shivs == 0
    assert s.prisoners["Cy"].shivs == 1


def test_accusation_of_an_innocent_passes_the_shiv() -> None:
    h = game()
    play_day(h, search="Ada", accuse=("Cy", "Dee"), end=False)
    s = h.state
    assert (s.prisoners["Cy"].shivs, s.prisoners["Dee"].shivs) == (0, 2)
    assert "holds no shiv" in refused(h, do="accuse", accuser="Cy", accused="Ada")


def test_one_accusation_a_day_even_with_two_shivs() -> None:  # R6
    h = game()
    play_day(h, search="Ada", accuse=("Cy", "Dee"), end=False)
    ok(h, do="accuse", accuser="Dee", accused="Ada")
    assert "already made 1 accusation" in refused(h, do="accuse", accuser="Dee", accused="Ben")
    ok(h, do="end_day")
    play_day(h, search="Ada", accuse=("Ada", "Ben"), end=False)


def test_out_prisoners_can_do_nothing() -> None:  # R8
    h = game()
    play_day(h, work=("Ada",), search="Ada")
    assert "caught and out" in refused(h, do="choose", prisoner="Ada", choice="rest")
    ok(h, do="close_planning")
    assert "caught and out" in refused(h, do="interview", prisoner="Ada", deal=False)
    assert "caught and out" in refused(h, do="search", prisoner="Ada")
    ok(h, do="search", prisoner="Ben")
    assert "caught and out" in refused(h, do="accuse", accuser="Ada", accused="Ben")
    assert "caught and out" in refused(h, do="accuse", accuser="Ben", accused="Ada")


def test_unknown_names_and_self_accusation_are_refused() -> None:
    h = game()
    assert "no prisoner called 'Zed'" in refused(h, do="choose", prisoner="Zed", choice="work")
    assert "no prisoner called 'Wendy'" in refused(h, do="choose", prisoner="Wendy", choice="work")
    play_day(h, search="Ada", end=False)
    assert "cannot accuse themselves" in refused(h, do="accuse", accuser="Ben", accused="Ben")


def test_commands_in_the_wrong_phase_are_refused() -> None:
    h = game()
    assert "only during the interviews or the search" in refused(h, do="search", prisoner="Ada")
    assert "only during the interviews" in refused(h, do="interview", prisoner="Ada", deal=True)
    assert "only during the accusations" in refused(h, do="accuse", accuser="Ada", accused="Ben")
    assert "only during the accusations" in refused(h, do="end_day")
    ok(h, do="close_planning")
    assert "only during planning" in refused(h, do="close_planning")


def test_time_up_when_the_last_day_ends() -> None:  # R2
    h = game(max_days=2)
    play_day(h, search="Ada")
    play_day(h, search="Ada")
    s = h.state
    assert (s.phase, s.outcome, s.winners, s.day.number) == ("over", "time_up", ("Wendy",), 2)


def test_undo_is_a_stack_and_works_after_the_game_ends() -> None:
    h = game(parole_tokens_to_win=1)
    ok(h, do="close_planning")
    before = h.state
    ok(h, do="interview", prisoner="Cy", deal=True)
    assert h.state.over
    ok(h, do="undo")
    assert h.state == before
    ok(h, do="undo")
    assert h.state.phase == "planning"
    assert "nothing to undo" in refused(h, do="undo")
    assert [e.kind for e in h.entries] == ["command", "command", "undo", "undo"]


def test_day_advances_and_choices_reset() -> None:
    h = game()
    play_day(h, work=("Ben",), search="Ada")
    s = h.state
    assert (s.day.number, s.phase, dict(s.day.choices)) == (2, "planning", {})
    assert script_result(s)["day"] == 2
    assert s.past[0].workers == ("Ben",)
