"""Playing Bunco in the terminal (``bunco play``).

- :mod:`bunco.play.roster` — players, humans and bots from ``--players`` / ``--human``;
- :mod:`bunco.play.newnight` — the party line of a new night;
- :mod:`bunco.play.driver` — who rolls next, reproducible dice, applying and logging events;
- :mod:`bunco.play.logfile` — the party log written line by line, and resuming it;
- :mod:`bunco.play.commands` — what a person types at the prompt;
- :mod:`bunco.play.render` — dice faces, tables, rolls, moves and results with Rich;
- :mod:`bunco.play.game` — the interactive loop.
"""
