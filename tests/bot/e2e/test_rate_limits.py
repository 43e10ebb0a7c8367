"""The bot at Discord's rate limits: tight limits (a global limit of a few requests a
second, two posts a second per channel) while several games are played at once. Every
move stands, every board comes (late, perhaps one for several moves), none twice."""

from __future__ import annotations

import asyncio
import math
from collections import Counter
from typing import Any

import pytest

from emulator.harness import Harness
from emulator.model import User
from emulator.ratelimits import Limit, RateLimits, exempt
from tests.bot.clock import FakeClock
from tests.bot.e2e.driver import boards, latest_game_id, play_out, session_of, start_flaming, versions

#: Tight enough that starting three games at once (threads, boards, DMs: several requests each) meets them
#: on any machine, however slow.
TIGHT = RateLimits(global_per_second=2, routes={"POST /channels/{channel_id}/messages": Limit(1, 1.0),
                                                "PATCH /channels/{channel_id}/messages/{message_id}": Limit(1, 1.0)})


async def play_moves(harness: Harness, game_id: int, users: dict[int, User], thread: Any, moves: int) -> int:
    """The seat to act types its first suggested move, ``moves`` times; returns the moves made."""
    made = 0
    for _ in range(moves):
        session = await session_of(harness, game_id)
        if session.over:
            break
        user = users[session.to_act]
        choices = await harness.autocomplete(user, thread, "pyramid play", "move", "", game=game_id)
        res = await harness.slash(user, thread, "pyramid play", move=choices[0]["value"], game=game_id, settle=False)
        deadline = asyncio.get_running_loop().time() + 60
        while not any(mark in res.text for mark in ("✅", "❌")) and asyncio.get_running_loop().time() < deadline:
            await harness.emulator.wait_changed(0.1)  # the reply comes once the move is made (not the board)
        assert "✅" in res.text, res.text
        made += 1
    return made


@pytest.mark.parametrize("emulator_options", [{"rate_limits": TIGHT}])
async def test_no_move_lost_and_no_board_twice_at_the_limit(emulator_options: dict[str, Any], emulator: Any,
                                                             harness: Harness) -> None:
    players = [await harness.add_user(f"p{i}") for i in range(6)]
    await harness.start_bot()
    games = [await start_flaming(emulator, harness, players[i:i + 2]) for i in range(0, 6, 2)]
    await harness.settle(timeout=60)
    made = await asyncio.gather(*(
        play_moves(harness, game_id, {0: players[i * 2], 1: players[i * 2 + 1]}, thread, 4)
        for i, (thread, game_id) in enumerate(games)))
    await harness.settle(timeout=120)

    assert emulator.limiter.refused["global"] + emulator.limiter.refused["user"] > 0, "the limits were reached"
    for (thread, game_id), count in zip(games, made, strict=True):
        session = await session_of(harness, game_id)
        assert session.version == count, "every move stands"
        shown = versions(harness, thread)
        assert shown == sorted(set(shown)), f"boards in order, none twice: {shown}"
        assert shown[-1] == session.version, "the latest move's board came"
        posted = Counter(b.id for b in boards(harness, thread))
        assert max(posted.values()) == 1
        assert (await harness.bot.services.outbox.backlog()).pending == 0


@pytest.mark.slow  # the AI's boards held by the thread's bucket for whole seconds (about 40 s): in CI's -m slow run
@pytest.mark.parametrize("emulator_options", [{"rate_limits": RateLimits.discord()}])
async def test_a_game_against_an_ai_at_discords_own_windows(emulator_options: dict[str, Any], emulator: Any,
                                                            harness: Harness) -> None:
    """The other bot tests meet Discord's limits on a clock ten times faster (``fast_discord_limits()``); this one at
    Discord's own 5 s windows. The AI answers every move at once, so its boards (channel posts, not follow-ups)
    wait for the thread's bucket: every one comes, in order, none twice, and no request is refused twice."""
    ana = await harness.add_user("ana")
    await harness.start_bot()
    res = await harness.slash(ana, emulator.general, "pyramid new", game="pyrinoes", target=10)
    await harness.select(ana, res.message, None, ["normal"])
    await harness.click(ana, res.message, label="Start")
    game_id = await latest_game_id(harness)
    thread = harness.threads(emulator.general)[0]
    final = await play_out(harness, game_id, {0: ana}, thread)
    await harness.settle(timeout=120)
    assert final.result is not None and "Game over" in boards(harness, thread)[-1].text
    shown = versions(harness, thread)
    assert shown == sorted(set(shown)) and shown[-1] == final.version
    posts = [r.at for r in emulator.requests_to("POST /channels/{channel_id}/messages") if r.status == 200
             and r.path.endswith(f"/{thread.id}/messages")]
    assert len(posts) > 5, "enough posts in the thread to meet its bucket"
    # Fixed windows of 5 s from a window's first post, 5 posts each: n posts span at least this long.
    assert posts[-1] - posts[0] >= (math.ceil(len(posts) / 5) - 1) * 5.0 - 0.1
    assert emulator.limiter.invalid_requests <= emulator.limiter.refused["user"]  # only 429s, if any, were invalid


