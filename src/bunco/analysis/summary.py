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
from typing import Any

import numpy as np
from numpy.typing import ArrayLike


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
        return Moments(n, self.mean + delta * other.count / n,
                       self.m2 + other.m2 + delta * delta * self.count * other.count / n)

    def as_dict(self) -> dict[str, float]:
        """``{"mean", "se"}``; NaN where there are too few values."""
        if self.count == 0:
            return {"mean": math.nan, "se": math.nan}
        se = math.sqrt(self.m2 / (self.count - 1)) / math.sqrt(self.count) if self.count > 1 \
            else math.nan
        return {"mean": self.mean, "se": se}


@dataclass
class Summary:
    """Moments per night figure and per prize (P(the prize ends in a tie)), by name."""

    parties: int = 0
    figures: dict[str, Moments] = field(default_factory=dict)
    prize_ties: dict[str, Moments] = field(default_factory=dict)

    def add(self, nights: int, figures: Mapping[str, ArrayLike],
            prize_ties: Mapping[str, ArrayLike]) -> None:
        """Fold in a chunk of ``nights``: the values of each figure and prize over them."""
        self.merge(Summary(nights, {k: Moments.of(v) for k, v in figures.items()},
                           {k: Moments.of(v) for k, v in prize_ties.items()}))

    def add_nights(self, nights: Iterable[Mapping[str, Any]], keys: Iterable[str]) -> None:
        """Fold in a chunk of per-night dicts (``keys`` and ``prize_ties``, as
        :func:`bunco.analysis.simulate.night_stats` gives them)."""
        chunk = list(nights)
        prizes = sorted({k for n in chunk for k in n["prize_ties"]})
        self.add(len(chunk), {k: [n[k] for n in chunk] for k in keys},
                 {k: [n["prize_ties"][k] for n in chunk if k in n["prize_ties"]]
                  for k in prizes})

    def merge(self, other: Summary) -> None:
        self.parties += other.parties
        for mine, theirs in ((self.figures, other.figures), (self.prize_ties, other.prize_ties)):
            for key, moments in theirs.items():
                mine[key] = mine.get(key, Moments()).merge(moments)

    def as_dict(self) -> dict[str, Any]:
        """``{"parties", "figures": {name: {mean, se}}, "prize_ties": {...}}``."""
        return {
            "parties": self.parties,
            "figures": {k: m.as_dict() for k, m in self.figures.items()},
            "prize_ties": {k: self.prize_ties[k].as_dict() for k in sorted(self.prize_ties)},
        }
