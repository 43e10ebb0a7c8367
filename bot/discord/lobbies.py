"""Lobbies: gathering players (and AIs) before a game starts, and starting it.

The lobby message is the game's public face until Start: its embed lists the seats
and options, and its buttons carry the game id, so they work across restarts.
Starting a game gives it a thread of its own (per the server's setting) and
announces its first board.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Final

import discord
from pydantic import BaseModel

from bot.custom_ids import CustomId
from bot.discord.access import check_at_game, is_server_admin
from bot.discord.replies import say_public, tell
from bot.games.presenter import Presenter
from bot.play.components import button
from bot.play.errors import PlayError
from bot.play.host import Host
from bot.services import Services
from bot.store import GameRecord, LobbyError, SeatRecord
from bot.store.records import AiLevel
from engine.core import EngineError

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]
AI_LEVELS: tuple[AiLevel, ...] = ("easy", "normal", "hard")
#: Threads of games archive after a week without messages (Discord's longest).
ARCHIVE_MINUTES: Final = 10080


def describe_options(options: BaseModel) -> str:
    parts = []
    for name, value in options.model_dump().items():
        shown = "on" if value is True else "off" if value is False else "none" if value is None else str(value)
        parts.append(f"{name.replace('_', ' ')}: **{shown}**")
    return " · ".join(parts) or "standard rules"


def lobby_embed(record: GameRecord, seats: list[SeatRecord], presenter: Presenter, *, note: str = "") -> discord.Embed:
    game = presenter.game
    options = game.parse_options(record.options)
    low, high = game.player_range(options)
    status = {"lobby": "Waiting for players", "active": "Started", "finished": "Finished",
              "cancelled": "Cancelled"}[record.status]
    embed = discord.Embed(title=f"{presenter.emoji} {presenter.title} — game #{record.id}", description=status,
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


@dataclass(frozen=True)
class Lobby:
    """A lobby as a click finds it: still gathering players, here."""

    record: GameRecord
    presenter: Presenter
    low: int
    high: int


LobbyAction = Callable[[Interaction, Lobby], Awaitable[None]]


class Lobbies:
    def __init__(self, services: Services, host: Host) -> None:
        self.services = services
        self.host = host

    # --- /pyramid new ---------------------------------------------------------------
    async def open(self, interaction: Interaction, presenter: Presenter, raw_options: dict[str, Any]) -> None:
        """Validate options, create the game, post the lobby (or start a solo game at once)."""
        services = self.services
        game = presenter.game
        try:
            options = game.parse_options(raw_options)
        except EngineError as exc:
            await tell(interaction, f"❌ {exc}")
            return
        _, high = game.player_range(options)
        channel_id = interaction.channel_id
        if channel_id is None:
            await tell(interaction, "Start games in a server channel.")
            return
        try:  # one write: the opener's cap on open games, the game and its first seat
            game_id = await services.store.open_game(
                presenter.kind, guild_id=interaction.guild_id, channel_id=channel_id,
                options=options.model_dump(mode="json"), seed=services.new_seed(), created_by=interaction.user.id,
                name=interaction.user.display_name,
            )
        except LobbyError as exc:
            await tell(interaction, f"❌ {exc}")
            return
        record = await services.store.game_record(game_id)
        assert record is not None
        seats = await services.store.seats(game_id)
        if high == 1:
            await interaction.response.defer(thinking=True)
            await self.start_game(interaction, record, solo=True)
            return
        await interaction.response.send_message(embed=lobby_embed(record, seats, presenter), view=lobby_view(record))
        message = await interaction.original_response()
        await services.store.set_message(game_id, "lobby", message.channel.id, message.id)

    # --- the lobby's buttons --------------------------------------------------------
    async def join(self, interaction: Interaction, game_id: int) -> None:
        await self._act(interaction, game_id, self._join)

    async def leave(self, interaction: Interaction, game_id: int) -> None:
        await self._act(interaction, game_id, self._leave)

    async def add_ai(self, interaction: Interaction, game_id: int, level: str) -> None:
        chosen: AiLevel = next((a for a in AI_LEVELS if a == level), "normal")

        async def add(interaction: Interaction, lobby: Lobby) -> None:
            await self._add_ai(interaction, lobby, chosen)

        await self._act(interaction, game_id, add)

    async def start(self, interaction: Interaction, game_id: int) -> None:
        await self._act(interaction, game_id, self._start)

    async def cancel(self, interaction: Interaction, game_id: int) -> None:
        await self._act(interaction, game_id, self._cancel)

    async def _act(self, interaction: Interaction, game_id: int, action: LobbyAction) -> None:
        """Run a lobby button's ``action`` if the lobby is open and the click comes
        from its channel; every refusal is told to the clicker."""
        lobby = await self._lobby(interaction, game_id)
        if lobby is None:
            return
        try:
            await action(interaction, lobby)
        except (LobbyError, PlayError) as exc:
            await tell(interaction, f"❌ {exc}")

    async def _lobby(self, interaction: Interaction, game_id: int) -> Lobby | None:
        record = await self.services.store.game_record(game_id)
        if record is None:
            await tell(interaction, "That game no longer exists.")
            return None
        try:  # a forged custom id can name this lobby from anywhere
            check_at_game(interaction, record)
        except PlayError as exc:
            await tell(interaction, f"❌ {exc}")
            return None
        if record.status != "lobby":
            await tell(interaction, "This lobby is closed: the game has started or was cancelled.")
            return None
        presenter = self.services.catalogue.presenter(record.kind)
        low, high = presenter.game.player_range(presenter.game.parse_options(record.options))
        return Lobby(record, presenter, low, high)

    async def _join(self, interaction: Interaction, lobby: Lobby) -> None:
        user = interaction.user
        await self.services.store.add_seat(lobby.record.id, user_id=user.id, limit=lobby.high, name=user.display_name)
        await self.refresh(interaction, lobby.record.id, f"{user.display_name} joined.")

    async def _leave(self, interaction: Interaction, lobby: Lobby) -> None:
        store, user, game_id = self.services.store, interaction.user, lobby.record.id
        seats = await store.seats(game_id)
        mine = next((s for s in seats if s.user_id == user.id), None)
        if mine is None:
            raise LobbyError("You are not in this lobby.")
        await store.remove_seat(game_id, mine.seat)
        if not [s for s in seats if s.user_id is not None and s.user_id != user.id]:
            await store.set_status(game_id, "cancelled", expect="lobby")
            await self.refresh(interaction, game_id, "Everyone left; the lobby is closed.")
        else:
            await self.refresh(interaction, game_id, f"{user.display_name} left.")

    async def _add_ai(self, interaction: Interaction, lobby: Lobby, level: AiLevel) -> None:
        seats = await self.services.store.seats(lobby.record.id)
        if not any(s.user_id == interaction.user.id for s in seats):
            raise LobbyError("Join the lobby before adding AI players.")
        await self.services.store.add_seat(lobby.record.id, ai_level=level, limit=lobby.high)
        await self.refresh(interaction, lobby.record.id, f"{interaction.user.display_name} added a {level} AI.")

    async def _start(self, interaction: Interaction, lobby: Lobby) -> None:
        seats = await self.services.store.seats(lobby.record.id)
        if not any(s.user_id == interaction.user.id for s in seats):
            raise LobbyError("Only players in the lobby can start the game.")
        if len(seats) < lobby.low:
            raise LobbyError(f"{lobby.presenter.title} needs at least {lobby.low} players; "
                             f"there are {len(seats)}. Invite someone or add an AI.")
        await interaction.response.defer()
        await self.start_game(interaction, lobby.record)

    async def _cancel(self, interaction: Interaction, lobby: Lobby) -> None:
        record, user = lobby.record, interaction.user
        if user.id != record.created_by and not is_server_admin(interaction, record.guild_id):
            raise LobbyError("Only the player who opened the lobby (or a server admin) can cancel it.")
        await self.services.store.set_status(record.id, "cancelled", expect="lobby")
        await self.refresh(interaction, record.id, f"Cancelled by {user.display_name}.")

    async def refresh(self, interaction: Interaction, game_id: int, note: str = "") -> None:
        """Show the lobby as it stands now on the message that was clicked."""
        services = self.services
        record = await services.store.game_record(game_id)
        if record is None:
            await tell(interaction, "That game no longer exists.")
            return
        seats = await services.store.seats(game_id)
        presenter = services.catalogue.presenter(record.kind)
        await interaction.response.edit_message(embed=lobby_embed(record, seats, presenter, note=note),
                                                view=lobby_view(record))

    # --- starting -----------------------------------------------------------------------
    async def start_game(self, interaction: Interaction, record: GameRecord, *, solo: bool = False) -> None:
        """Set the game up, give it a thread (per the server's setting) and post the first board."""
        services = self.services
        try:
            session = await services.sessions.start(record.id)
        except PlayError as exc:
            await tell(interaction, f"❌ {exc}")
            return
        presenter = session.presenter
        thread_id = await self._play_space(interaction, session.record, presenter, solo=solo)
        if thread_id is not None:
            await services.store.set_thread(record.id, thread_id)
            services.sessions.forget(record.id)
        seats = await services.store.seats(record.id)
        where = f"<#{thread_id}>" if thread_id else "this channel"
        fresh = await services.store.game_record(record.id)
        assert fresh is not None
        notice = ""
        if session.game.view(session.state, None).get("proven_winnable") is False:
            notice = (" This deal is **not proven winnable**: the solver could not prove any deal winnable "
                      "within its search budget, so this one may have no solution.")
        if solo:
            # Public even after a private defer (a challenge's ▶ Play): the clicker's loading message gets a note.
            await say_public(interaction, f"{presenter.emoji} Game #{record.id} started in {where}.{notice}",
                             private_note=f"✅ Your game #{record.id} started in {where}.")
        else:
            await interaction.edit_original_response(
                embed=lobby_embed(fresh, seats, presenter, note=f"Playing in {where}.{notice}"), view=None)
        await self.host.delivery.announce(record.id)

    async def _play_space(self, interaction: Interaction, record: GameRecord, presenter: Presenter, *,
                          solo: bool) -> int | None:
        """A thread for the game, unless the server plays in channels; None means
        'play right here'."""
        if record.guild_id is None:
            return None
        settings = await self.services.store.guild_settings(record.guild_id)
        if not settings.use_threads:
            return None
        name = f"{presenter.title} #{record.id}"
        if solo:
            name += f" – {interaction.user.display_name}"
        channel = interaction.channel
        try:
            if not solo and interaction.message is not None and isinstance(channel, discord.TextChannel):
                thread = await interaction.message.create_thread(name=name[:100], auto_archive_duration=ARCHIVE_MINUTES)
            elif isinstance(channel, discord.TextChannel):
                thread = await channel.create_thread(
                    name=name[:100], type=discord.ChannelType.public_thread, auto_archive_duration=ARCHIVE_MINUTES
                )
            else:
                return None
        except discord.HTTPException as exc:
            log.warning("could not open a thread for game %s (%s); playing in the channel", record.id, exc)
            return None
        return thread.id
