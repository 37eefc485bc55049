"""The notebook's report: for each scenario and group size, the real tables' figures beside the
bots' prediction for the same rules and size, and the verdicts; as text for the terminal, JSON,
CSV, or Markdown with SVG charts for the design document."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.rules.prison.scenario import PrisonRules
from companion.sim.notebook.charts import rate_chart
from companion.sim.notebook.figures import RATES, Figures, GroupKey, groups
from companion.sim.notebook.playtest import GAME, Playtest
from companion.sim.notebook.verdicts import resolution, verdicts
from companion.sim.runner import OUTCOMES, Pool, run_games, sim_rules
from companion.sim.stats import Rate

OUTCOME_LABELS = {"escape": "escape", "parole": "parole", "all_caught": "all caught",
                  "time_up": "time up"}
RATE_LABELS = {
    "work": "prisoners work (a night)",
    "deal_taken": "deal taken when called in",
    "search_caught": "search caught a worker",
    "accused": "accused (a night with a shiv)",
    "accusation_hit": "accusation hit",
}


@dataclass
class Group:
    key: GroupKey
    playtests: list[Playtest]
    real: Figures
    bots: Figures
    verdicts: list[str]

    def games_said(self) -> str:
        n = len(self.playtests)
        said = f"{n} {'game' if n == 1 else 'games'}"
        r = sum(p.rehearsal for p in self.playtests)
        if r:
            said += f" ({r} of them {'a rehearsal' if r == 1 else 'rehearsals'} with bots)"
        return said

    @property
    def last_played(self) -> str | None:
        days = [p.played for p in self.playtests if p.played]
        return max(days) if days else None


@dataclass
class Notebook:
    groups: list[Group]
    mix: str
    mix_summary: str
    bot_games: int
    seed: int
    rehearsals: int  # rehearsals among the games counted
    left_out: int  # rehearsals left out
    unreadable: list[str]
    unfinished: int = 0  # prison breaks still being played (not counted)


def predict(pool: Pool, key: GroupKey, mix: str, games: int, seed: int,
            on_progress: Callable[[int], None] | None = None) -> Figures:
    """The bots' games at the same rules and group size (capped in length as ``simulate``
    caps a scenario without a day limit); ``on_progress`` hears the games played so far."""
    base = PrisonRules.model_validate({"game": GAME, **key.rules_dict()})
    rules, _ = sim_rules(base, key.prisoners)
    label = f"playtests/{key.scenario}/{key.prisoners}"
    return Figures.of_tally(run_games(pool, rules, key.prisoners, mix, seed, games, label=label,
                                      on_progress=on_progress))


def build(
    playtests: list[Playtest], pool: Pool, *, mix: str, mix_summary: str, bot_games: int,
    seed: int, left_out: int = 0, unreadable: list[str] | None = None, unfinished: int = 0,
    on_group: Callable[[GroupKey], Callable[[int], None] | None] | None = None,
) -> Notebook:
    """The notebook of ``playtests``: ``on_group(key)`` is told of each group before its bots
    play and may return a callback for their games played so far."""
    found: list[Group] = []
    for key, games in groups(playtests).items():
        heard = on_group(key) if on_group is not None else None
        real = Figures.of_games(games)
        bots = predict(pool, key, mix, bot_games, seed, heard)
        found.append(Group(key, games, real, bots, verdicts(real, bots)))
    return Notebook(found, mix, mix_summary, bot_games, seed,
                    sum(p.rehearsal for p in playtests), left_out, unreadable or [], unfinished)


# ---- words --------------------------------------------------------------------------------


def _rate(r: Rate, counted: bool = True) -> str:
    if not r.games:
        return "none"
    head = f"{r.hits} of {r.games}, " if counted else ""
    return f"{head}{r.rate:.0%} ({r.low:.0%}–{r.high:.0%})"


def rows(group: Group) -> list[tuple[str, str, str]]:
    """The group's table: (figure, real tables, bots)."""
    real, bots = group.real, group.bots
    out = [(f"{OUTCOME_LABELS[k]}", _rate(real.outcome(k)), _rate(bots.outcome(k), False))
           for k in OUTCOMES]
    out += [
        ("mean days", f"{real.mean_days:.1f}", f"{bots.mean_days:.1f}"),
        ("nights of work a day", f"{real.per_day('nights'):.2f}", f"{bots.per_day('nights'):.2f}"),
        ("deals a day", f"{real.per_day('deals'):.2f}", f"{bots.per_day('deals'):.2f}"),
        ("accusations a day", f"{real.per_day('accusations'):.2f}",
         f"{bots.per_day('accusations'):.2f}"),
    ]
    out += [(RATE_LABELS[k], _rate(real.rate(k)), _rate(bots.rate(k), False))
            for k, _, _ in RATES]
    return out


