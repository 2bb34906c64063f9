"""What the club's routes use: the one door of the club's log, links, messages and the way back in.

- :mod:`~bunco.web.club.log`: every write of a club's log, checked, in one transaction,
  at the seq it was decided on, once per command id;
- :mod:`~bunco.web.club.links`: members' personal links and share links, issued and shown;
- :mod:`~bunco.web.club.notify`: the club's notices sent to members (Web Push, email) and
  the club's clock;
- :mod:`~bunco.web.club.push`: Web Push (VAPID keys, one encrypted notification);
- :mod:`~bunco.web.club.mail`: the reminder emails through the club's SMTP server;
- :mod:`~bunco.web.club.recovery`: the organizer's recovery code.

The club's season itself is :mod:`bunco.club` (pure); its routes are the API's
(:mod:`bunco.web.api.club`).
"""
