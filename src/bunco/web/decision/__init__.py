"""The one decision about a command to a night: a function of the night's frozen state,
the typed command and the values drawn for it (dice, the time), with no I/O.

- :mod:`~bunco.web.decision.frozen_state`: the held night's state at one seq, frozen (the
  engine's night, each table's version, the stored log, the command ids seen);
- :mod:`~bunco.web.decision.commands`: a command, typed (what it writes, whose it is, its
  id and fingerprint), and the dice it draws;
- :mod:`~bunco.web.decision.rights`: may this caller send this event now;
- :mod:`~bunco.web.decision.entry_rules`: where an entry was tapped (docs/outbox.md);
- :mod:`~bunco.web.decision.timed_rounds`: when the server writes a timed round's clock
  and its bell;
- :mod:`~bunco.web.decision.decide`: :func:`~bunco.web.decision.decide.decide`, accept,
  repeat or refuse;
- :mod:`~bunco.web.decision.refusals`: what a refusal is (``forbidden``, ``conflict``,
  ``invalid``, ``missing``), with its code and words;
- :mod:`~bunco.web.decision.night_options`: the decisions about a night's server options.

The nights in memory (:mod:`bunco.web.night`) run it under each night's lock. It speaks in
reasons, not HTTP, and reads no store: the command path
(:mod:`bunco.web.night.command_path`) gives a refusal its status and stores what was
accepted (a contract in ``pyproject.toml`` keeps the store and the replies out of here).
"""
