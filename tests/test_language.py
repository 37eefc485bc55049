"""The languages: the catalogs against the code's messages, the language module, ``--lang``."""

from __future__ import annotations

import subprocess
import sys
from datetime import time
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po

from companion.errors import UserError
from companion.language import LOCALE_DIR, accepted, available, check, language, negotiate
from tests import pseudo_locale

ROOT = Path(__file__).resolve().parent.parent


def fresh_template(tmp_path: Path) -> set[object]:
    """The messages a fresh extraction finds in the code and templates now (the keywords of
    scripts/catalogs.sh)."""
    out = tmp_path / "fresh.pot"
    subprocess.run(
        [sys.executable, "-m", "babel.messages.frontend", "extract", "-F", "babel.cfg",
         "-k", "N_", "-k", "pN_:1c,2", "-k", "n_:1,2", "-k", "Binding:3", "-k", "Refusal",
         "-k", "phrase", "-k", "phrases:1,2", "-o", str(out), "."],
        cwd=ROOT, check=True, capture_output=True,
    )
    with out.open("rb") as file:
        return {(m.context, m.id) for m in read_po(file) if m.id}


def test_the_template_holds_every_message_of_the_code(tmp_path: Path) -> None:
    with (LOCALE_DIR / "companion.pot").open("rb") as file:
        committed = {(m.context, m.id) for m in read_po(file) if m.id}
    fresh = fresh_template(tmp_path)
    assert fresh - committed == set(), "run scripts/catalogs.sh update"
    assert committed - fresh == set(), "run scripts/catalogs.sh update"


def test_the_shipped_languages_are_found_from_their_po_files() -> None:
    assert available() == ["en", *sorted(p.parts[-3] for p in pseudo_locale.shipped())]
    assert {"de", "es", "fr"} <= set(available())


def problems_of(template: Catalog, catalog: Catalog) -> list[str]:
    """What keeps ``catalog`` from being complete for ``template``, one line a problem."""
    wanted = {(m.context, m.id) for m in template if m.id}
    have = {(m.context, m.id): m for m in catalog if m.id}
    found = [f"missing: {key}" for key in sorted(map(str, wanted - set(have)))]
    found += [f"fuzzy: {m.id}" for m in have.values() if m.fuzzy]
    found += [
        f"untranslated: {m.id}" for m in have.values()
        if not (all(m.string) if isinstance(m.string, tuple) else m.string)
    ]
    found += [f"{m.id}: {error}" for m, errors in catalog.check() for error in errors]
    return found


def template() -> Catalog:
    with (LOCALE_DIR / "companion.pot").open("rb") as file:
        return read_po(file)


def shipped_catalog(po: Path) -> Catalog:
    with po.open("rb") as file:
        return read_po(file)


@pytest.mark.parametrize("po", pseudo_locale.shipped(), ids=lambda p: p.parts[-3])
def test_a_shipped_catalog_has_every_message_translated_and_none_fuzzy(po: Path) -> None:
    assert problems_of(template(), shipped_catalog(po)) == []


def test_a_fuzzy_missing_or_mismatched_message_fails_the_check() -> None:
    catalog = shipped_catalog(LOCALE_DIR / "de" / "LC_MESSAGES" / "companion.po")
    messages = [m for m in catalog if m.id]
    messages[0].flags.add("fuzzy")
    catalog.delete(messages[1].id, context=messages[1].context)
    wrong = next(m for m in messages[2:] if isinstance(m.id, str) and "%(name)s" in m.id)
    wrong.string = "ohne Platzhalter %(nom)s"
    found = problems_of(template(), catalog)
    assert any(p.startswith("fuzzy: ") for p in found)
    assert any(p.startswith("missing: ") for p in found)
    assert any(p.startswith(f"{wrong.id}: ") for p in found)


def test_lists_numbers_and_plurals_follow_the_language() -> None:
    assert language("en").joined(["Ada", "Ben", "Cy"]) == "Ada, Ben and Cy"
    assert language("de").joined(["Ada", "Ben", "Cy"]) == "Ada, Ben und Cy"
    assert language("fr").joined(["Ada", "Ben", "Cy"]) == "Ada, Ben et Cy"
    assert language("es").joined(["Ada", "Ben", "Cy"]) == "Ada, Ben y Cy"
    assert language("de").number(1234.5) == "1.234,5"
    assert language("de").n_("%(count)s night", "%(count)s nights", 1) == "1 Nacht"
    assert language("de").n_("%(count)s night", "%(count)s nights", 2) == "2 Nächte"
    assert language("fr").n_("%(count)s night", "%(count)s nights", 0) == "0 nuit"  # n > 1
    assert language("de").time(time(14, 5)) == "14:05"
    assert language("en").time(time(14, 5)) == "14:05"


def test_a_language_is_picked_from_tags_and_headers() -> None:
    assert check("de_DE") == "de" and check("FR") == "fr" and check("es-MX") == "es"
    assert negotiate(accepted("pt-BR,fr-CA;q=0.8,de;q=0.9")) == "de"
    assert negotiate(accepted("ja, *;q=0.5")) is None
    assert accepted("de;q=0, fr") == ["fr"]


def test_an_unknown_language_is_refused_in_one_sentence_naming_the_others() -> None:
    with pytest.raises(UserError) as refused:
        language("tlh")
    assert str(refused.value) == (
        "'tlh' is not a language companion speaks; use one of en, de, es, fr."
    )
