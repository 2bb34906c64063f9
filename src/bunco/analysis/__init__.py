"""Analysis: exact odds (:mod:`bunco.analysis.odds`, :mod:`bunco.analysis.table_odds`)
and the compiled night kernel (:mod:`bunco.analysis.night_kernel`) that must agree with
them; :mod:`bunco.analysis.dice_codes` holds the dice codes the kernels share.

Everything here asks the :class:`~bunco.core.rules.RuleSet` questions and scores dice with
:func:`bunco.core.dice.score_roll`; nothing tests a preset's name.
"""

from __future__ import annotations
