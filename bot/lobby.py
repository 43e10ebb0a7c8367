"""Lobbies: gathering players (and AIs) before a game starts.

The lobby message is the game's public face until Start: its embed lists the seats
and options, and its buttons carry the game id, so they work across restarts.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord
from pydantic import BaseModel

from bot.access import check_at_game, is_server_admin
from bot.board import button
from bot.custom_ids import CustomId
from bot.games import presenter
from bot.replies import client_of, say_public, tell
from bot.sessions import PlayError
from bot.store import GameRecord, LobbyError, SeatRecord
from engine.core import EngineError, get_game

if TYPE_CHECKING:
    pass

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]
AI_LEVELS = ("easy", "normal", "hard")



def describe_options(options: BaseModel) -> str:
    parts = []
    for name, value in options.model_dump().items():
        shown = "on" if value is True else "off" if value is False else "none" if value is None else str(value)
        parts.append(f"{name.replace('_', ' ')}: **{shown}**")
    return " · ".join(parts) or "standard rules"


def lobby_embed(record: GameRecord, seats: list[SeatRecord], *, note: str = "") -> discord.Embed:
    p = presenter(record.kind)
    game = get_game(record.kind)
    options = game.parse_options(record.options)
    low, high = game.player_range(options)
    status = {"lobby": "Waiting for players", "active": "Started", "finished": "Finished",
              "cancelled": "Cancelled"}[record.status]
    embed = discord.Embed(title=f"{p.emoji} {p.title} — game #{record.id}", description=status,
                          colour=discord.Colour.orange())
    players = "\n".join(f"{s.seat + 1}. {s.display}" for s in seats) or "nobody yet"
    embed.add_field(name=f"Players ({len(seats)}; {low}–{high} needed)" if low != high
                    else f"Players ({len(seats)}/{high})", value=players[:1024], inline=False)
    embed.add_field(name="Options", value=describe_options(options)[:1024], inline=False)
    if note:
        embed.set_footer(text=note[:2048])
    return embed


def lobby_view(record: GameRecord) -> discord.ui.View:
    """Lobby buttons while it gathers players; none once it started or closed."""
    view = discord.ui.View(timeout=None)
    if record.status != "lobby":
        return view
    gid = record.id
    view.add_item(button(CustomId("join", gid, 0), "Join", discord.ButtonStyle.success, row=0))
    view.add_item(button(CustomId("leave", gid, 0), "Leave", row=0))
    view.add_item(button(CustomId("start", gid, 0), "Start", discord.ButtonStyle.primary, row=0))
    view.add_item(button(CustomId("cancel", gid, 0), "Cancel", discord.ButtonStyle.danger, row=0))
    select: discord.ui.Select[Any] = discord.ui.Select(
        custom_id=CustomId("addai", gid, 0).encode(), placeholder="🤖 Add an AI player…", row=1,
        options=[discord.SelectOption(label=f"{level.title()} AI", value=level) for level in AI_LEVELS],
    )
    view.add_item(select)
    return view


async def open_lobby(interaction: Interaction, kind: str, raw_options: dict[str, Any]) -> None:
    """``/pyramid new``: validate options, create the game, post the lobby (or start
    a solo game at once)."""
    client = client_of(interaction)
    services = client.services
    game = get_game(kind)
    try:
        options = game.parse_options(raw_options)
    except EngineError as exc:
        await tell(interaction, f"❌ {exc}")
        return
    low, high = game.player_range(options)
    channel_id = interaction.channel_id
    if channel_id is None:
        await tell(interaction, "Start games in a server channel.")
        return
    try:  # one write: the opener's cap on open games, the game and its first seat
        game_id = await services.store.open_game(
            kind, guild_id=interaction.guild_id, channel_id=channel_id, options=options.model_dump(mode="json"),
            seed=services.new_seed(), created_by=interaction.user.id, name=interaction.user.display_name,
        )
    except LobbyError as exc:
        await tell(interaction, f"❌ {exc}")
        return
    record = await services.store.get_game(game_id)
    assert record is not None
    seats = await services.store.seats(game_id)
    if high == 1:
        await interaction.response.defer(thinking=True)
        await start_game(interaction, record, solo=True)
        return
    await interaction.response.send_message(embed=lobby_embed(record, seats), view=lobby_view(record))
    message = await interaction.original_response()
    await services.store.set_message(game_id, "lobby", message.channel.id, message.id)
    del low


async def refresh_lobby(interaction: Interaction, game_id: int, note: str = "") -> None:
    services = client_of(interaction).services
    record = await services.store.get_game(game_id)
    if record is None:
        await tell(interaction, "That game no longer exists.")
        return
    seats = await services.store.seats(game_id)
    await interaction.response.edit_message(embed=lobby_embed(record, seats, note=note), view=lobby_view(record))


async def on_lobby(interaction: Interaction, cid: CustomId, values: list[str]) -> None:
    services = client_of(interaction).services
    record = await services.store.get_game(cid.game_id)
    if record is None:
        await tell(interaction, "That game no longer exists.")
        return
    try:  # a forged custom id can name this lobby from anywhere
        check_at_game(interaction, record)
    except PlayError as exc:
        await tell(interaction, f"❌ {exc}")
        return
    if record.status != "lobby":
        await tell(interaction, "This lobby is closed: the game has started or was cancelled.")
        return
    game = get_game(record.kind)
    low, high = game.player_range(game.parse_options(record.options))
    user = interaction.user
    try:
        if cid.action == "join":
            await services.store.add_seat(record.id, user_id=user.id, limit=high, name=user.display_name)
            await refresh_lobby(interaction, record.id, f"{user.display_name} joined.")
        elif cid.action == "leave":
            seats = await services.store.seats(record.id)
            mine = next((s for s in seats if s.user_id == user.id), None)
            if mine is None:
                raise LobbyError("You are not in this lobby.")
            await services.store.remove_seat(record.id, mine.seat)
            if not [s for s in seats if s.user_id is not None and s.user_id != user.id]:
                await services.store.set_status(record.id, "cancelled", expect="lobby")
                await refresh_lobby(interaction, record.id, "Everyone left; the lobby is closed.")
            else:
                await refresh_lobby(interaction, record.id, f"{user.display_name} left.")
        elif cid.action == "addai":
            level = values[0] if values and values[0] in AI_LEVELS else "normal"
            if not await is_seated(interaction, record.id):
                raise LobbyError("Join the lobby before adding AI players.")
            await services.store.add_seat(record.id, ai_level=level, limit=high)  # type: ignore[arg-type]
            await refresh_lobby(interaction, record.id, f"{user.display_name} added a {level} AI.")
        elif cid.action == "start":
            seats = await services.store.seats(record.id)
            if not any(s.user_id == user.id for s in seats):
                raise LobbyError("Only players in the lobby can start the game.")
            if len(seats) < low:
                raise LobbyError(f"{presenter(record.kind).title} needs at least {low} players; "
                                 f"there are {len(seats)}. Invite someone or add an AI.")
            await interaction.response.defer()
            await start_game(interaction, record)
        elif cid.action == "cancel":
            if user.id != record.created_by and not is_server_admin(interaction, record.guild_id):
                raise LobbyError("Only the player who opened the lobby (or a server admin) can cancel it.")
            await services.store.set_status(record.id, "cancelled", expect="lobby")
            await refresh_lobby(interaction, record.id, f"Cancelled by {user.display_name}.")
    except (LobbyError, PlayError) as exc:
        await tell(interaction, f"❌ {exc}")


async def is_seated(interaction: Interaction, game_id: int) -> bool:
    seats = await client_of(interaction).services.store.seats(game_id)
    return any(s.user_id == interaction.user.id for s in seats)


async def start_game(interaction: Interaction, record: GameRecord, *, solo: bool = False) -> None:
    """Set the game up, give it a thread (per the server's setting) and post the first board."""
    client = client_of(interaction)
    services = client.services
    try:
        session = await services.sessions.start(record.id)
    except PlayError as exc:
        await tell(interaction, f"❌ {exc}")
        return
    thread_id = await client.open_play_space(interaction, session.record, solo=solo)
    if thread_id is not None:
        await services.store.set_thread(record.id, thread_id)
        services.sessions.forget(record.id)
    seats = await services.store.seats(record.id)
    where = f"<#{thread_id}>" if thread_id else "this channel"
    fresh = await services.store.get_game(record.id)
    assert fresh is not None
    notice = ""
    if session.game.view(session.state, None).get("proven_winnable") is False:
        notice = (" This deal is **not proven winnable**: the solver could not prove any deal winnable "
                  "within its search budget, so this one may have no solution.")
    if solo:
        # Public even after a private defer (a challenge's ▶ Play): the clicker's loading message gets a note.
        await say_public(interaction, f"{presenter(record.kind).emoji} Game #{record.id} started in {where}.{notice}",
                         private_note=f"✅ Your game #{record.id} started in {where}.")
    else:
        await interaction.edit_original_response(embed=lobby_embed(fresh, seats, note=f"Playing in {where}.{notice}"),
                                                 view=None)
    await client.announcer.announce(record.id)
