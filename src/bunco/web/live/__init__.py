"""How a night's messages travel to the pages that follow it.

- :mod:`~bunco.web.live.pubsub`: the pub/sub interface every accepted event and status
  goes through (:class:`~bunco.web.live.pubsub.InProcessPubSub` inside one process), with
  its subscriptions per night or per table;
- :mod:`~bunco.web.live.open_sockets`: the WebSockets open in this process, by night and
  token, closed when their token is revoked.

What is published is the night's (:mod:`bunco.web.night.fanout`); the socket's route is
the API's (:mod:`bunco.web.api.ws`).
"""
