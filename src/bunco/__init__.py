"""bunco: the reference software for the dice game Bunco."""

__version__ = "0.1.0"
