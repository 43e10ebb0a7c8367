"""Replays through the emulator: every finished game gets its animation in its thread
(once, however often its end is processed), a long Flaming Pyramids game's stays
under Discord's attachment limit, and ``/pyramid replay`` steps through any finished
game with ⏮ ◀ ▶ ⏭, refusing running games and forged buttons with a sentence."""

from __future__ import annotations

import io
from collections.abc import Awaitable, Callable
from typing import Any

import discord
import pytest
from PIL import Image, ImageSequence

from bot.replays.gifs import Replays
from emulator.harness import Harness
from emulator.model import Attachment, Channel, Message, User
from engine.core import Rng
from render.replay import LAST_MS, MAX_BYTES, MAX_FRAMES
from tests.bot.e2e.driver import boards, challenge_of, latest_game_id, play_out, session_of

NO_GAME = "no game #"
DAMAGED = "damaged or out of date"


def replay_posts(harness: Harness, thread: Channel) -> list[Message]:
    return [m for m in harness.messages(thread) if any(a.filename.endswith(".gif") for a in m.attachments)]


def gif_of(message: Message) -> Attachment:
    return next(a for a in message.attachments if a.filename.endswith(".gif"))


def gif_frames(data: bytes) -> tuple[int, list[int]]:
    """The frame count and each frame's duration."""
    gif = Image.open(io.BytesIO(data))
    assert gif.format == "GIF"
    return gif.n_frames, [int(f.info["duration"]) for f in ImageSequence.Iterator(gif)]


async def forged(harness: Harness, channel: Channel, *custom_ids: str) -> Message:
    """A message with buttons carrying ``custom_ids`` (a client may send any id)."""
    view = discord.ui.View(timeout=None)
    for n, cid in enumerate(custom_ids):
        view.add_item(discord.ui.Button(label=f"b{n}", custom_id=cid))
    await harness.bot.client.get_partial_messageable(channel.id).send("forged", view=view)
    return harness.messages(channel)[-1]


# --- finished games of each kind ------------------------------------------------------------------------------
Finish = Callable[[Any, Harness, User], Awaitable[tuple[Channel, int]]]


async def played_out(emulator: Any, harness: Harness, ana: User, prefer: tuple[str, ...] = ()) -> tuple[Channel, int]:
    """The newest game, ana's (seat 0), played to its end: its thread and number."""
    game_id, thread = await latest_game_id(harness), harness.threads(emulator.general)[-1]
    await play_out(harness, game_id, {0: ana}, thread, prefer=prefer)
    return thread, game_id


def against_ai(kind: str, level: str, **options: Any) -> Finish:
    """A game of ``kind`` ana opens and starts against one AI at ``level``, played out."""

    async def finish(emulator: Any, harness: Harness, ana: User) -> tuple[Channel, int]:
        res = await harness.slash(ana, emulator.general, "pyramid new", game=kind, **options)
        await harness.select(ana, res.message, None, [level])
        await harness.click(ana, res.message, label="Start")
        return await played_out(emulator, harness, ana)

    return finish


flaming = against_ai("flaming-pyramids", "easy", turn_limit=6)
pyrinoes = against_ai("pyrinoes", "normal", target=10)


async def continuous(emulator: Any, harness: Harness, ana: User) -> tuple[Channel, int]:
    """A dozen tiles placed, then given up (a resignation ends the game: its end is followed all the same)."""
    await harness.slash(ana, emulator.general, "pyramid new", game="continuous-pyramid", undo=False)
    game_id, thread = await latest_game_id(harness), harness.threads(emulator.general)[-1]
    for _ in range(12):
        session = await session_of(harness, game_id)
        if session.over:
            break
        played = await harness.slash(ana, thread, "pyramid play", move=session.game.legal_moves(session.state)[0],
                                     game=game_id)
        assert "✅" in played.text, played.text
    if (await session_of(harness, game_id)).record.status == "active":
        await harness.slash(ana, thread, "pyramid resign", game=game_id)
    return thread, game_id


async def pyramido(emulator: Any, harness: Harness, ana: User) -> tuple[Channel, int]:
    await harness.slash(ana, emulator.general, "pyramid new", game="pyramido", mode="solo", size=4)
    return await played_out(emulator, harness, ana, prefer=("place", "discard", "end"))


