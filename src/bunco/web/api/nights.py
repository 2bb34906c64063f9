"""HTTP API, part 1: nights, tokens and joining, reading and exports."""

from __future__ import annotations

import asyncio
import io
import ipaddress
import json
import secrets
from typing import Annotated

from fastapi import APIRouter, Query, Request
from fastapi.responses import Response

from bunco.party.night_report import night_report
from bunco.party.shapes import NightReport
from bunco.party.standings import standings_rows
from bunco.sheets import standings_csv
from bunco.store import Revoke, TokenChange
from bunco.web.api.access import (
    authenticate,
    join_credential,
    require_host,
    require_read,
    tokens,
)
from bunco.web.api.routing import (
    DIGITS,
    ERRORS,
    NightId,
    PlayerName,
    TableNo,
    player_named,
    service,
)
from bunco.web.decision.commands import fingerprint
from bunco.web.decision.night_options import bots_chosen, cards_kept, dice_chosen
from bunco.web.files.export import party_log_text
from bunco.web.gate.auth import creation_key, creation_lookup
from bunco.web.gate.principal import Principal
from bunco.web.night.night_in_memory import LiveNight
from bunco.web.room.join_cards import KEY, keep_cards
from bunco.web.values.replies import ServiceError
from bunco.web.values.reply_models import (
    BotsOut,
    CardOut,
    DiceOut,
    EventsOut,
    NightOut,
    PlayersOut,
    PrizesOut,
    ReportOut,
    RevokedOut,
    StandingsOut,
    WhoAmIOut,
    file_reply,
)
from bunco.web.values.schemas import (
    BotsIn,
    ClaimIn,
    CreatedOut,
    DiceModeIn,
    JoinIn,
    NightCreate,
    TableCredentials,
    TokenOut,
)

router = APIRouter(prefix="/api", responses=ERRORS, tags=["nights"])


def _base(request: Request) -> str:
    """The address links are made with: the one phones use (``bunco serve`` works it out),
    else the address this request came to."""
    public: str | None = getattr(request.app.state, "public_base", None)
    return public or str(request.base_url).rstrip("/")


def _credentials(request: Request, n: int, code: str, token: str) -> TableCredentials:
    return TableCredentials(
        table=n, code=code, token=token, link=f"{_base(request)}/join?token={token}"
    )


@router.post("/nights", status_code=201, response_model=CreatedOut)
async def create_night(body: NightCreate, request: Request) -> CreatedOut:
    """Create a night: players, preset, house rules, sets, prizes, groups, bots.

    The reply holds the host's secret token (the admin link), the viewer token and each
    table's join code and QR token; the server keeps only their hashes. A retry with the
    same (random) ``command_id`` and the same request gets this reply again, with the same
    tokens; the same ``command_id`` with another request is refused (409 ``id_reused``).
    """
    secret = request.app.state.create_secret
    if secret and not _bearer_is(request, secret) and not on_server_machine(request):
        raise ServiceError(
            401,
            "unauthorized",
            "nights are created on the computer that runs "
            "the server; from another device this server needs its creation "
            "secret",
            "the link with ?secret= that bunco serve printed, or "
            "Authorization: Bearer <the server's secret>",
        )
    svc = service(request)
    for bot in body.bots:
        if bot not in body.players:
            raise ServiceError(
                422,
                "invalid_setup",
                f"bot {bot!r} is not a player",
                "bots chosen among the players",
            )
    key = (
        None if body.command_id is None else await asyncio.to_thread(creation_key, body.command_id)
    )
    # a retried creation replays the first secrets: a join code replaced since must not
    # come back to life in the token cache
    retry = key is not None and (
        await svc.db(svc.store.night_by_command, creation_lookup(key)) is not None
    )
    live, made = await svc.create(
        body.setup(),
        name=body.name,
        options={"bots": body.bots, "bot_pace": body.bot_pace, "dice": body.dice},
        key=key,
        request=fingerprint("create", body.model_dump(mode="json", exclude={"command_id"})),
    )
    if not retry:
        tokens(request).remember(made.records(live.id))
    await keep_cards(svc, live, dict(enumerate(made.tables, 1)), replace=False)
    base = _base(request)
    return CreatedOut(
        night=live.id,
        name=live.name,
        seq=0,
        host_token=made.host,
        viewer_token=made.viewer,
        tables=[
            _credentials(request, n, code, token) for n, (code, token) in enumerate(made.tables, 1)
        ],
        links={
            "host": f"{base}/night/{live.id}?token={made.host}",
            "viewer": f"{base}/night/{live.id}?token={made.viewer}",
            "websocket": f"{base.replace('http', 'ws', 1)}/api/nights/{live.id}/ws",
        },
    )


