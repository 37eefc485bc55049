"""What the Balance screen concludes from the points measured: the closest setting to the
target escape rate, settled as ``companion balance`` settles it when the source says how."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from companion.language import Language

Point = Mapping[str, Any]


def conclusion(
    lang: Language, points: list[Point], verdict: Point | None, target_rate: float, tokens: int
) -> str:
    """The closest setting, settled as 'companion balance' settles it when the source says
    how (a ``verdict``), else the closest of the curve, with its neighbours that the noise
    cannot tell apart from it."""
    _ = lang
    target = f"{target_rate:.0%}"
    if verdict is None:
        best = min(points, key=lambda p: abs(p["escape"]["rate"] - target_rate))
        return _("Closest to %(target)s: %(setting)s. For numbers to play by, run "
                 "'companion balance'.", target=target, setting=setting_words(_, best))
    v = verdict["verdict"]
    rival, gap = v["runner_up"], v["gap"]
    if v["settled"]:
        return _.fill(_.ngettext(
            "Closest to %(target)s: %(setting)s, surely closer than %(rival)s, by %(gap)s "
            "points: the games and the rule of 'companion balance' at %(count)s parole token.",
            "Closest to %(target)s: %(setting)s, surely closer than %(rival)s, by %(gap)s "
            "points: the games and the rule of 'companion balance' at %(count)s parole "
            "tokens.",
            tokens,
        ), {"target": target, "setting": setting_words(_, verdict),
            "rival": setting_words(_, rival), "gap": f"{100 * gap['gap']:.1f}",
            "count": tokens})
    return _.fill(_.ngettext(
        "A tie within the noise: %(setting)s and %(rival)s; 'companion balance' takes "
        "%(count)s night, as here.",
        "A tie within the noise: %(setting)s and %(rival)s; 'companion balance' takes "
        "%(count)s nights, as here.",
        verdict["nights_to_escape"],
    ), {"setting": setting_words(_, verdict), "rival": setting_words(_, rival),
        "count": verdict["nights_to_escape"]})


def setting_words(lang: Language, point: Point) -> str:
    """One setting measured: its nights, escape rate, interval and games."""
    esc = point["escape"]
    return lang.ngettext(
        "%(count)s night (%(rate)s, %(low)s–%(high)s, %(games)s games)",
        "%(count)s nights (%(rate)s, %(low)s–%(high)s, %(games)s games)",
        point["nights_to_escape"],
    ) % {"count": point["nights_to_escape"], "rate": f"{esc['rate']:.1%}",
         "low": f"{100 * esc['low']:.1f}", "high": f"{esc['high']:.1%}",
         "games": point["games"]}
