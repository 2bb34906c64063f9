"""Analysis: exact odds (:mod:`bunco.analysis.odds`) and the fast Monte-Carlo kernel
(:mod:`bunco.analysis.kernel`) that must agree with them.

Everything here asks the :class:`~bunco.core.rules.RuleSet` questions and scores dice with
:func:`bunco.core.dice.score_roll`; nothing tests a preset's name.
"""

from __future__ import annotations
