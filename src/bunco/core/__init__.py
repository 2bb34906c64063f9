"""The pure rules engine: dice, rule sets and presets, scoring, tables, rounds and the night fold.

Nothing here does I/O, reads a clock or draws random numbers: dice are input.
"""
