"""Where the real tables and the bots disagree beyond chance, in plain words."""

from __future__ import annotations

from companion.sim.notebook.figures import Figures
from companion.sim.stats import Rate, apart

# key: (what the real tables did, more than the bots / fewer: a likely reason each way)
OUTCOME_WORDS = {
    "escape": ("escape", "the bots may rest too much, or the bot warden search too well",
               "the bots may work more boldly than people dare"),
    "parole": ("end in a parole", "people may take deals more readily than the bots",
               "the bots may take deals too readily"),
    "all_caught": ("end with every prisoner caught",
                   "people may work more openly than the bots, or real wardens search better",
                   "the bot warden may search too well"),
    "time_up": ("run out of days", "people may play more slowly and carefully than the bots",
                "the bots may dawdle more than people do"),
}
RATE_WORDS = {
    "work": ("real prisoners work on {real} nights", "the bots may rest too much",
             "the bots may work too much"),
    "deal_taken": ("real prisoners take {real} deals they are offered",
                   "the bots may refuse deals too often", "the bots may take deals too readily"),
    "search_caught": ("real wardens' searches find a worker in {real} searches",
                      "real wardens may read the table better than the bot warden",
                      "the bot warden may search too well"),
    "accused": ("real prisoners holding a shiv accuse on {real} chances",
                "the bots may accuse too rarely", "the bots may accuse too often"),
    "accusation_hit": ("real accusations hit a collaborator {real} times",
                       "people may spot informants better than the bots",
                       "the bots may spot informants too well"),
}


def _of(rate: Rate) -> str:
    return f"{rate.hits} of {rate.games}"


def verdicts(real: Figures, bots: Figures) -> list[str]:
    """One sentence for every figure where the real tables and the bots differ beyond chance
    (95%); none when they agree or when there is nothing to compare."""
    found: list[str] = []
    for key, (did, more, fewer) in OUTCOME_WORDS.items():
        r, b = real.outcome(key), bots.outcome(key)
        if not r.games or not b.games:
            continue
        gap = apart(r, b)
        if gap.settled:
            side = "more" if gap.gap > 0 else "less"
            found.append(
                f"Real tables {did} {side} often than the bots predict: {_of(r)} games "
                f"against {b.rate:.0%}; {more if gap.gap > 0 else fewer}."
            )
    for key, (did, more, fewer) in RATE_WORDS.items():
        r, b = real.rate(key), bots.rate(key)
        if not r.games or not b.games:
            continue
        gap = apart(r, b)
        if gap.settled:
            said = did.format(real=_of(r))
            found.append(
                f"{said[0].upper()}{said[1:]}, against {b.rate:.0%} for the bots; "
                f"{more if gap.gap > 0 else fewer}."
            )
    return found


def resolution(games: int) -> str:
    """How large a difference in an outcome's rate so few games can show (95%, at 50%)."""
    if games <= 0:
        return ""
    half = 1.96 * (0.25 / games) ** 0.5
    return f"{round(100 * min(half, 1.0))} points"