async def test_a_move_made_by_a_click_costs_one_rate_limited_request(emulator: Any, harness: Harness) -> None:
    """The board comes as the click's public follow-up and the mover's hand as a private one (interaction
    endpoints: exempt); only the next player's hand DM counts against the global limit. Old boards keep
    their buttons, and no user is fetched before a DM."""
    (ana, ben) = [await harness.add_user(n) for n in ("ana", "ben")]
    await harness.start_bot()
    thread, game_id = await start_flaming(emulator, harness, [ana, ben])
    users = {0: ana, 1: ben}
    counted: list[list[str]] = []
    for _ in range(3):
        session = await session_of(harness, game_id)
        mover = users[session.to_act]
        first = len(emulator.requests)
        res = await harness.slash(mover, thread, "pyramid play", move=session.game.legal_moves(session.state)[0])
        assert "✅" in res.text, res.text
        await harness.settle()
        counted.append([r.route for r in emulator.requests[first:] if not exempt(r.route)])
        board = boards(harness, thread)[-1]
        assert board.webhook_id is not None and not board.ephemeral, "the board is the click's follow-up"
        assert [m for m in harness.visible_messages(mover, thread) if m.ephemeral and m.png_attachments()
                and f"after move {session.version + 1}" in m.text], "the mover's hand, privately"
    # At most the next player's hand DM per move (none when the mover acts again), each DM opened once.
    post, open_dm = "POST /channels/{channel_id}/messages", "POST /users/@me/channels"
    assert all(set(routes) <= {post, open_dm} and routes.count(post) <= 1 for routes in counted), counted
    assert sum(routes.count(open_dm) for routes in counted) <= 1, counted
    assert versions(harness, thread) == [0, 1, 2, 3]


async def test_the_movers_new_hand_completes_the_private_answer(emulator: Any, harness: Harness) -> None:
    """A move picked in the private chooser: the chooser itself becomes "✅ You played" with the new
    hand (one edit of the click's answer), not a "✅" edit and then a private follow-up (posted bare
    and its picture edited in: three requests). The board is the click's only follow-up."""
    (ana, ben) = [await harness.add_user(n) for n in ("ana", "ben")]
    await harness.start_bot()
    thread, game_id = await start_flaming(emulator, harness, [ana, ben])
    for _ in range(2):
        session = await session_of(harness, game_id)
        mover = {0: ana, 1: ben}[session.to_act]
        chooser = await harness.click(mover, boards(harness, thread)[-1], label="▶ Your move")
        assert chooser.message is not None and chooser.message.ephemeral
        first = len(emulator.requests)
        message = chooser.message
        clicks = 0
        while "You played" not in message.text and (
                picks := [b["custom_id"] for b in message.buttons() if b["custom_id"].startswith("pb:pick:")]):
            clicked = await harness.click(mover, message, custom_id=picks[0])  # its first choice, down to a move
            clicks += 1
            assert clicked.message is not None
            message = clicked.message
        await harness.settle()
        answer = harness.message(chooser.message.id)
        version = (await session_of(harness, game_id)).version
        assert version == session.version + 1
        assert "✅ You played" in answer.text and f"after move {version}" in answer.text, answer.text
        assert [a.filename for a in answer.attachments] == ["hand.png"]
        followups = [m for m in harness.visible_messages(mover, thread) if m.ephemeral and m.id != answer.id
                     and f"after move {session.version + 1}" in m.text]
        assert not followups, "no second hand message"
        routes = Counter(r.route for r in emulator.requests[first:] if exempt(r.route))
        assert routes["POST /webhooks/{webhook_id}/{token}"] == 1, routes  # the board
        # Each click is acknowledged at once (bot.turns.handlers.acknowledge: its callback), then its chooser edited
        # through the click (one edit each); then the hand and the board's picture.
        assert routes["POST /interactions/{interaction_id}/{token}/callback"] == clicks, routes
        assert routes["PATCH /webhooks/{webhook_id}/{token}/messages/{message_id}"] == clicks + 2, routes
        assert (await session_of(harness, game_id)).version == session.version + 1
    assert versions(harness, thread) == [0, 1, 2]


async def test_a_board_sent_as_a_follow_up_but_not_recorded_is_not_posted_again(
    emulator: Any, harness: Harness, clock: FakeClock
) -> None:
    """A follow-up has no nonce: when its row could not be marked done (here the database
    fails once, as if the bot had stopped), the retry finds the board already in the channel."""
    (ana, ben) = [await harness.add_user(n) for n in ("ana", "ben")]
    await harness.start_bot()
    thread, game_id = await start_flaming(emulator, harness, [ana, ben])
    outbox = harness.bot.services.outbox
    complete = outbox.complete
    failed: list[int] = []

    async def fails_once(item: Any, outcome: str, **kwargs: Any) -> Any:
        if item.kind == "board" and item.version == 1 and not failed:
            failed.append(item.id)
            raise OSError("the disk went away for a moment")
        return await complete(item, outcome, **kwargs)

    outbox.complete = fails_once
    session = await session_of(harness, game_id)
    mover = {0: ana, 1: ben}[session.to_act]
    await harness.slash(mover, thread, "pyramid play", move=session.game.legal_moves(session.state)[0])
    assert failed and versions(harness, thread) == [0, 1], "the follow-up went out"
    clock.advance(minutes=5)
    await harness.bot.client.host.delivery.deliver_due()
    await harness.settle()
    assert versions(harness, thread) == [0, 1], "not a second time"
    assert (await outbox.backlog()).pending == 0
    shown = await harness.bot.services.store.get_message(game_id, "board")
    assert shown is not None and shown.message_id == boards(harness, thread)[-1].id
