"""The ``/pyramid`` slash commands. Each one defers before slow work and answers
privately unless the channel needs to see it."""

from __future__ import annotations

import io
import json
import logging
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands

from bot import permissions
from bot.announcer import public_view
from bot.board import status_line
from bot.finding import find_game
from bot.games import PRESENTERS, presenter
from bot.lobby import open_lobby
from bot.replies import client_of, defer_private, tell
from bot.server_settings import SettingsRefused, change_settings, describe
from bot.sessions import PlayError, StaleBoard
from bot.turns import send_current_board, show_hand
from engine.core import MoveRejected

if TYPE_CHECKING:
    pass

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]

GAME_CHOICES = [app_commands.Choice(name=p.title, value=p.id) for p in PRESENTERS.values()]
#: The longest move text the bot reads (Discord's max_length on ``move:``, checked
#: again here since a forged interaction skips it); real moves are under 30.
MAX_MOVE_TEXT = 100
#: Discord's min/max of ``/pyramid new``'s number options. discord.py does not check
#: them on arrival, so the command checks them again (the game's option model has
#: its own, sometimes wider, bounds for engines and simulations).
TURN_LIMIT = (1, 1000)
TARGET = (10, 1000)
SIZE = (4, 5)
ROUNDS = (1, 10)
NEW_BOUNDS = {"turn_limit": TURN_LIMIT, "target": TARGET, "size": SIZE, "rounds": ROUNDS}


def out_of_bounds(given: dict[str, Any]) -> str | None:
    """Why a number option of ``/pyramid new`` is refused, or None."""
    for name, (low, high) in NEW_BOUNDS.items():
        value = given.get(name)
        if value is not None and not low <= value <= high:
            return f"{name} must be from {low} to {high}."
    return None



def channel_name(interaction: Interaction) -> str:
    return f"<#{interaction.channel_id}>" if interaction.channel_id else "this channel"


async def place_here(interaction: Interaction) -> permissions.Place:
    """Where a game opened here would be played, by the server's thread setting."""
    settings = await client_of(interaction).services.store.guild_settings(interaction.guild_id or 0)
    return permissions.place_of(interaction.channel, settings.use_threads)


async def permission_refusal(interaction: Interaction) -> str | None:
    """Refuse ``/pyramid new`` up front where the bot could not post the game (#15):
    Discord tells the bot its own permissions here with every interaction."""
    if interaction.guild_id is None:
        return None
    return permissions.refusal(interaction.app_permissions, channel_name(interaction), await place_here(interaction))


def build_admin_group() -> app_commands.Group:
    """``/pyramid-admin``: a top-level command of its own, because Discord applies
    ``default_member_permissions`` per top-level command (discord.py drops it on a
    subcommand), so only members who can manage the server see it."""
    return app_commands.Group(
        name="pyramid-admin", description="Pyramid Bot server administration",
        default_permissions=discord.Permissions(manage_guild=True), guild_only=True,
    )


def build_groups() -> list[app_commands.Group]:
    """Every top-level command group the bot registers: ``/pyramid`` and ``/pyramid-admin``."""
    admin = build_admin_group()
    return [build_group(admin), admin]