def on_server_machine(request: Request) -> bool:
    """Whether the request comes from the computer the server runs on: a loopback address,
    or the very address it came to (the computer's own address on the network)."""
    client = request.client.host if request.client else ""
    try:
        if ipaddress.ip_address(client).is_loopback:
            return True
    except ValueError:
        return False
    server: tuple[str, int] | None = request.scope.get("server")
    return server is not None and server[0] == client


def _bearer_is(request: Request, secret: str) -> bool:
    header = request.headers.get("authorization", "")
    return secrets.compare_digest(header.partition(" ")[2].strip(), secret)


def _head(live: LiveNight, who: Principal, table: int | None = None) -> str:
    """The members of a night's GET besides its view, as JSON without the closing brace
    (for a table's page: its status without ``expects``, which its view has)."""
    status = live.status(expects=table is None)
    rest = {
        "night": live.id,
        "name": live.name,
        "created_at": live.created_at.isoformat(),
        "seq": live.seq,
        "setup": live.night.setup,
        "status": status,
        "versions": live.versions(table),
        "bots": live.bots,
        "bot_pace": live.options.get("bot_pace"),
        "dice": live.options.get("dice", "real"),
        "you": {"role": who.role, "table": who.table, "player": who.player},
    }
    if table is None:
        rest["verified"] = {
            name: dict(zip(("buncos", "mini_buncos", "wins"), figures, strict=True))
            for name, figures in live.night.verified.items()
        }
    return json.dumps(rest, separators=(",", ":"), ensure_ascii=False)[:-1]


@router.get("/nights/{night_id}", response_model=NightOut)
async def get_night(night_id: NightId, request: Request) -> Response:
    """The night now: status, the live view (tables, whose turn, cards), bots, the cards a
    checker verified (name → Buncos, Minis, Wins), your role. The view is built once per
    event and shared by every page that asks before the next one."""
    who = await require_read(request, night_id)
    live = await service(request).get(night_id)
    return Response(
        f'{_head(live, who)},"view":{await live.view_json()}}}', media_type="application/json"
    )


@router.get("/nights/{night_id}/tables/{table}", response_model=NightOut)
async def get_table(night_id: NightId, table: TableNo, request: Request) -> Response:
    """What a table's phone draws (a few kilobytes, however big the night): the night's
    GET with ``view`` holding this table (``view.table``, null when it is not in play this
    round), its last round's result, where its players go and their cards, and the
    ``versions`` of this table and the night. Built once per event and table."""
    who = await require_read(request, night_id)
    live = await service(request).get(night_id)
    night = live.night
    known = max([len(night.seating), len(night.tables), *(len(r.tables) for r in night.history)])
    if table > known:
        raise ServiceError(
            404, "no_such_table", f"there is no table {table} tonight", f"a table from 1 to {known}"
        )
    page = live.page(table)
    return Response(
        f'{_head(live, who, table)},"view":{page.as_json()}}}', media_type="application/json"
    )


@router.get("/nights/{night_id}/events", response_model=EventsOut)
async def get_events(
    night_id: NightId,
    request: Request,
    since: Annotated[int, DIGITS, Query(ge=-1, le=10_000_000)] = -1,
    table: Annotated[int | None, DIGITS, Query(ge=1, le=10_000)] = None,
) -> EventsOut:
    """The stored events after ``since`` (all, or one table's and the whole night's)."""
    await require_read(request, night_id)
    live = await service(request).get(night_id, at_least=since)  # seen on another process?
    events = live.since(since, table, whole=table is None)
    return EventsOut.model_validate(
        {"night": live.id, "seq": live.seq, "events": [e.envelope() for e in events]}
    )


@router.get("/nights/{night_id}/standings", response_model=StandingsOut)
async def get_standings(night_id: NightId, request: Request) -> StandingsOut:
    """Every player's wins, losses, Buncos, Minis, points, sets won, prizes and group, best
    first; players level on all of them share a rank."""
    await require_read(request, night_id)
    live = await service(request).get(night_id)
    return StandingsOut(night=live.id, seq=live.seq, standings=standings_rows(live.night))


@router.get("/nights/{night_id}/players", response_model=PlayersOut)
async def get_players(night_id: NightId, request: Request) -> PlayersOut:
    """The night's name and every player's name, in the order they were listed (what a
    player's phone offers to pick from: a few hundred bytes, not the whole night)."""
    await require_read(request, night_id)
    live = await service(request).get(night_id)
    return PlayersOut(night=live.id, name=live.name, seq=live.seq, players=list(live.night.roster))


