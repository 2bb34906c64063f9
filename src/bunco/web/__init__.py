"""The web layer of ``bunco serve``, in folders by layer (docs/architecture.md draws them;
import-linter holds them, ``pyproject.toml``), from the top:

- :mod:`~bunco.web.app`: the ASGI app, which builds the service and registers the routes;
- :mod:`~bunco.web.api`: the HTTP API and its WebSocket, one route module per part;
- :mod:`~bunco.web.room` (the door list, door and join cards, the dashboard's flags) and
  :mod:`~bunco.web.server` (connections, body caps, compression, errors, metrics);
- :mod:`~bunco.web.night`: the nights held in memory and the one command path;
- :mod:`~bunco.web.decision` (the one decision about a command, pure),
  :mod:`~bunco.web.files` (downloads, the exported log), :mod:`~bunco.web.pages` (the
  pages and their static files) and :mod:`~bunco.web.club` (the club's links, notices,
  push, mail and recovery code);
- :mod:`~bunco.web.gate` (tokens, roles, guessing limits), :mod:`~bunco.web.live` (pub/sub
  and the open sockets) and :mod:`~bunco.web.values` (the API's bodies and replies).
"""
