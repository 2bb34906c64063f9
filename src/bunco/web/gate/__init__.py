"""Who holds which key to a night: tokens and roles, and the limits on guessing them.

- :mod:`~bunco.web.gate.auth`: the tokens (kept as hashes), the roles (host, table,
  player, viewer, join) and the principal a token names;
- :mod:`~bunco.web.gate.principal`: that principal, a plain value (who is asking: the
  night and role a token grants);
- :mod:`~bunco.web.gate.cohost_labels`: how a co-host's token is labelled
  (``co-host 2 · Bea``);
- :mod:`~bunco.web.gate.guard`: the limits on failed attempts (wrong join codes, unknown
  tokens), per client address, per night and per server.

What a route checks with them (:mod:`bunco.web.api.access`) sits with the routes; what a
command may do is part of the decision (:mod:`bunco.web.decision.rights`).
"""
