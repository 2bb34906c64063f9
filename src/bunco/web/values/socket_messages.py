"""The WebSocket's messages (docs/server.md, "Live updates: the WebSocket"): one
``TypedDict`` per message the server sends, :data:`SocketMessage` their union by ``type``,
and their JSON Schemas for the OpenAPI document (:func:`message_schemas`).

Where a message is built as a dict (the hello, ``status``, ``pong``, ``caught_up``,
``checkin``, ``room``) it is built as its type here; the messages built around JSON that
is serialised once for every listener (an ``event`` around its stored JSON, a ``table``
around its page's) have the shape of their type, and the socket's tests check every
message a played night sends against :data:`SocketMessage`.

>>> from pydantic import TypeAdapter
>>> TypeAdapter(SocketMessage).validate_json('{"type": "pong", "seq": 7}')
{'type': 'pong', 'seq': 7}
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, NotRequired

from pydantic import ConfigDict, Field, TypeAdapter, WithJsonSchema, with_config
from pydantic.json_schema import JsonSchemaValue
from typing_extensions import TypedDict

from bunco.core.round_results import RoundEnded
from bunco.core.server_options import Announcement, HostCall
from bunco.party.shapes import TablePageRest, TableView
from bunco.web.values.replies import NightStatus, RollEntry
from bunco.web.values.reply_models import STORED_EVENT_SCHEMA

_STORED_EVENT = Annotated[dict[str, Any], WithJsonSchema({"type": "object"})]
"""A stored event (its schema, :data:`~bunco.web.values.reply_models.STORED_EVENT_SCHEMA`,
refers to the party log's events in the OpenAPI document: :func:`message_schemas` puts it
in)."""

_CLOSED = ConfigDict(extra="forbid")  # a message carries the members its type names


@with_config(_CLOSED)
class HelloMessage(TypedDict):
    """The first message: the night's last seq now, the ``since`` asked for, the table
    followed (a player's: where the player sits now), the token's role and the night's
    status. A table's (or player's) socket adds what its phones draw at that seq:
    ``table_view`` (absent when the table is not in play), ``view`` and ``versions``
    (the ``expected_seq`` to send); a player's adds ``player``."""

    type: Literal["hello"]
    night: str
    seq: int
    since: int
    table: int | None
    role: str
    status: NightStatus
    player: NotRequired[str]
    table_view: NotRequired[TableView]
    view: NotRequired[TablePageRest]
    versions: NotRequired[dict[str, int]]


@with_config(_CLOSED)
class EventMessage(TypedDict):
    """A stored event, in the backlog and live; live, with ``table_view`` (its table
    after it), ``status`` (without ``expects``) and, for a roll or tally, ``entry`` (what
    it scored) and ``ended`` (when it ended the round), as in a command's reply."""

    type: Literal["event"]
    seq: int
    table: int | None
    command_id: str | None
    at: Annotated[str, Field(description="when the server stored it (UTC, ISO 8601)")]
    event: _STORED_EVENT
    table_view: NotRequired[TableView]
    status: NotRequired[NightStatus]
    entry: NotRequired[RollEntry]
    ended: NotRequired[RoundEnded]


@with_config(_CLOSED)
class CaughtUpMessage(TypedDict):
    """The backlog is sent: live messages follow."""

    type: Literal["caught_up"]
    seq: int


@with_config(_CLOSED)
class StatusMessage(TypedDict):
    """The night's status, when the phase, set, round, bell or options change or an event
    of the whole night happens (a table's socket: without ``expects``)."""

    type: Literal["status"]
    seq: int
    status: NightStatus


@with_config(_CLOSED)
class TableMessage(TypedDict):
    """A table's page changed (or a player's phone moved there): ``table_view`` and the
    rest of the page (``view``); ``table`` null, with no page, when a player sits at no
    table."""

    type: Literal["table"]
    seq: int
    table: int | None
    table_view: NotRequired[TableView | None]
    view: NotRequired[TablePageRest]


@with_config(_CLOSED)
class PongMessage(TypedDict):
    """The answer to ``{"type": "ping"}``, with the night's last seq."""

    type: Literal["pong"]
    seq: int


@with_config(ConfigDict(extra="allow"))
class ErrorMessage(TypedDict):
    """A refused socket (then closed with 4000 + the HTTP status), or a revoked token's
    (closed with 4401): the members of every refusal, and any more it names."""

    type: Literal["error"]
    error: str
    message: str
    expected: str | None


@with_config(_CLOSED)
class CheckinMessage(TypedDict):
    """The door list changed: how many seated players are here, how many not yet."""

    type: Literal["checkin"]
    seq: int
    here: int
    missing: int


class RoomNow(TypedDict):
    """What every page of the night draws of the room (``GET .../room``)."""

    night: str
    announcement: Announcement | None
    calls: list[HostCall]


@with_config(_CLOSED)
class RoomMessage(TypedDict):
    """The announcement or the calls changed."""

    type: Literal["room"]
    seq: int
    room: RoomNow


SocketMessage = Annotated[
    HelloMessage
    | EventMessage
    | CaughtUpMessage
    | StatusMessage
    | TableMessage
    | PongMessage
    | ErrorMessage
    | CheckinMessage
    | RoomMessage,
    Field(discriminator="type"),
]
"""Every message the server sends on a night's WebSocket."""

MESSAGES = TypeAdapter(SocketMessage)
"""Checks a message against :data:`SocketMessage` (the tests; :func:`room_message`)."""

_ROOM = TypeAdapter(RoomNow)


def room_message(seq: int, room: object) -> RoomMessage:
    """The ``room`` message at ``seq`` of ``room``, the room as ``GET .../room`` answers
    it (its JSON), checked against :class:`RoomNow`."""
    return {"type": "room", "seq": seq, "room": _ROOM.validate_python(room)}


def message_schemas(ref_template: str) -> dict[str, JsonSchemaValue]:
    """The JSON Schema of each message and of what they hold, by name, with
    ``SocketMessage`` their union (``ref_template``: where the schemas are referred to,
    as ``"#/components/schemas/{model}"``)."""
    schema = MESSAGES.json_schema(ref_template=ref_template, mode="serialization")
    named: dict[str, JsonSchemaValue] = schema.pop("$defs")
    named["EventMessage"]["properties"]["event"] = STORED_EVENT_SCHEMA
    return {**named, "SocketMessage": schema}
