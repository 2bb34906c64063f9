"""The party room around the tables, as the routes of docs/room.md share it: who came in
at the door, the cards on the tables and at the door, what the host's dashboard flags.

- :mod:`~bunco.web.room.door_list`: the door list and its marks (kept with the night);
- :mod:`~bunco.web.room.door_cards`: the players' door cards (a card id per player);
- :mod:`~bunco.web.room.join_cards`: the tables' join codes, kept so every host of the
  night can show and print them again;
- :mod:`~bunco.web.room.room_watch`: the signs that a table needs a person (silent, too
  fast, a phone gone quiet).
"""