KINDS: dict[str, Finish] = {"flaming-pyramids": flaming, "continuous-pyramid": continuous, "pyrinoes": pyrinoes,
                            "pyramido": pyramido}


@pytest.mark.parametrize("kind", [pytest.param(kind, marks=pytest.mark.slow) if kind == "pyrinoes" else kind
                                  for kind in KINDS])  # a whole Pyrinoes game to 100 points takes about 17 s
async def test_a_finished_game_gets_its_replay_in_its_thread_once(emulator: Any, harness: Harness,
                                                                  kind: str) -> None:
    ana = await harness.add_user("ana")
    await harness.start_bot()
    thread, game_id = await KINDS[kind](emulator, harness, ana)
    session = await session_of(harness, game_id)
    assert session.record.status == "finished"
    moves = len(await harness.bot.services.store.moves(game_id))

    posts = replay_posts(harness, thread)
    assert len(posts) == 1
    post = posts[0]
    pyramid = next(c.id for c in emulator.world.commands.values() if c.name == "pyramid")
    assert f"Game #{game_id}, move by move" in post.text
    assert f"</pyramid replay:{pyramid}> `game:{game_id}`" in post.text
    gif = gif_of(post)
    assert gif.filename == f"game-{game_id}-replay.gif" and gif.data[:6] == b"GIF89a"
    frames, durations = gif_frames(gif.data)
    assert frames == moves + 1, "one frame per position: the deal, then one after each move"
    assert durations[-1] == LAST_MS and max(durations[:-1]) < LAST_MS, "the last position is held longer"
    # It follows the final board.
    thread_messages = harness.messages(thread)
    assert thread_messages.index(post) > thread_messages.index(boards(harness, thread)[-1])

    # The game's end processed again (a finish row retried after a crash): still one replay.
    replays = next(f for f in harness.bot.client.host.announcer.game_ends if isinstance(f, Replays))
    await replays.game_finished(await session_of(harness, game_id))
    await harness.settle()
    assert replay_posts(harness, thread) == [post]


@pytest.mark.slow  # A whole long game and its animation (about 20 s on 2 cores): in CI's -m slow run
async def test_a_long_flaming_pyramids_game_stays_under_the_attachment_limit(emulator: Any,
                                                                            harness: Harness) -> None:
    """Hundreds of moves, written through the session service (clicking each would
    take minutes); the last one is played through the bot, so its end runs as always."""
    ana, ben = await harness.add_user("ana"), await harness.add_user("ben")
    await harness.start_bot()
    res = await harness.slash(ana, emulator.general, "pyramid new", game="flaming-pyramids", turn_limit=400)
    await harness.click(ben, res.message, label="Join")
    await harness.click(ana, res.message, label="Start")
    game_id, thread = await latest_game_id(harness), harness.threads(emulator.general)[-1]
    users = {0: ana, 1: ben}
    sessions = harness.bot.services.sessions
    rng = Rng(3)  # with the game's seed, about 600 moves before the turn limit ends it
    while True:
        session = await sessions.load(game_id)
        game, seat = session.game, session.to_act
        moves = game.legal_moves(session.state)
        # Keep the game going (a move that would end it only when there is no other) up to its turn limit.
        going = [m for m in moves if game.waiting_for(game.play(session.state, seat, m)[0]) is not None]
        if not going:
            break
        await sessions.make_move(game_id, rng.choice(going), user_id=users[seat].id)
    await harness.settle()
    final = await harness.slash(users[seat], thread, "pyramid play", move=moves[0], game=game_id)
    assert "✅" in final.text, final.text
    session = await session_of(harness, game_id)
    assert session.record.status == "finished" and session.version > MAX_FRAMES

    (post,) = replay_posts(harness, thread)
    gif = gif_of(post)
    assert len(gif.data) <= MAX_BYTES < emulator.attachment_size_limit
    frames, durations = gif_frames(gif.data)
    assert frames <= MAX_FRAMES < session.version + 1, "frames were dropped"
    assert f"{session.version} moves in {frames} pictures" in post.text
    assert durations[-1] == LAST_MS


