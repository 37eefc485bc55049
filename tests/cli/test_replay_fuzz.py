"""Whatever a script file holds, replay answers with a result or one sentence, never a crash."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.cli.replay import play_script
from companion.errors import UserError
from tests.conftest import examples

scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 50), st.floats(allow_nan=False), st.text(max_size=45)
)
anything = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
names = st.sampled_from(["Ada", "Ben", "Cy", "Dee", "Wendy", "", "Zed"])
almost_command = st.one_of(
    st.fixed_dictionaries(
        {
            "do": st.sampled_from(
                [
                    "choose",
                    "close_planning",
                    "interview",
                    "search",
                    "accuse",
                    "end_day",
                    "undo",
                    "fly",
                    3,
                ]
            )
        },
        optional={
            "prisoner": st.one_of(names, anything),
            "choice": st.sampled_from(["work", "rest", "WORK", 1]),
            "deal": st.one_of(st.booleans(), anything),
            "accuser": names,
            "accused": names,
        },
    ),
    anything,
)
scripts = st.fixed_dictionaries(
    {},
    optional={
        "scenario": st.one_of(st.just("classic"), anything),
        "rules": st.one_of(
            st.dictionaries(st.sampled_from(["nights_to_escape", "max_days", "x"]), anything),
            anything,
        ),
        "warden": st.one_of(st.just("Wendy"), anything),
        "prisoners": st.one_of(st.just(["Ada", "Ben", "Cy", "Dee"]), anything),
        "commands": st.one_of(st.lists(almost_command, max_size=12), anything),
        "game": st.one_of(st.just("prison-break"), anything),
    },
)


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scripts)
def test_replay_never_crashes(script: dict) -> None:
    try:
        result = play_script(json.loads(json.dumps(script)))
    except UserError as error:
        text = str(error)
        assert text and "\n" not in text and "Traceback" not in text
        assert text.endswith(".")
    else:
        assert set(result) >= {"day", "phase", "prisoners", "rejected"}