def headline(nb: Notebook) -> str:
    games = sum(len(g.playtests) for g in nb.groups)
    kinds = "games" if not nb.rehearsals else f"games ({nb.rehearsals} of them rehearsals)"
    text = f"The designers' notebook: {games} finished {kinds} in {len(nb.groups)} " \
           f"{'group' if len(nb.groups) == 1 else 'groups'} of scenario and size."
    if nb.left_out:
        text += (f" {nb.left_out} rehearsal{'s' if nb.left_out > 1 else ''} with bots left out "
                 "(--include-rehearsals counts them).")
    if nb.unfinished:
        text += (f" {nb.unfinished} {'game' if nb.unfinished == 1 else 'games'} not finished "
                 "yet, not counted.")
    return text


def bots_line(nb: Notebook) -> str:
    return (f"Bots: {nb.bot_games} games for each group, seed {nb.seed}, mix "
            f"{nb.mix_summary}.")


def group_verdict(group: Group) -> list[str]:
    if group.verdicts:
        return group.verdicts
    n = len(group.playtests)
    return [f"The real tables agree with the bots within chance; {n} "
            f"{'game shows' if n == 1 else 'games show'} only differences in an outcome's rate "
            f"larger than about {resolution(n)}."]


def text(nb: Notebook) -> str:
    out = [headline(nb), bots_line(nb)]
    for problem in nb.unreadable:
        out.append(f"Left out, unreadable: {problem}")
    for group in nb.groups:
        played = f", last played {group.last_played}" if group.last_played else ""
        out += ["", f"{group.key.label()}: {group.games_said()}{played}"]
        table = rows(group)
        wide = max(len(f) for f, _, _ in table)
        mid = max(len(r) for _, r, _ in table + [("", "real tables", "")])
        out.append(f"  {'':<{wide}}  {'real tables':<{mid}}  bots ({group.bots.games} games)")
        out += [f"  {f:<{wide}}  {r:<{mid}}  {b}" for f, r, b in table]
        out += [f"  * {v}" for v in group_verdict(group)]
    return "\n".join(out) + "\n"


def as_json(nb: Notebook) -> str:
    data: dict[str, Any] = {
        "mix": nb.mix, "bot_games": nb.bot_games, "seed": nb.seed,
        "rehearsals_counted": nb.rehearsals, "rehearsals_left_out": nb.left_out,
        "unfinished": nb.unfinished,
        "unreadable": nb.unreadable,
        "groups": [
            {
                "scenario": g.key.scenario, "prisoners": g.key.prisoners,
                "rules": g.key.rules_dict(), "last_played": g.last_played,
                "playtests": [p.key for p in g.playtests],
                "real": g.real.as_dict(), "bots": g.bots.as_dict(), "verdicts": g.verdicts,
            }
            for g in nb.groups
        ],
    }
    return json.dumps(data, indent=1, ensure_ascii=False) + "\n"


