"""The pure rules engine: dice, rule sets and presets, scoring, tables, rounds and the night fold.

Nothing here does I/O or reads a clock: dice are input. The one use of randomness is
round 1's seating when the party line carries a ``seed`` (a shuffle with
``random.Random(seed)``), so the same log always folds to the same night.
"""
