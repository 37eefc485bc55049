"""The warden's habits: in what order to offer deals to the prisoners called in, and which cell
to search (informants' tips first, or not)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from companion.rules.prison.views import TableView, WardenView


def offers_none(view: WardenView, rng: random.Random) -> list[str]:
    return []


def offers_random(view: WardenView, rng: random.Random) -> list[str]:
    """Call the active prisoners in at random and offer each a deal until one accepts."""
    order = list(view["active"])
    rng.shuffle(order)
    return order


def offers_focus(view: WardenView, rng: random.Random) -> list[str]:
    """Offer first to whoever is closest to parole (the warden wins on a parole too)."""
    order = offers_random(view, rng)
    tokens = view["parole_tokens"]
    return sorted(order, key=lambda n: -tokens[n])


OFFERS: dict[str, Callable[[WardenView, random.Random], list[str]]] = {
    "none": offers_none,
    "random": offers_random,
    "focus": offers_focus,
}


def search_random(view: TableView, named: Sequence[str], rng: random.Random) -> str:
    """Search a random cell; informants are ignored."""
    return rng.choice(view["unsearched"])


def search_informed(view: TableView, named: Sequence[str], rng: random.Random) -> str:
    """Search a cell an informant named tonight; otherwise a random one."""
    open_cells = list(view["unsearched"])
    tips = [n for n in named if n in open_cells]
    return rng.choice(tips) if tips else rng.choice(open_cells)


def search_tracker(view: TableView, named: Sequence[str], rng: random.Random) -> str:
    """Informants first; otherwise whoever has worked most often so far (public record)."""
    open_cells = list(view["unsearched"])
    tips = [n for n in named if n in open_cells]
    if tips:
        return rng.choice(tips)
    worked: dict[str, int] = dict.fromkeys(open_cells, 0)
    for day in view["history"]:
        for n in day["workers"]:
            if n in worked:
                worked[n] += 1
    top = max(worked.values())
    return rng.choice([n for n, w in worked.items() if w == top])


SEARCH: dict[str, Callable[[TableView, Sequence[str], random.Random], str]] = {
    "random": search_random,
    "informed": search_informed,
    "tracker": search_tracker,
}