CSV_COLUMNS = [
    "scenario", "prisoners", "nights_to_escape", "parole_tokens_to_win", "side", "games",
    *[f"{k}{s}" for k in OUTCOMES for s in ("", "_low", "_high")],
    "mean_days", "nights_per_day", "deals_per_day", "accusations_per_day",
    *[f"{k}{s}" for k, _, _ in RATES for s in ("", "_low", "_high", "_of")],
]


def _csv_row(key: GroupKey, side: str, f: Figures) -> dict[str, object]:
    r = key.rules_dict()
    row: dict[str, object] = {
        "scenario": key.scenario, "prisoners": key.prisoners,
        "nights_to_escape": r["nights_to_escape"],
        "parole_tokens_to_win": r["parole_tokens_to_win"], "side": side, "games": f.games,
        "mean_days": round(f.mean_days, 3), "nights_per_day": round(f.per_day("nights"), 4),
        "deals_per_day": round(f.per_day("deals"), 4),
        "accusations_per_day": round(f.per_day("accusations"), 4),
    }
    for k in OUTCOMES:
        o = f.outcome(k)
        row |= {k: round(o.rate, 4), f"{k}_low": round(o.low, 4), f"{k}_high": round(o.high, 4)}
    for k, _, _ in RATES:
        o = f.rate(k)
        row |= {k: round(o.rate, 4), f"{k}_low": round(o.low, 4),
                f"{k}_high": round(o.high, 4), f"{k}_of": o.games}
    return row


def as_csv(nb: Notebook) -> str:
    """Two rows a group, ``real`` and ``bots``: rates as fractions with their 95% intervals."""
    out = io.StringIO()
    # Lines end in CRLF, as RFC 4180 has them and as every CSV the app writes.
    writer = csv.DictWriter(out, CSV_COLUMNS, lineterminator="\r\n")
    writer.writeheader()
    for g in nb.groups:
        writer.writerow(_csv_row(g.key, "real", g.real))
        writer.writerow(_csv_row(g.key, "bots", g.bots))
    return out.getvalue()


def chart_name(group: Group, what: str) -> str:
    return f"{group.key.scenario}-{group.key.prisoners}-{what}.svg"


def write_markdown(nb: Notebook, folder: Path) -> Path:
    """``playtests.md`` and its charts (``charts/*.svg``) in ``folder``; the report's path."""
    charts = folder / "charts"
    charts.mkdir(parents=True, exist_ok=True)
    bots = f"bots ({nb.mix})"
    out = ["# The designers' notebook", "", headline(nb), "", bots_line(nb), ""]
    seen: dict[str, int] = {}
    for group in nb.groups:
        label = group.key.label()
        out += [f"## {label}", ""]
        played = f", last played {group.last_played}" if group.last_played else ""
        out += [f"{group.games_said()}{played}; the bots played "
                f"{group.bots.games}.", ""]
        out += ["| figure | real tables | bots |", "| --- | --- | --- |"]
        out += [f"| {f} | {r} | {b} |" for f, r, b in rows(group)]
        out.append("")
        out += [f"- {v}" for v in group_verdict(group)]
        out.append("")
        for what, title, figures in (
            ("outcomes", "How the games ended", [
                (OUTCOME_LABELS[k], group.real.outcome(k), group.bots.outcome(k))
                for k in OUTCOMES]),
            ("habits", "How the games were played", [
                (RATE_LABELS[k], group.real.rate(k), group.bots.rate(k)) for k, _, _ in RATES]),
        ):
            name = chart_name(group, what)
            seen[name] = seen.get(name, 0) + 1
            if seen[name] > 1:  # the same scenario and size with other rules
                name = name.replace(".svg", f"-{seen[name]}.svg")
            svg = rate_chart(f"{title}: {group.key.scenario}, {group.key.prisoners} prisoners",
                             figures, bots)
            (charts / name).write_text(svg, encoding="utf-8")
            out += [f"![{title}, {label}](charts/{name})", ""]
    path = folder / "playtests.md"
    path.write_text("\n".join(out), encoding="utf-8")
    return path
