"""Issue #43, finding 8 (endings): after a resignation, what still shows the game tells how it ended.
The game's engine state has no result then (a resignation is no move), so everything drawn from it
once said whose turn it was: the replay GIF's last frame (and its alt text) and ``/pyramid status``
(picture and words). They show the stored result now, as the final card does (``ended_view``)."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image

from bot.replays.gifs import game_log
from emulator.harness import Harness
from tests.bot.e2e.driver import flaming_game_of, session_of
from tests.bot.e2e.test_endings import first_move
from tests.bot.e2e.test_replays import gif_of, replay_posts
from tests.paths import REPO

SHOTS = REPO / "out" / "screenshots" / "test_after_a_resignation_the_replay_and_the_status_show_the_result"


async def test_after_a_resignation_the_replay_and_the_status_show_the_result(emulator: Any,
                                                                             harness: Harness) -> None:
    (alice, bob), thread, game_id = await flaming_game_of(emulator, harness, "alice", "bob")
    await first_move(harness, game_id, {0: alice, 1: bob}, thread)
    await harness.slash(bob, thread, "pyramid resign")
    await harness.settle()
    session = await session_of(harness, game_id)
    assert session.record.status == "finished" and not session.over, "ended outside a move"

    # the replay: its last frame is drawn from a view with the stored result; its alt text says it
    moves = [(m.seat, m.move) for m in await harness.bot.services.store.moves(game_id)]
    views, _ = game_log(session, moves).positions()
    assert views[-1].get("result") == session.record.result, views[-1].get("result")
    assert views[-2].get("result") is None, "only the last position is the game's end"
    posts = replay_posts(harness, thread)
    assert len(posts) == 1
    gif = gif_of(posts[0])
    words = gif.description or ""
    assert "Game over" in words and "resigned" in words and "to play" not in words, words
    frames = Image.open(io.BytesIO(gif.data))
    frames.seek(frames.n_frames - 1)
    SHOTS.mkdir(parents=True, exist_ok=True)
    frames.convert("RGB").save(SHOTS / "replay-last-frame.png")  # to look at: the header says who won

    # /pyramid status after the end: the result, in the picture's words and as text
    picture = await harness.slash(alice, thread, "pyramid status", game=game_id)
    described = picture.attachments[0].description or ""
    assert "Game over" in described and "resigned" in described and "to play" not in described, described
    text = await harness.slash(alice, thread, "pyramid status", game=game_id, text=True)
    assert "Game over" in text.text and "resigned" in text.text, text.text
    harness.assert_no_bot_errors()