@router.get("/nights/{night_id}/players/{name:path}/card", response_model=CardOut)
async def get_card(night_id: NightId, name: PlayerName, request: Request) -> CardOut:
    """One player's score card: W/L per round, Buncos, Minis, points, verification."""
    await require_read(request, night_id)
    live = await service(request).get(night_id)
    night = live.night
    name = player_named(live, name)
    seat = next(((i, t.index(name) + 1) for i, t in enumerate(night.seating, 1) if name in t), None)
    verified = night.verified.get(name)
    return CardOut(
        night=live.id,
        seq=live.seq,
        player=name,
        card=night.cards[name].as_dict(),
        table=seat[0] if seat else None,
        seat=seat[1] if seat else None,
        verified=None
        if verified is None
        else dict(zip(("buncos", "mini_buncos", "wins"), verified, strict=True)),
    )


@router.get("/nights/{night_id}/prizes", response_model=PrizesOut)
async def get_prizes(night_id: NightId, request: Request) -> PrizesOut:
    """Prizes (decided at the end of the night), set winners, the traveler, the last Bunco."""
    await require_read(request, night_id)
    live = await service(request).get(night_id)
    report = night_report(live.night)
    return PrizesOut.model_validate(
        {
            "night": live.id,
            "seq": live.seq,
            "phase": report["phase"],
            **{
                k: report[k]
                for k in ("prizes", "winner", "set_winners", "rolloff", "traveler", "last_bunco")
            },
        }
    )


@router.get("/nights/{night_id}/report", response_model=ReportOut)
async def get_report(night_id: NightId, request: Request) -> NightReport:
    """The whole night as ``bunco replay --json`` prints it."""
    await require_read(request, night_id)
    live = await service(request).get(night_id)
    return night_report(live.night)


@router.get(
    "/nights/{night_id}/export/log.jsonl",
    response_class=Response,
    responses=file_reply("application/x-ndjson", "the party log (JSON Lines)"),
)
async def export_log(night_id: NightId, request: Request) -> Response:
    """The party log (JSON Lines): the setup line, then every event. `bunco replay` reads it."""
    await require_read(request, night_id)
    live = await service(request).get(night_id)
    return Response(
        party_log_text(live.log),
        media_type="application/x-ndjson",
        headers={"content-disposition": f'attachment; filename="bunco-{live.id}.jsonl"'},
    )


@router.get(
    "/nights/{night_id}/export/standings.csv",
    response_class=Response,
    responses=file_reply("text/csv", "the standings (CSV)"),
)
async def export_standings(night_id: NightId, request: Request) -> Response:
    """The standings as CSV: rank, player, wins, losses, buncos, mini_buncos, points,
    prizes_won, group (the same file as ``bunco export`` writes for the party log)."""
    await require_read(request, night_id)
    live = await service(request).get(night_id)
    return Response(
        standings_csv(live.night),
        media_type="text/csv",
        headers={"content-disposition": f'attachment; filename="bunco-{live.id}-standings.csv"'},
    )


@router.post("/join", response_model=TokenOut)
async def join_table(body: JoinIn, request: Request) -> TokenOut:
    """Become a table's scorekeeper with its join code (typed) or join token (QR link).

    Wrong codes are limited per client address and, for typed codes, per night (a code
    sent with ``night`` is checked against that night's tables only) or, without one, for
    the whole server (429 with ``Retry-After``); see docs/server.md, "Guessing".
    """
    book = tokens(request)
    who = await join_credential(request, body.code, body.token, body.night)
    token, record = book.issue(who.night_id, "table", table=who.table)
    await service(request).change_tokens(who.night_id, TokenChange(add=(record,)))
    book.remember([record])
    return TokenOut(night=who.night_id, role="table", token=token, table=who.table)


@router.post("/nights/{night_id}/claim", response_model=TokenOut)
async def claim_player(night_id: NightId, body: ClaimIn, request: Request) -> TokenOut:
    """Join as a player by name (with the night's viewer link): see your card, roll on your turn.

    A name can be claimed by one phone at a time; the host can release it.
    """
    who = await require_read(request, night_id)
    live = await service(request).get(night_id)
    name = player_named(live, body.name)
    svc = service(request)
    token, record = tokens(request).issue(night_id, "player", player=name)
    # one claim of a name at a time, on every process (the store's claim lock)
    claim = TokenChange(claim=record, shared=who.role == "host")
    if not (await svc.change_tokens(night_id, claim)).claimed:
        raise ServiceError(
            409,
            "already_claimed",
            f"{name} is already followed by a phone",
            "the host to release the name first",
        )
    tokens(request).remember([record])
    return TokenOut(night=night_id, role="player", token=token, player=name)


