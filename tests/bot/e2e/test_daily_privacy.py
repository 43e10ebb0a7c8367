"""The daily deal is nobody else's to watch (issue #25, "the same for any shared deal").

Everyone plays the same daily deal, and each board tells what came from the face-down
stock, so one player's game shows the others the stock order they are about to meet.
A daily game is therefore never shown to anyone but its player (``bot.core.shared_deals``):
not while it runs, not when it is over, not on a later day, not to someone who played the
same deal, and not to a server's admins. Another member naming it with ``game:N``
(history, replay, status, hand, play, the move autocomplete), in the server where the
player asked for the deal or by DM, is refused and learns nothing of it: no picture, no
file, no move. Its end-of-game GIF goes to the player's DMs and nowhere else.
"""

from __future__ import annotations

from typing import Any

from emulator.harness import Harness, InteractionResult
from emulator.messages import create_message
from emulator.model import Channel, User
from tests.bot.clock import FakeClock
from tests.bot.e2e.driver import plays_keeping_it_running, session_of
from tests.bot.e2e.test_daily import MOVE_TEXT, daily_games, texts

#: Every command that takes ``game:N`` and would show something of that game.
LOOKS = ("pyramid history", "pyramid replay", "pyramid status", "pyramid hand")
ADMINISTRATOR = 1 << 3


async def first_move(harness: Harness, game_id: int) -> str:
    """A tile to play that leaves another to play, else one that at least leaves the game running."""
    return (await plays_keeping_it_running(harness, game_id, 2, exact=False))[0]


def assert_learns_nothing(answer: InteractionResult, game_id: int, moves: list[str], what: str) -> None:
    """A private refusal with no picture, no file and no move of the game in it."""
    assert answer.answered, what
    reply = answer.message
    assert reply is not None and reply.ephemeral, (what, answer.messages)
    assert answer.text.startswith("❌"), (what, answer.text)
    for message in answer.messages:
        assert not message.attachments and not message.png_attachments(), (what, message)
        for text in texts(message):
            assert not MOVE_TEXT.search(text), (what, text)
            assert not any(move in text for move in moves), (what, text)
            assert f"game #{game_id} ·" not in text, (what, text)  # a board's caption


async def assert_refused_everywhere(harness: Harness, others: list[tuple[User, Channel]], game_id: int,
                                    moves: list[str]) -> None:
    """Each of ``others`` asks, where they stand, for everything ``game:N`` can show."""
    for user, where in others:
        before = {c.id: len(harness.messages(c)) for c in (where,)}
        for command in LOOKS:
            answer = await harness.slash(user, where, command, game=game_id)
            assert_learns_nothing(answer, game_id, moves, f"{user.username} {command} in {where.name}")
        played = await harness.slash(user, where, "pyramid play", move=moves[0] if moves else "play", game=game_id)
        assert_learns_nothing(played, game_id, moves, f"{user.username} play in {where.name}")
        offered = await harness.autocomplete(user, where, "pyramid play", "move", "", game=game_id)
        assert offered == [], (user.username, offered)
        assert {c.id: len(harness.messages(c)) for c in (where,)} == before, "nothing public was posted"


def gifs(harness: Harness) -> list[Any]:
    """Every message anywhere that carries a GIF."""
    return [m for m in harness.world.messages.values() if any(a.filename.endswith(".gif") for a in m.attachments)]


async def test_a_daily_game_is_never_shown_to_anyone_but_its_player(
    emulator: Any, harness: Harness, clock: FakeClock
) -> None:
    second = await harness.add_guild("second")
    ana = await harness.add_user("ana")
    ben = await harness.add_user("ben", permissions=0)  # a member as the server makes them
    mod = await harness.add_user("mod", permissions=ADMINISTRATOR)  # the server's admin
    cal = await harness.add_user("cal", guild=second)
    await harness.start_bot()
    general, general_2 = emulator.general, harness.channel("general", guild=second)

    started = await harness.slash(ana, general, "pyramid daily")
    assert started.ephemeral and "waiting in your DMs" in started.text, started.text
    (game,) = (await daily_games(harness))[ana.id]
    dm = harness.dm_channel(ana)
    others = [(ben, general), (mod, general), (ben, harness.dm_channel(ben)), (cal, general_2)]

    # While it runs.
    moves: list[str] = []
    for move in await plays_keeping_it_running(harness, game.id, 2):
        assert "✅" in (await harness.slash(ana, dm, "pyramid play", move=move, game=game.id)).text
        moves.append(move)
    await assert_refused_everywhere(harness, others, game.id, moves)
    status = await harness.slash(ana, dm, "pyramid status", game=game.id)
    assert status.attachments or any(m.png_attachments() for m in status.messages), "its player sees it"

    # Over: the GIF goes to ana's DMs alone.
    assert "🏳️" in (await harness.slash(ana, dm, "pyramid resign", game=game.id)).text
    await harness.settle()
    assert (await session_of(harness, game.id)).record.status == "finished"
    (gif,) = gifs(harness)
    assert gif.channel_id == dm.id and f"game-{game.id}-replay.gif" in [a.filename for a in gif.attachments]
    assert all(not harness.world.can_see(user, gif) for user, _ in others)
    await assert_refused_everywhere(harness, others, game.id, moves)
    assert (await harness.slash(ana, dm, "pyramid history", game=game.id)).attachments, "its player's record"
    replay = await harness.slash(ana, dm, "pyramid replay", game=game.id)
    assert replay.attachments and replay.message is not None, "its player's replay"
    # Its ⏮ ◀ ▶ ⏭ buttons, copied by a modified client onto a message of the others' own.
    step = next(b["custom_id"] for b in replay.message.buttons() if b.get("custom_id") and not b.get("disabled"))
    for user, where in others:
        forged = create_message(emulator, where, emulator.world.bot, {"content": "a replay", "components": [
            {"type": 1, "components": [{"type": 2, "style": 1, "label": "◀", "custom_id": step}]}]}, [])
        clicked = await harness.click(user, forged, custom_id=step)
        assert_learns_nothing(clicked, game.id, moves, f"{user.username} replay step in {where.name}")
        assert harness.message(forged.id).text == "a replay" and not harness.message(forged.id).attachments

    # The others play the same deal to its end, and it is a day later: still ana's alone.
    for user, where in ((ben, general), (cal, general_2)):
        assert "waiting in your DMs" in (await harness.slash(user, where, "pyramid daily")).text
        (theirs,) = (await daily_games(harness))[user.id]
        assert theirs.seed == game.seed, "the same deal"
        await harness.slash(user, harness.dm_channel(user), "pyramid resign", game=theirs.id)
    await harness.settle()
    clock.advance(days=2)
    await assert_refused_everywhere(harness, others, game.id, moves)
    assert [g.channel_id for g in gifs(harness)] == [dm.id], "no GIF of a game with no move, and none elsewhere"
    harness.assert_no_bot_errors()
