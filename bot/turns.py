"""Clicks during a game: opening the move picker, choosing, moving, hands, boards.

Every handler answers within Discord's 3 seconds before doing slow work, refuses
out-of-turn and stale clicks with an ephemeral explanation, and funnels the actual
move through ``SessionService.make_move`` (one lock, one versioned write).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.access import check_at_game, check_player_place
from bot.announcer import player_view, public_view
from bot.board import board_content, board_labels, picker
from bot.custom_ids import CustomId
from bot.games import presenter
from bot.picker import PathGone, node_at
from bot.replies import client_of, defer_private, tell
from bot.sessions import RESIGNED, PlayError, Session, StaleBoard
from engine.core import MoveRejected

if TYPE_CHECKING:
    pass

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]



async def send_current_board(interaction: Interaction, session: Session, note: str) -> None:
    """An ephemeral copy of the current board, for stale clicks and 🔄."""
    view = public_view(session)
    file = await client_of(interaction).services.renderer.board(view, labels=board_labels(session, view))
    text = note + "\n" + board_content(session, [])
    await tell(interaction, text, file=file)


def check_actor(session: Session, user_id: int) -> int:
    """The clicker's seat if it's theirs to act; otherwise a readable refusal.
    Whether they still play the seat at all comes before whose turn it is."""
    if session.over or session.record.status != "active":
        raise PlayError("This game is over.")
    mine = session.human_seat(user_id)
    seat = session.to_act
    if seat != mine.seat:
        acting = session.seat(seat) if seat is not None else None
        who = acting.display if acting else "someone else"
        raise PlayError(f"It's not your turn: the game is waiting for {who}.")
    return mine.seat


async def load_current(interaction: Interaction, cid: CustomId, *, check_version: bool = True,
                       public: bool = False) -> Session | None:
    """Load the game; answer clicks from the wrong place (a ``public`` control away
    from the game's channel or thread, a player control from another server) and
    stale clicks with an explanation or the current board, and return None."""
    services = client_of(interaction).services
    try:
        session = await services.sessions.load(cid.game_id)
        if public:
            check_at_game(interaction, session.record)
        else:
            check_player_place(interaction, session.record)
    except PlayError as exc:
        await tell(interaction, str(exc))
        return None
    if check_version and cid.version != session.version:
        await defer_private(interaction)
        await send_current_board(interaction, session, "⌛ This board is out of date: someone has moved since.")
        return None
    return session


async def actor_session(interaction: Interaction, cid: CustomId) -> Session | None:
    """The current game if the clicker is the one to act on this very board;
    otherwise they have been told why not, and None is returned."""
    session = await load_current(interaction, cid)
    if session is None:
        return None
    try:
        check_actor(session, interaction.user.id)
    except PlayError as exc:
        await tell(interaction, str(exc))
        return None
    return session


async def on_turn(interaction: Interaction, cid: CustomId) -> None:
    session = await actor_session(interaction, cid)
    if session is not None:
        chooser = picker(session, ())
        await tell(interaction, chooser.content, view=chooser.view)


async def on_pick(interaction: Interaction, cid: CustomId, path: list[str], page: int = 0) -> None:
    session = await actor_session(interaction, cid)
    if session is None:
        return
    try:
        node = node_at(session.game.legal_moves(session.state), path, presenter(session.record.kind).steps)
    except PathGone as exc:
        await tell(interaction, str(exc))
        return
    if node.complete is not None and not node.choices:
        await perform_move(interaction, session, node.complete)
        return
    chooser = picker(session, node.path, page)
    await interaction.response.edit_message(content=chooser.content, view=chooser.view)


async def on_move(interaction: Interaction, cid: CustomId) -> None:
    session = await actor_session(interaction, cid)
    if session is not None:
        await perform_move(interaction, session, cid.arg)


async def perform_move(interaction: Interaction, session: Session, move: str) -> None:
    """Acknowledge at once, then make the move and announce it."""
    client = client_of(interaction)
    private_message = interaction.message is not None and (
        interaction.message.flags.ephemeral or interaction.message.guild is None
    )
    if private_message:
        await interaction.response.edit_message(content=f"⏳ Playing `{move}`…", view=None)
    else:
        await defer_private(interaction)
    try:
        outcome = await client.services.sessions.make_move(
            session.record.id, move, user_id=interaction.user.id, expected_version=session.version
        )
    except StaleBoard:
        fresh = await client.services.sessions.load(session.record.id)
        await send_current_board(interaction, fresh, "⌛ This board is out of date: someone has moved since.")
        return
    except (MoveRejected, PlayError) as exc:
        await tell(interaction, f"❌ {exc}")
        return
    done = f"✅ You played `{outcome.move}`."
    if private_message:
        await interaction.edit_original_response(content=done)
    else:
        await tell(interaction, done)
    if not await client.announcer.announce(session.record.id):  # the move counts all the same
        await tell(interaction, "📋 Your move is saved; the board will follow as soon as Discord lets me post it.")


async def on_hand(interaction: Interaction, cid: CustomId) -> None:
    session = await load_current(interaction, cid, check_version=False)
    if session is None:
        return
    await show_hand(interaction, session)


async def show_hand(interaction: Interaction, session: Session) -> None:
    """The clicker's hand, privately. A player whose seat an AI took after a timeout
    may still look; one who resigned has left the game and its hand."""
    mine = session.seat_of(interaction.user.id)
    if mine is None:
        await tell(interaction, "You are not playing in this game.")
        return
    if mine.resigned:
        await tell(interaction, RESIGNED)
        return
    await defer_private(interaction)
    file = await client_of(interaction).services.renderer.hand(player_view(session, mine.seat))
    p = presenter(session.record.kind)
    view = None
    text = f"{p.emoji} Your hand in game #{session.record.id} (move {session.version})."
    if not session.over and session.to_act == mine.seat and not mine.is_ai:
        chooser = picker(session, ())
        view = chooser.view
        text += "\n🎯 It's your turn: " + chooser.content.splitlines()[-1]
    kwargs: dict[str, Any] = {"file": file}
    if view is not None:
        kwargs["view"] = view
    await tell(interaction, text, **kwargs)


async def on_board(interaction: Interaction, cid: CustomId) -> None:
    session = await load_current(interaction, cid, check_version=False, public=True)
    if session is None:
        return
    await defer_private(interaction)
    await send_current_board(interaction, session, "Here is the current board.")