@router.delete("/nights/{night_id}/players/{name:path}/claim", response_model=RevokedOut)
async def release_player(night_id: NightId, name: PlayerName, request: Request) -> RevokedOut:
    """Release a claimed name (host): its phones lose their player token."""
    await require_host(request, night_id, "releasing a name")
    svc = service(request)
    name = player_named(await svc.get(night_id), name)
    done = await svc.change_tokens(night_id, TokenChange(revoke=(Revoke("player", player=name),)))
    tokens(request).revoked(night_id)
    return RevokedOut.model_validate(
        {"night": night_id, "player": name, "revoked": done.revoked[0]}
    )


@router.post("/nights/{night_id}/tables/{table}/credentials", response_model=TableCredentials)
async def new_table_credentials(
    night_id: NightId, table: TableNo, request: Request
) -> TableCredentials:
    """A new join code and QR token for a table (host). Old ones stop working; phones that
    already joined stay its scorekeepers."""
    await require_host(request, night_id, "making join codes")
    live = await service(request).get(night_id)
    if table > max(len(live.night.seating), 1):
        raise ServiceError(
            404,
            "no_such_table",
            f"there is no table {table}",
            f"a table from 1 to {len(live.night.seating)}",
        )
    svc = service(request)
    book = tokens(request)
    code, code_record = book.issue_code(night_id, table)
    token, token_record = book.issue(night_id, "join", table=table)
    # the old code and QR token out, the new ones in and the hosts' card of them kept:
    # all of it or nothing (a table is never left without a way to join)
    change = TokenChange(
        revoke=(Revoke("join", table=table),),
        add=(code_record, token_record),
        options=cards_kept(KEY, {table: (code, token)}, replace=True),
    )
    await svc.change_tokens(night_id, change)
    book.forget()  # join credentials open no socket
    return _credentials(request, table, code, token)


@router.delete("/nights/{night_id}/tables/{table}/scorekeepers", response_model=RevokedOut)
async def revoke_scorekeepers(night_id: NightId, table: TableNo, request: Request) -> RevokedOut:
    """Sign out every phone that scores this table (host)."""
    await require_host(request, night_id, "signing out scorekeepers")
    await service(request).get(night_id)
    svc = service(request)
    done = await svc.change_tokens(night_id, TokenChange(revoke=(Revoke("table", table=table),)))
    tokens(request).revoked(night_id)
    return RevokedOut.model_validate(
        {"night": night_id, "table": table, "revoked": done.revoked[0]}
    )


@router.put("/nights/{night_id}/bots", response_model=BotsOut)
async def set_bots(night_id: NightId, body: BotsIn, request: Request) -> BotsOut:
    """Choose which players are bots (the server rolls for them on their turn) and their pace."""
    svc = service(request)
    await require_host(request, night_id, "choosing bots")
    live = await svc.get(night_id)
    unknown = [p for p in body.players if p not in live.night.cards]
    if unknown:
        raise ServiceError(
            422,
            "no_such_player",
            f"{unknown[0]!r} is not a player tonight",
            "bots chosen among the players",
        )
    changed = await svc.change_options(live, bots_chosen(body.players, body.pace))
    for hook in svc.after_commit:
        hook(live)
    return BotsOut(night=night_id, bots=live.bots, bot_pace=changed.after.get("bot_pace"))


@router.put("/nights/{night_id}/dice", response_model=DiceOut)
async def set_dice(night_id: NightId, body: DiceModeIn, request: Request) -> DiceOut:
    """The night's dice mode (host): ``real`` dice at the tables (the tables' phones offer
    typing and taps first) or ``phones`` (each phone's "Roll for me" first)."""
    svc = service(request)
    await require_host(request, night_id, "choosing the dice")
    live = await svc.get(night_id)
    await svc.change_options(live, dice_chosen(body.dice))
    svc.publisher.publish_options(live)  # the tables' phones switch layout without a reload
    return DiceOut(night=night_id, dice=body.dice)


@router.get("/me", response_model=WhoAmIOut)
async def whoami(request: Request) -> WhoAmIOut:
    """What the token you hold lets you do."""
    who = await authenticate(request, None, "asking who you are")
    return WhoAmIOut(night=who.night_id, role=who.role, table=who.table, player=who.player)


@router.get(
    "/qr.svg", response_class=Response, responses=file_reply("image/svg+xml", "the QR code (SVG)")
)
async def qr_code(text: Annotated[str, Query(min_length=1, max_length=1000)]) -> Response:
    """A QR code (SVG) of ``text``, e.g. a table's join link."""
    import segno

    out = io.BytesIO()
    segno.make(text, error="m").save(out, kind="svg", scale=8, border=2)
    return Response(out.getvalue(), media_type="image/svg+xml")
