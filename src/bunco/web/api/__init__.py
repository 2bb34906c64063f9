"""The HTTP API and its WebSocket: one route module per part of it.

At the bottom, what the route modules share: :mod:`~bunco.web.api.access` (who is asking,
and may they call this route), :mod:`~bunco.web.api.routing` (path parameters, the
documented refusals, the service of a request, a command's reply) and
:mod:`~bunco.web.api.club_access` (a club route's caller and club). Above them the route
modules, which never import each other (but for the club's router, which includes its two
parts and makes a club night as :mod:`~bunco.web.api.nights` does): nights and tokens
(``nights``), play (``play``), money (``money``), corrections, co-hosts (``hosts``),
the door (``checkin``, ``door``), the room, the phones, the clock, downloads, join
cards, deletion, clubs (``club``, ``club_month``, ``club_plans``, and ``season_files``,
which hands a season's report to the download process) and the live stream
(``ws``). On top, :mod:`~bunco.web.api.fastpath`: the roll's route without the
framework's routing.
"""
