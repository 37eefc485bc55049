"""The shared English helpers: one plural, one list of names."""

from __future__ import annotations

from companion.rules.core.words import joined, plural


def test_plural_counts_one_and_many() -> None:
    assert plural(1, "night") == "1 night"
    assert plural(0, "night") == "0 nights"
    assert plural(2, "search", "searches") == "2 searches"


def test_joined_lists_names_with_and_or_or() -> None:
    assert joined([]) == ""
    assert joined([], "nobody") == "nobody"
    assert joined(["Ada"]) == "Ada"
    assert joined(["Ada", "Ben"]) == "Ada and Ben"
    assert joined(["Ada", "Ben", "Cy"]) == "Ada, Ben and Cy"
    assert joined(["red", "blue", "green"], last="or") == "red, blue or green"
