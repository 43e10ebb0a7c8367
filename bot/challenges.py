"""Continuous Pyramid challenges: one deal, everyone in the channel, one leaderboard.

Each player gets their own game of the same deal (same seed and options), so they
can't see each other's choices; the leaderboard message in the channel is edited as
results come in, ranked by tiles placed, then fewest undos, then who finished first.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.access import ELSEWHERE, at_place
from bot.board import button
from bot.custom_ids import CustomId
from bot.lobby import start_game
from bot.replies import client_of, defer_private, tell
from bot.store import GameRecord, LobbyError
from bot.store.games import AlreadyEntered

if TYPE_CHECKING:
    from bot.client import PyramidClient

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]
KIND = "continuous-pyramid"



def challenge_view(challenge_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(button(CustomId("chal", challenge_id, 0), "▶ Play this deal", discord.ButtonStyle.success))
    return view


async def open_challenge(interaction: Interaction, options: dict[str, Any]) -> None:
    client = client_of(interaction)
    services = client.services
    from engine.core import get_game

    parsed = get_game(KIND).parse_options(options)
    if interaction.channel_id is None:
        await tell(interaction, "Start a challenge in a server channel.")
        return
    seed = services.new_seed()
    challenge_id = await services.store.create_challenge(
        guild_id=interaction.guild_id, channel_id=interaction.channel_id, seed=seed,
        options=parsed.model_dump(mode="json"), created_by=interaction.user.id,
    )
    text = await leaderboard_for(client, challenge_id)
    await interaction.response.send_message(text, view=challenge_view(challenge_id),
                                            allowed_mentions=discord.AllowedMentions.none())
    message = await interaction.original_response()
    await services.store.set_challenge_message(challenge_id, message.id)


async def on_play_challenge(interaction: Interaction, cid: CustomId) -> None:
    client = client_of(interaction)
    services = client.services
    challenge = await services.store.get_challenge(cid.game_id)
    if challenge is None:
        await tell(interaction, "That challenge no longer exists.")
        return
    if not at_place(interaction, challenge.guild_id, {challenge.channel_id}):  # custom ids can be forged
        await tell(interaction, f"❌ {ELSEWHERE}")
        return
    try:  # check and create in one write: a double click makes one game
        game_id = await services.store.open_game(
            KIND, guild_id=challenge.guild_id, channel_id=challenge.channel_id, options=challenge.options,
            seed=challenge.seed, created_by=interaction.user.id, name=interaction.user.display_name,
            challenge_id=challenge.id,
        )
    except AlreadyEntered as exc:
        existing = await services.store.get_game(exc.game_id)
        where = f" in <#{existing.play_channel_id}>" if existing is not None else ""
        await tell(interaction, f"You already have a game of this deal (#{exc.game_id}){where}.")
        return
    except LobbyError as exc:
        await tell(interaction, f"❌ {exc}")
        return
    await defer_private(interaction)
    record = await services.store.get_game(game_id)
    assert record is not None
    await start_game(interaction, record, solo=True)
    await refresh_leaderboard(client, challenge.id)


def rank_key(record: GameRecord) -> tuple[float, float, str]:
    details = (record.result or {}).get("details", {}) or {}
    scores = (record.result or {}).get("scores", []) or [0]
    placed = float(details.get("tiles_placed", scores[0] if scores else 0))
    undos = float(details.get("undos", 0))
    return (-placed, undos, record.updated_at)


async def leaderboard_for(client: PyramidClient, challenge_id: int) -> str:
    store = client.services.store
    challenge = await store.get_challenge(challenge_id)
    if challenge is None:
        return "That challenge no longer exists."
    games = await store.games_where("challenge_id = ?", (challenge_id,))
    finished = sorted((g for g in games if g.status == "finished"), key=rank_key)
    playing = [g for g in games if g.status == "active"]
    # The deal is named by the challenge, never by its seed: the seed rebuilds the
    # face-down stock (CP-3), so it stays secret until the games are over.
    lines = [f"🀄 **Continuous Pyramid challenge #{challenge.id}**",
             "Everyone plays the same deal. Press **▶ Play this deal** to take part.", ""]
    if finished:
        lines.append("**Leaderboard** (tiles placed, then fewest undos, then first to finish)")
        for rank, record in enumerate(finished[:20], start=1):
            seats = await store.seats(record.id)
            name = seats[0].display if seats else "?"
            details = (record.result or {}).get("details", {}) or {}
            placed = int(-rank_key(record)[0])
            won = "🏆 " if placed >= 144 else ""
            lines.append(f"{rank}. {won}{name} — {placed}/144 tiles, {int(details.get('undos', 0))} undos")
    else:
        lines.append("No results yet.")
    if playing:
        lines.append(f"\n{len(playing)} player(s) still playing.")
    return "\n".join(lines)[:2000]


async def refresh_leaderboard(client: PyramidClient, challenge_id: int) -> None:
    challenge = await client.services.store.get_challenge(challenge_id)
    if challenge is None or challenge.message_id is None:
        return
    text = await leaderboard_for(client, challenge_id)
    try:
        await client.get_partial_messageable(challenge.channel_id).get_partial_message(challenge.message_id).edit(
            content=text, view=challenge_view(challenge_id), allowed_mentions=discord.AllowedMentions.none()
        )
    except discord.HTTPException as exc:
        log.warning("could not update challenge %s leaderboard: %s", challenge_id, exc)


async def leaderboard_text(client: PyramidClient, guild_id: int | None, channel_id: int | None) -> str:
    """The latest challenge in this channel, then wins per player in this server."""
    store = client.services.store
    parts: list[str] = []
    if channel_id is not None:
        async with store.db.reading() as conn, conn.execute(
            "SELECT id FROM challenges WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,)
        ) as cur:
            row = await cur.fetchone()
        if row is not None:
            parts.append(await leaderboard_for(client, int(row[0])))
    games = await store.games_where("status = 'finished' AND (guild_id IS ? OR ? IS NULL)", (guild_id, guild_id))
    wins: dict[int, int] = {}
    played: dict[int, int] = {}
    for record in games:
        seats = await store.seats(record.id)
        winners = set((record.result or {}).get("winners", []))
        for seat in seats:
            if seat.user_id is None:
                continue
            played[seat.user_id] = played.get(seat.user_id, 0) + 1
            if seat.seat in winners and not seat.resigned:
                wins[seat.user_id] = wins.get(seat.user_id, 0) + 1
    if played:
        ranking = sorted(played, key=lambda u: (-wins.get(u, 0), played[u]))
        lines = ["**Wins in this server**"]
        lines += [f"{i}. <@{u}> — {wins.get(u, 0)} won of {played[u]}" for i, u in enumerate(ranking[:15], 1)]
        parts.append("\n".join(lines))
    return "\n\n".join(parts)[:2000] or "No finished games here yet."
