"""Sending the club's reminder emails through the SMTP server the club configured
(``mail`` in the club's log: host, port, sender, username and password if it needs them,
STARTTLS if asked). Blocking: call it in a thread."""

from __future__ import annotations

import smtplib
from collections.abc import Sequence
from email.message import EmailMessage

from bunco.core.club_events import MailSettings

TIMEOUT = 20.0  # seconds for the SMTP server to answer


class MailError(Exception):
    """The SMTP server could not be reached or refused the messages."""


def send_all(settings: MailSettings | None, messages: Sequence[EmailMessage]) -> list[str]:
    """Send every message in one SMTP session; returns the recipients refused (by address).

    Raises :class:`MailError` when the club has no mail server (``None``), or the server
    cannot be reached or refuses the session."""
    if settings is None:
        raise MailError("the club has no mail server")
    refused: list[str] = []
    try:
        with smtplib.SMTP(settings["host"], int(settings["port"]), timeout=TIMEOUT) as smtp:
            if settings["starttls"]:
                smtp.starttls()
            if settings.get("username"):
                smtp.login(settings.get("username", ""), settings.get("password", ""))
            for message in messages:
                try:
                    smtp.send_message(message)
                except smtplib.SMTPRecipientsRefused:
                    refused.append(str(message["To"]))
    except (OSError, smtplib.SMTPException) as exc:
        raise MailError(
            f"the mail server {settings['host']}:{settings['port']} failed: {exc}"
        ) from exc
    return refused
