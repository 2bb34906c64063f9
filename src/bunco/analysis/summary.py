"""Mean and standard error of night figures, accumulated chunk by chunk in flat memory.

A simulation of millions of nights never holds them all: each chunk of nights becomes
:class:`Moments` per figure (count, mean, sum of squared deviations), and chunks merge
with Chan's parallel formula. A single chunk gives exactly what NumPy's ``mean`` and
``std(ddof=1)`` give over its values (NaN values, figures a night does not have, are
left out).

>>> import numpy as np
>>> m = Moments.of(np.array([1.0, 2.0, np.nan])).merge(Moments.of(np.array([3.0, 4.0])))
>>> m.count, m.mean, round(m.as_dict()["se"], 6)
(4, 2.5, 0.645497)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Literal, TypeAlias, TypedDict

import numpy as np
from numpy.typing import ArrayLike

FigureName: TypeAlias = Literal[
    "buncos",
    "rounds",
    "rolls_per_set",
    "head_rolls",
    "head_first_team_win",
    "head_bunco_end",
    "tie_rate",
    "non_head_tie_rate",
    "play_points",
    "play_rolls",
]
"""The name of a figure of one night (:data:`bunco.analysis.night_kernel.FIGURES`)."""


class NightFigures(TypedDict):
    """The figures of one night (:func:`bunco.analysis.simulate.night_stats`): per-round
    figures averaged over its rounds, and per prize 1.0 when more than one qualified."""

    buncos: float
    rounds: float
    rolls_per_set: float
    head_rolls: float
    head_first_team_win: float
    head_bunco_end: float
    tie_rate: float
    non_head_tie_rate: float
    play_points: float
    play_rolls: float
    prize_ties: dict[str, float]  # prize (and group) → 1.0 when tied on the cards


class Estimate(TypedDict):
    """A figure over many nights: its mean and the standard error of the mean (NaN where
    there are too few values)."""

    mean: float
    se: float


class SummaryView(TypedDict):
    """A simulation's figures: every figure's estimate by name, every prize's tie rate."""

    parties: int
    figures: dict[str, Estimate]
    prize_ties: dict[str, Estimate]


@dataclass(frozen=True)
class Moments:
    """Count, mean and sum of squared deviations from the mean of some values."""

    count: int = 0
    mean: float = 0.0
    m2: float = 0.0

    @classmethod
    def of(cls, values: ArrayLike) -> Moments:
        data = np.asarray(values, dtype=np.float64)
        data = data[~np.isnan(data)]
        if len(data) == 0:
            return cls()
        mean = data.mean()
        return cls(len(data), float(mean), float(np.sum((data - mean) ** 2)))

    def merge(self, other: Moments) -> Moments:
        """Both sets of values together (Chan, Golub and LeVeque)."""
        if other.count == 0:
            return self
        if self.count == 0:
            return other
        n = self.count + other.count
        delta = other.mean - self.mean
        return Moments(
            n,
            self.mean + delta * other.count / n,
            self.m2 + other.m2 + delta * delta * self.count * other.count / n,
        )

    def as_dict(self) -> Estimate:
        """``{"mean", "se"}``; NaN where there are too few values."""
        if self.count == 0:
            return {"mean": math.nan, "se": math.nan}
        se = (
            math.sqrt(self.m2 / (self.count - 1)) / math.sqrt(self.count)
            if self.count > 1
            else math.nan
        )
        return {"mean": self.mean, "se": se}


