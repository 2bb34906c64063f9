"""The API's values, at the bottom of ``web``: what a request may carry and what a reply
says, with nothing of the night service in them.

- :mod:`~bunco.web.values.fields`: the checked values of the bodies (names, labels, dice,
  tallies, table numbers), with the engine's own checks;
- :mod:`~bunco.web.values.event_models`: the party log's events as pydantic models, made
  from the core's types;
- :mod:`~bunco.web.values.schemas`: the request bodies (and a few replies) the OpenAPI
  document shows;
- :mod:`~bunco.web.values.reply_models`: what each route answers, one model per reply shape;
- :mod:`~bunco.web.values.replies`: the command path's answers (a refusal, an accepted
  command, a stored event's envelope, the night's status), written around the stored JSON;
- :mod:`~bunco.web.values.strict_json`: what every JSON body is held to before a route
  reads it (each key once, every text checked, plain numbers);
- :mod:`~bunco.web.values.json_text`: JSON from a query string or a socket message, its
  nesting bounded.
"""