# --- /pyramid replay -----------------------------------------------------------------------------------------
def move_shown(message: Message) -> str:
    return message.text.splitlines()[0].split(" · ")[-1]


async def test_stepping_through_a_replay(emulator: Any, harness: Harness) -> None:
    ana = await harness.add_user("ana")
    carol = await harness.add_user("carol")  # of the server, not a player
    await harness.start_bot()
    thread, game_id = await flaming(emulator, harness, ana)
    last = len(await harness.bot.services.store.moves(game_id))
    assert last >= 4

    res = await harness.slash(ana, thread, "pyramid replay")  # in the game's thread: that game, at its end
    assert res.ephemeral and res.message is not None
    message = res.message
    assert f"game #{game_id}" in message.text and move_shown(message) == f"move {last} of {last}"
    assert "Game over" in message.text
    assert message.png_attachments()
    disabled = {b["label"]: bool(b.get("disabled")) for b in message.buttons()}
    assert disabled == {"⏮ Start": False, "◀ Back": False, "Next ▶": True, "End ⏭": True}

    pictures = [message.png_attachments()[0].data]
    for label, expected in (("◀ Back", last - 1), ("⏮ Start", 0), ("Next ▶", 1), ("Next ▶", 2), ("End ⏭", last)):
        step = await harness.click(ana, message, label=label)
        message = harness.message(message.id)
        assert step.response_type == 6 and move_shown(message).startswith(f"move {expected} of {last}"), label
        assert len(message.png_attachments()) == 1
        pictures.append(message.png_attachments()[0].data)
    assert "(the deal)" not in move_shown(message)
    assert len(set(pictures)) == len(pictures) - 1, "every move its own picture (the last shown twice)"
    assert pictures[0] == pictures[-1]

    # Any move by number (beyond the end: the last), by any member of the server, or by DM by a player.
    at_two = await harness.slash(carol, emulator.general, "pyramid replay", game=game_id, move=2)
    assert move_shown(at_two.message).startswith(f"move 2 of {last}")
    beyond = await harness.slash(carol, emulator.general, "pyramid replay", game=game_id, move=5000)
    assert f"has {last} moves" in beyond.text and f"move {last} of {last}" in beyond.text
    deal = await harness.slash(ana, harness.dm_channel(ana), "pyramid replay", game=game_id, move=0)
    assert "move 0 of" in deal.text and "(the deal)" in deal.text and deal.attachments
    stranger = await harness.slash(carol, harness.dm_channel(carol), "pyramid replay", game=game_id)
    assert NO_GAME in stranger.text and not stranger.attachments


async def test_a_game_not_over_is_not_replayed(emulator: Any, harness: Harness) -> None:
    ana, ben = await harness.add_user("ana"), await harness.add_user("ben")
    await harness.start_bot()
    lobby = await harness.slash(ana, emulator.general, "pyramid new", game="flaming-pyramids")
    lobby_id = await latest_game_id(harness)
    res = await harness.slash(ana, emulator.general, "pyramid replay", game=lobby_id)
    assert "never got under way" in res.text and not res.attachments
    await harness.click(ben, lobby.message, label="Join")
    await harness.click(ana, lobby.message, label="Start")
    thread = harness.threads(emulator.general)[-1]
    res = await harness.slash(ben, thread, "pyramid replay", game=lobby_id)
    assert "still being played" in res.text and "once a game is over" in res.text and not res.attachments
    res = await harness.slash(ben, thread, "pyramid replay")
    assert "no finished game" in res.text and not res.attachments
    assert not replay_posts(harness, thread)