@dataclass(frozen=True)
class Ratio:
    """A ratio of two totals over the nights (points over rolls), with the moments its
    standard error needs: the means of the numerator ``x`` and the denominator ``y`` per
    night and their co-moments. The ratio is ``sum(x) / sum(y)``, its standard error the
    delta method's ``sd(x - R y) / (sqrt(n) mean(y))``.

    >>> r = Ratio.of(np.array([3.0, 1.0]), np.array([4.0, 4.0]))
    >>> r.as_dict()["mean"], round(r.as_dict()["se"], 6)
    (0.5, 0.25)
    """

    count: int = 0
    mean_x: float = 0.0
    mean_y: float = 0.0
    cxx: float = 0.0
    cyy: float = 0.0
    cxy: float = 0.0

    @classmethod
    def of(cls, x: ArrayLike, y: ArrayLike) -> Ratio:
        xs = np.asarray(x, dtype=np.float64)
        ys = np.asarray(y, dtype=np.float64)
        if len(xs) == 0:
            return cls()
        dx, dy = xs - xs.mean(), ys - ys.mean()
        return cls(
            len(xs),
            float(xs.mean()),
            float(ys.mean()),
            float(dx @ dx),
            float(dy @ dy),
            float(dx @ dy),
        )

    def merge(self, other: Ratio) -> Ratio:
        """Both sets of nights together (Chan's formula for co-moments)."""
        if other.count == 0:
            return self
        if self.count == 0:
            return other
        n = self.count + other.count
        dx, dy = other.mean_x - self.mean_x, other.mean_y - self.mean_y
        w = self.count * other.count / n
        return Ratio(
            n,
            self.mean_x + dx * other.count / n,
            self.mean_y + dy * other.count / n,
            self.cxx + other.cxx + dx * dx * w,
            self.cyy + other.cyy + dy * dy * w,
            self.cxy + other.cxy + dx * dy * w,
        )

    def as_dict(self) -> Estimate:
        """``{"mean", "se"}``; NaN where there are too few nights or no denominator."""
        if self.count == 0 or self.mean_y == 0:
            return {"mean": math.nan, "se": math.nan}
        ratio = self.mean_x / self.mean_y
        if self.count < 2:
            return {"mean": ratio, "se": math.nan}
        spread = max(0.0, self.cxx - 2 * ratio * self.cxy + ratio * ratio * self.cyy)
        se = math.sqrt(spread / (self.count - 1) / self.count) / abs(self.mean_y)
        return {"mean": ratio, "se": se}


@dataclass
class Summary:
    """Moments per night figure and per prize (P(the prize ends in a tie)), by name, and
    ratios of totals (:class:`Ratio`)."""

    parties: int = 0
    figures: dict[str, Moments] = field(default_factory=dict)
    prize_ties: dict[str, Moments] = field(default_factory=dict)
    ratios: dict[str, Ratio] = field(default_factory=dict)

    def add(
        self,
        nights: int,
        figures: Mapping[str, ArrayLike],
        prize_ties: Mapping[str, ArrayLike],
        ratios: Mapping[str, tuple[ArrayLike, ArrayLike]] | None = None,
    ) -> None:
        """Fold in a chunk of ``nights``: the values of each figure and prize over them,
        and each ratio's numerators and denominators."""
        self.merge(
            Summary(
                nights,
                {k: Moments.of(v) for k, v in figures.items()},
                {k: Moments.of(v) for k, v in prize_ties.items()},
                {k: Ratio.of(x, y) for k, (x, y) in (ratios or {}).items()},
            )
        )

    def add_nights(
        self,
        nights: Iterable[NightFigures],
        keys: Iterable[FigureName],
        ratios: Mapping[str, tuple[FigureName, FigureName]] | None = None,
    ) -> None:
        """Fold in a chunk of per-night dicts (``keys`` and ``prize_ties``, as
        :func:`bunco.analysis.simulate.night_stats` gives them); ``ratios`` names each
        ratio's numerator and denominator keys."""
        chunk = list(nights)
        prizes = sorted({k for n in chunk for k in n["prize_ties"]})
        self.add(
            len(chunk),
            {k: [n[k] for n in chunk] for k in keys},
            {k: [n["prize_ties"][k] for n in chunk if k in n["prize_ties"]] for k in prizes},
            {
                k: ([n[x] for n in chunk], [n[y] for n in chunk])
                for k, (x, y) in (ratios or {}).items()
            },
        )

    def merge(self, other: Summary) -> None:
        self.parties += other.parties
        for mine, theirs in ((self.figures, other.figures), (self.prize_ties, other.prize_ties)):
            for key, moments in theirs.items():
                mine[key] = mine.get(key, Moments()).merge(moments)
        for key, ratio in other.ratios.items():
            self.ratios[key] = self.ratios.get(key, Ratio()).merge(ratio)

    def as_dict(self) -> SummaryView:
        """``{"parties", "figures": {name: {mean, se}}, "prize_ties": {...}}``: the
        ratios among the figures."""
        return {
            "parties": self.parties,
            "figures": {
                **{k: m.as_dict() for k, m in self.figures.items()},
                **{k: r.as_dict() for k, r in self.ratios.items()},
            },
            "prize_ties": {k: self.prize_ties[k].as_dict() for k in sorted(self.prize_ties)},
        }