def build_group(admin: app_commands.Group | None = None) -> app_commands.Group:
    """``/pyramid``; its admin commands go to ``admin`` (``/pyramid-admin``)."""
    group = app_commands.Group(name="pyramid", description="Pyramid tile games: Flaming Pyramids and friends")
    admin = admin if admin is not None else build_admin_group()

    @group.command(name="new", description="Open a lobby for a new game (solo games start at once)")
    @app_commands.describe(
        game="Which game",
        curse="Flaming Pyramids: play with the curse",
        turn_limit="Flaming Pyramids: a short game — end after this many turns (1-1000), fewest tiles wins",
        target="Pyrinoes: points to win the match (10-1000, default 100)",
        mode="Pyramido: solo, co-op or competitive",
        size="Pyramido solo/co-op: 5 (65 stones) or 4 (small edition, 40 stones); competitive follows player count",
        rounds="Pyramido competitive: number of rounds (1-10)",
        winnable_only="Continuous Pyramid: deal only deals the solver proved winnable",
        undo="Continuous Pyramid: allow taking plays back (default on)",
        challenge="Continuous Pyramid: everyone in this channel plays the same deal, with a leaderboard",
    )
    @app_commands.choices(game=GAME_CHOICES)
    async def new(
        interaction: Interaction,
        game: app_commands.Choice[str],
        curse: bool | None = None,
        turn_limit: app_commands.Range[int, TURN_LIMIT[0], TURN_LIMIT[1]] | None = None,
        target: app_commands.Range[int, TARGET[0], TARGET[1]] | None = None,
        mode: Literal["solo", "coop", "competitive"] | None = None,
        size: app_commands.Range[int, SIZE[0], SIZE[1]] | None = None,
        rounds: app_commands.Range[int, ROUNDS[0], ROUNDS[1]] | None = None,
        winnable_only: bool | None = None,
        undo: bool | None = None,
        challenge: bool = False,
    ) -> None:
        given = {"curse": curse, "turn_limit": turn_limit, "target": target, "mode": mode, "size": size,
                 "rounds": rounds, "winnable_only": winnable_only, "undo": undo}
        known = presenter(game.value).game.options_model.model_fields
        options = {k: v for k, v in given.items() if v is not None and k in known}
        ignored = [k for k, v in given.items() if v is not None and k not in known]
        if ignored:
            await tell(interaction, f"❌ {game.name} has no option {', '.join(ignored)}.")
            return
        refused = out_of_bounds(options)
        if refused is not None:
            await tell(interaction, f"❌ {refused} Nothing was opened.")
            return
        lacking = await permission_refusal(interaction)
        if lacking is not None:
            await tell(interaction, lacking)
            return
        if challenge:
            if game.value != "continuous-pyramid":
                await tell(interaction, "❌ Only Continuous Pyramid is played as a channel challenge.")
                return
            from bot.challenges import open_challenge

            await open_challenge(interaction, options)
            return
        await open_lobby(interaction, game.value, options)

    @group.command(name="play", description="Make a move in the rules notation")
    @app_commands.describe(move="Your move, e.g. play R40 1,0", game="Game number (if you play several here)")
    async def play(interaction: Interaction, move: app_commands.Range[str, 1, MAX_MOVE_TEXT],
                   game: int | None = None) -> None:
        client = client_of(interaction)
        if len(move) > MAX_MOVE_TEXT:
            await tell(interaction, f"❌ That move is too long: moves are at most {MAX_MOVE_TEXT} characters.")
            return
        await defer_private(interaction)
        try:
            record = await find_game(interaction, game)
            # The engine would take the move from a seat an AI now plays: refuse first.
            (await client.services.sessions.load(record.id)).human_seat(interaction.user.id)
            outcome = await client.services.sessions.make_move(record.id, move, user_id=interaction.user.id)
        except StaleBoard:
            await tell(interaction, "⌛ Someone moved at the same moment; please try again.")
            return
        except (PlayError, MoveRejected) as exc:
            await tell(interaction, f"❌ {exc}")
            return
        await tell(interaction, f"✅ You played `{outcome.move}` in game #{record.id}.")
        if not await client.announcer.announce(record.id):  # the move counts all the same
            await tell(interaction, "📋 Your move is saved; the board will follow as soon as Discord lets me post it.")

    @play.autocomplete("move")
    async def play_complete(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        client = client_of(interaction)
        if len(current) > MAX_MOVE_TEXT:
            return []
        number = getattr(interaction.namespace, "game", None)
        try:
            record = await find_game(interaction, number if isinstance(number, int) else None)
            session = await client.services.sessions.load(record.id)
            seat = session.human_seat(interaction.user.id)
        except PlayError:
            return []
        if session.to_act != seat.seat:
            return []
        text = current.strip().lower()
        moves = session.game.legal_moves(session.state)
        starts = [m for m in moves if m.lower().startswith(text)]
        contains = [m for m in moves if text in m.lower() and m not in starts]
        return [app_commands.Choice(name=m, value=m) for m in (starts + contains)[:25]]

    @group.command(name="hand", description="Your private hand, just for you")
    async def hand(interaction: Interaction, game: int | None = None) -> None:
        try:
            record = await find_game(interaction, game)
            session = await client_of(interaction).services.sessions.load(record.id)
        except PlayError as exc:
            await tell(interaction, f"❌ {exc}")
            return
        await show_hand(interaction, session)

    @group.command(name="status", description="The current board of the game here")
    async def status(interaction: Interaction, game: int | None = None) -> None:
        try:
            record = await find_game(interaction, game, statuses=("active", "finished"))
            session = await client_of(interaction).services.sessions.load(record.id)
        except PlayError as exc:
            await tell(interaction, f"❌ {exc}")
            return
        await defer_private(interaction)
        await send_current_board(interaction, session, f"Game #{record.id}:")

    @group.command(name="games", description="Your games in this server and whose turn it is")
    async def games(interaction: Interaction) -> None:
        client = client_of(interaction)
        await defer_private(interaction)
        records = await client.services.store.games_of_user(
            interaction.user.id, interaction.guild_id, ("lobby", "active")
        )
        if not records:
            await tell(interaction, "You are not in any running game here. Start one with `/pyramid new`.")
            return
        lines = []
        for record in records[-20:]:
            p = presenter(record.kind)
            link = f"https://discord.com/channels/{record.guild_id or '@me'}/{record.play_channel_id}"
            if record.status == "lobby":
                lines.append(f"{p.emoji} **#{record.id} {p.title}** — lobby, waiting for players · {link}")
                continue
            try:
                session = await client.services.sessions.load(record.id)
            except PlayError:
                continue
            seat = session.seat_of(interaction.user.id)
            turn = "**your turn**" if seat is not None and session.to_act == seat.seat else status_line(session)
            lines.append(f"{p.emoji} **#{record.id} {p.title}** (move {session.version}) — {turn} · {link}")
        await tell(interaction, "\n".join(lines), allowed_mentions=discord.AllowedMentions.none())

    @group.command(name="rules", description="The rules of a game, briefly")
    @app_commands.choices(game=GAME_CHOICES)
    async def rules(interaction: Interaction, game: app_commands.Choice[str]) -> None:
        p = presenter(game.value)
        embed = discord.Embed(title=f"{p.emoji} {p.title}", description=p.rules, colour=discord.Colour.gold())
        embed.set_footer(text="Moves can be typed with /pyramid play using the notation shown in autocomplete.")
        await tell(interaction, "", embed=embed)

    @group.command(name="history", description="The move log, and the game record as a file")
    async def history(interaction: Interaction, game: int | None = None) -> None:
        client = client_of(interaction)
        try:
            record = await find_game(interaction, game, statuses=("active", "finished"))
            session = await client.services.sessions.load(record.id)
        except PlayError as exc:
            await tell(interaction, f"❌ {exc}")
            return
        await defer_private(interaction)
        moves = await client.services.store.moves(record.id)
        who = [s.plain_name for s in session.seats]
        lines = [f"{m.seq}. {who[m.seat] if m.seat < len(who) else m.seat}: `{m.move}`" for m in moves]
        # The seed rebuilds every hidden hand and stock, so it is published only once the
        # game is over, and never for a challenge game: others may still be playing (or
        # about to start) the same deal (CP-3).
        publish_seed = record.status == "finished" and record.challenge_id is None
        document = {
            "game": record.kind, "number": record.id, "options": record.options,
            "players": [{"seat": s.seat, "name": s.plain_name, "ai": s.ai_level} for s in session.seats],
            "seed": record.seed if publish_seed else None,
            "moves": [{"seq": m.seq, "seat": m.seat, "move": m.move, "at": m.created_at} for m in moves],
            "result": record.result,
        }
        text = "\n".join(lines[-40:]) or "No moves yet."
        if len(lines) > 40:
            text = f"… {len(lines) - 40} earlier moves in the file.\n" + text
        file = discord.File(io.BytesIO(json.dumps(document, indent=1).encode()), filename=f"game-{record.id}.json")
        await tell(interaction, f"**Game #{record.id}** move log:\n{text}"[:1990], file=file)

    @group.command(name="resign", description="Leave a running game (an AI takes over your seat in bigger games)")
    async def resign(interaction: Interaction, game: int | None = None) -> None:
        client = client_of(interaction)
        await defer_private(interaction)
        try:
            record = await find_game(interaction, game)
            message = await client.resign(record.id, interaction.user.id, reason="resigned")
        except PlayError as exc:
            await tell(interaction, f"❌ {exc}")
            return
        await tell(interaction, message)

    @group.command(name="leaderboard", description="Challenge results in this channel and wins in this server")
    async def leaderboard(interaction: Interaction) -> None:
        from bot.challenges import leaderboard_text

        if interaction.guild_id is None:  # wins are counted per server; a DM would show every server's
            await tell(interaction, "Leaderboards belong to a server; use this command in one.")
            return
        await defer_private(interaction)
        text = await leaderboard_text(client_of(interaction), interaction.guild_id, interaction.channel_id)
        await tell(interaction, text, allowed_mentions=discord.AllowedMentions.none())

    @admin.command(name="settings", description="Server settings for Pyramid Bot (admins)")
    @app_commands.describe(
        threads="Play each game in its own thread (on) or in the channel itself (off)",
        reminder_hours="Nudge the player to move after this many idle hours (1-720)",
        timeout_hours="Hand the seat over after this many idle hours (1-2160, after the reminder)",
        on_timeout="What happens on timeout: an AI takes the seat, or the player forfeits",
        max_open_games="How many lobbies and running games one member may have opened at once (1-25)",
    )
    async def settings(
        interaction: Interaction,
        threads: bool | None = None,
        reminder_hours: app_commands.Range[float, 1.0, 720.0] | None = None,
        timeout_hours: app_commands.Range[float, 1.0, 2160.0] | None = None,
        on_timeout: Literal["ai", "forfeit"] | None = None,
        max_open_games: app_commands.Range[int, 1, 25] | None = None,
    ) -> None:
        client = client_of(interaction)
        if interaction.guild_id is None:
            await tell(interaction, "Settings belong to a server; use this command in one.")
            return
        perms = interaction.permissions
        if not (perms.manage_guild or perms.administrator):
            await tell(interaction, "❌ Only members who can manage the server can change these settings.")
            return
        store = client.services.store
        current = await store.guild_settings(interaction.guild_id)
        changes: dict[str, Any] = {}
        if threads is not None:
            changes["use_threads"] = threads
        if reminder_hours is not None:
            changes["reminder_hours"] = reminder_hours
        if timeout_hours is not None:
            changes["timeout_hours"] = timeout_hours
        if on_timeout is not None:
            changes["timeout_action"] = on_timeout
        if max_open_games is not None:
            changes["max_open_games"] = max_open_games
        try:
            updated = change_settings(current, changes, client.services.settings)
        except SettingsRefused as exc:
            await tell(interaction, f"❌ {exc}. Nothing was changed.")
            return
        if changes:
            await store.save_guild_settings(updated)
        verb = "Saved" if changes else "Current settings"
        await tell(interaction, f"⚙️ {verb}: {describe(updated, client.services.settings)}")

    @admin.command(name="check", description="Which permissions Pyramid Bot has and lacks in this channel (admins)")
    async def check(interaction: Interaction) -> None:
        if interaction.guild_id is None:
            await tell(interaction, "Permissions belong to a server channel; use this command in one.")
            return
        place = await place_here(interaction)
        await tell(interaction, permissions.report(interaction.app_permissions, channel_name(interaction), place))

    del new, play_complete, hand, status, games, rules, history, resign, leaderboard, settings, check
    return group


__all__ = ["build_admin_group", "build_group", "build_groups", "public_view"]
