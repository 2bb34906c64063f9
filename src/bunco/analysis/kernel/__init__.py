"""The compiled night kernel, one idea a module (its public face is
:mod:`bunco.analysis.night_kernel`):

- :mod:`~bunco.analysis.kernel.layout` — the fields of its small flat arrays;
- :mod:`~bunco.analysis.kernel.dice` — the generator and the dice codes;
- :mod:`~bunco.analysis.kernel.table` — one table: settling, the bell, the cards;
- :mod:`~bunco.analysis.kernel.tiebreak` — rolls for high, tie-breaks, roll-offs;
- :mod:`~bunco.analysis.kernel.round` — one round at every table, the hot loop;
- :mod:`~bunco.analysis.kernel.moves` — a round's start and end: first rollers, movement;
- :mod:`~bunco.analysis.kernel.night` — whole nights: sets, prizes, the loop over nights.

Importing this package imports nothing heavy; its modules import NumPy and Numba.
"""
