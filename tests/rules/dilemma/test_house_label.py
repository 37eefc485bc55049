"""The house player's label is reserved in every language the warm-up speaks: each catalog's
word for it is one of the rules' ``HOUSE_WORDS`` (a new language must add its word there)."""

from __future__ import annotations

import pytest

from companion.language import available, language
from companion.rules.core.names import reads_as
from companion.rules.dilemma.state import HOUSE_WORDS


@pytest.mark.parametrize("code", available())
def test_every_languages_house_label_is_reserved(code: str) -> None:
    lang = language(code)
    labels = [
        lang.gettext("House"),
        lang.pgettext("facing", "House"),
        lang("House (%(strategy)s)", strategy="Tit for Tat"),
    ]
    for label in labels:
        assert any(reads_as(label, word) for word in HOUSE_WORDS), (code, label)


@pytest.mark.parametrize("code", available())
def test_every_languages_word_for_the_warden_is_reserved(code: str) -> None:
    from companion.rules.dilemma.state import STAFF_WORDS

    label = language(code).gettext("Warden")
    assert any(reads_as(label, word) for word in STAFF_WORDS), (code, label)
