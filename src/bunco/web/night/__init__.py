"""The nights this process holds in memory, the one path every write takes, and what runs
beside them.

- :mod:`~bunco.web.night.night_registry`: the nights held (:class:`HeldNights`), each
  rebuilt from the store when first used, advanced by each committed event;
- :mod:`~bunco.web.night.night_in_memory`: one night in memory (:class:`LiveNight`): its
  frozen state beside its runtime parts;
- :mod:`~bunco.web.night.write_and_follow`: the runtime parts that run its writes (the
  lock, the inbox, the writer task) and follow other processes;
- :mod:`~bunco.web.night.page_cache`: what the pages read from it, worked out once per seq;
- :mod:`~bunco.web.night.phone_book`: what the server knows of each table's phone;
- :mod:`~bunco.web.night.fanout`: each committed event published to the night's listeners;
- :mod:`~bunco.web.night.command_path`: the command path (inbox, batch, decide, store,
  answer);
- :mod:`~bunco.web.night.service`: :class:`NightService`, which holds them and creates
  nights;
- runners beside the requests: :mod:`~bunco.web.night.bots` (the bots' rolls),
  :mod:`~bunco.web.night.round_timer` (a timed round's bell at zero) and
  :mod:`~bunco.web.night.follow` (other processes' commits on PostgreSQL).
"""