async def test_forged_and_stale_replay_buttons_get_a_sentence(emulator: Any, harness: Harness) -> None:
    ana, ben = await harness.add_user("ana"), await harness.add_user("ben")
    await harness.start_bot()
    _, finished = await flaming(emulator, harness, ana)
    last = len(await harness.bot.services.store.moves(finished))
    running = await harness.slash(ana, emulator.general, "pyramid new", game="flaming-pyramids")
    running_id = await latest_game_id(harness)
    await harness.click(ben, running.message, label="Join")
    await harness.click(ana, running.message, label="Start")
    elsewhere = await harness.add_guild("elsewhere")
    eve = await harness.add_user("eve", guild=elsewhere)

    message = await forged(harness, emulator.general, f"pb:replay:{finished}:{last + 5}:next",
                           f"pb:replay:{running_id}:0:next", "pb:replay:987654:1:next", "pb:replay:oops",
                           f"pb:replay:{finished}:1:x")
    answers = [await harness.click(ben, message, label=f"b{n}") for n in range(5)]
    assert DAMAGED in answers[0].text and not answers[0].attachments
    assert "still being played" in answers[1].text and not answers[1].attachments
    assert DAMAGED in answers[2].text and not answers[2].attachments
    assert "not one I recognise" in answers[3].text
    # A well-formed id shows its move, in the message it is on.
    assert move_shown(harness.message(message.id)).startswith(f"move 1 of {last}")
    # From another server, the game is not there to be seen.
    other = await forged(harness, harness.channel("general", guild=elsewhere), f"pb:replay:{finished}:1:next")
    answer = await harness.click(eve, other, label="b0")
    assert DAMAGED in answer.text and not answer.attachments
    harness.assert_no_bot_errors()


async def test_a_shared_deal_is_replayed_only_for_its_player(emulator: Any, harness: Harness) -> None:
    """A challenge's deal (and so the daily deal's) may still be in play for others:
    the order its stock came out in stays between the player and the bot."""
    (ana, ben), post = await challenge_of(emulator, harness, "ana", "ben")
    await harness.click(ana, post, label="▶ Play this deal")
    game_id = await latest_game_id(harness)
    thread = harness.threads(emulator.general)[-1]
    session = await session_of(harness, game_id)
    played = await harness.slash(ana, thread, "pyramid play", move=session.game.legal_moves(session.state)[0],
                                 game=game_id)
    assert "✅" in played.text
    await harness.slash(ana, thread, "pyramid resign", game=game_id)
    assert (await session_of(harness, game_id)).record.status == "finished"
    assert len(replay_posts(harness, thread)) == 1, "its own thread gets its replay, like its boards"

    refused = await harness.slash(ben, emulator.general, "pyramid replay", game=game_id)
    assert "shared deal" in refused.text and not refused.attachments
    message = await forged(harness, emulator.general, f"pb:replay:{game_id}:0:first")
    clicked = await harness.click(ben, message, label="b0")
    assert "shared deal" in clicked.text and not clicked.attachments
    mine = await harness.slash(ana, emulator.general, "pyramid replay", game=game_id)
    assert move_shown(mine.message).startswith("move 1 of 1") and mine.attachments


async def test_a_replay_discord_would_refuse_is_given_up_not_retried(emulator: Any, harness: Harness,
                                                                     caplog: pytest.LogCaptureFixture) -> None:
    """A replay is a nicety: what keeps it out (no Attach Files, the thread deleted) is
    logged and the game's end goes on; raising would retry the finish row, and every
    follower with it, for as long as the cause lasts."""
    ana = await harness.add_user("ana")
    await harness.start_bot()
    thread, game_id = await flaming(emulator, harness, ana)
    (post,) = replay_posts(harness, thread)
    replays = next(f for f in harness.bot.client.host.announcer.game_ends if isinstance(f, Replays))
    session = await session_of(harness, game_id)
    requests = len(emulator.requests)

    await harness.set_bot_permission(emulator.general, "attach_files", False)
    await harness.sync_gateway()
    with caplog.at_level("WARNING", logger="bot.replays.gifs"):
        await replays.game_finished(session)  # known refused before asking: nothing is sent
    assert "missing attach_files" in caplog.text
    assert len(emulator.requests) == requests
    caplog.clear()

    await harness.set_bot_permission(emulator.general, "attach_files", None)
    await harness.delete_thread(thread)
    await harness.sync_gateway()
    with caplog.at_level("WARNING", logger="bot.replays.gifs"):
        await replays.game_finished(session)  # Discord answers 404: logged, not raised
    assert f"no replay for game {game_id}" in caplog.text
    assert replay_posts(harness, thread) in ([post], [])
    harness.assert_no_bot_errors()
