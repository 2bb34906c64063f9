"""What serves every connection and request around the routes.

- :mod:`~bunco.web.server.connections`: Uvicorn's protocols with caps, deadlines and
  bounded pipelining; :mod:`~bunco.web.server.message_budget`: a budget of WebSocket
  messages per socket;
- :mod:`~bunco.web.server.bodycap`: every request body capped and held to strict JSON;
- :mod:`~bunco.web.server.compress`: replies compressed (Brotli, gzip);
- :mod:`~bunco.web.server.errors`: every refusal as JSON with a 4xx;
- :mod:`~bunco.web.server.metrics` and :mod:`~bunco.web.server.access_log`: ``GET
  /metrics`` and the access log;
- :mod:`~bunco.web.server.address` and :mod:`~bunco.web.server.certs`: the address phones
  use on the Wi-Fi and the certificate of ``bunco serve --https``.
"""
