"""Fair play (issue #25) through the emulator: the findings, each played as a player
would, with ordinary commands.

- A player whose opponent timed out (an AI took the seat) and who then resigns loses,
  to the AI that stayed; nobody draws because everyone left, and the rebuild agrees.
- Flaming Pyramids with ``turn_limit`` 1 against the hard AI is played, not rated.
- A challenge entrant's game is seen by that entrant alone until the challenge closes:
  its thread, its replay, ``game:N`` for history and status; the leaderboard shows scores.
- A record carries no Discord id, marks a timed-out seat with the move from which an AI
  played it, and ``verify`` refuses an ending the bot could not have produced.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from bot.games.flaming_pyramids import SHORTEST_RATED_TURNS
from bot.ops.rebuild_ratings import rebuild_ratings
from bot.ratings import START_MU, START_SIGMA, Skill
from bot.ratings.rules import fewest_moves
from bot.ratings.store import RatingStore
from bot.records.format import read_record
from bot.records.verify import check
from emulator.harness import Harness
from emulator.model import Channel, User
from engine.core import get_game
from tests.bot.clock import FakeClock
from tests.bot.e2e.driver import flaming_game_of, latest_game_id, play_each, play_out, session_of, start_flaming
from tests.paths import REPO


async def history_file(harness: Harness, user: User, channel: Channel, game_id: int) -> bytes:
    answer = await harness.slash(user, channel, "pyramid history", game=game_id)
    assert answer.attachments, answer.text
    return await harness.fetch_attachment(answer.attachments[0])


async def time_out(harness: Harness, clock: FakeClock, game_id: int) -> int:
    """Let the seat to act run out of time until the sweep hands it to an AI; its seat."""
    seat = (await session_of(harness, game_id)).to_act
    for _ in range(10):
        clock.advance(days=30)
        await harness.bot.client.host.reminders.sweep()
        await harness.settle()
        if (await session_of(harness, game_id)).seat(seat).is_ai:
            return seat
    raise AssertionError("the seat never timed out")


async def test_resigning_after_an_ai_took_the_timed_out_opponents_seat_is_a_loss(
    emulator: Any, harness: Harness, clock: FakeClock
) -> None:
    """The finding: bob times out (a normal AI takes his seat), then alice resigns.
    Both used to rank last together, a draw, and alice's leaderboard figure rose."""
    (alice, bob), thread, game_id = await flaming_game_of(emulator, harness, "alice", "bob")
    # Both play enough for a rated game to rate anyone against them (bot.ratings.rules.fewest_moves).
    await play_each(harness, game_id, {0: alice, 1: bob}, thread, fewest_moves("flaming-pyramids", 2))
    while (await session_of(harness, game_id)).to_act == 0:  # alice plays until bob's seat is to act
        choices = await harness.autocomplete(alice, thread, "pyramid play", "move", "", game=game_id)
        assert "✅" in (await harness.slash(alice, thread, "pyramid play", move=choices[0]["value"],
                                            game=game_id)).text
        await harness.settle()
    timed_out = await time_out(harness, clock, game_id)
    assert timed_out == 1
    session = await session_of(harness, game_id)
    assert session.record.status == "active" and session.to_act == 0, "the AI played bob's turn"
    left_after = (await harness.bot.services.store.moves(game_id))
    resigned = await harness.slash(alice, thread, "pyramid resign", game=game_id)
    assert "resigned" in resigned.text
    await harness.settle()

    ratings = RatingStore(harness.bot.services.db)
    standings, _, counted = await ratings.everything()
    (outcome,) = [g for g in counted if g.game_id == game_id]
    assert outcome.rated
    ranks = {s.user_id: s.rank for s in outcome.seats}
    assert ranks[alice.id] != ranks[bob.id], "not a draw"
    (stand_in,) = outcome.stand_ins
    assert stand_in.ai_level == "normal" and stand_in.rank < ranks[alice.id]
    mine = {(s.scope, s.user_id): s for s in standings}
    guild = emulator.general.guild_id
    hers, his = mine[(guild, alice.id)], mine[(guild, bob.id)]
    assert (hers.wins, hers.losses, his.wins, his.losses) == (0, 1, 0, 1)
    start = Skill(START_MU, START_SIGMA)
    assert hers.mu < START_MU and hers.skill.ordinal < start.ordinal, "resigning cost alice something"
    assert his.mu < START_MU and his.skill.ordinal < start.ordinal

    # The record: no Discord id; bob timed out, and the moves of his seat after it are the AI's.
    data = await history_file(harness, alice, thread, game_id)
    text = data.decode()
    assert str(alice.id) not in text and str(bob.id) not in text and "<@" not in text
    record = read_record(data)
    bob_player, alice_player = record.players[1], record.players[0]
    assert (bob_player.left, bob_player.then_ai, bob_player.resigned) == ("timed out", "normal", True)
    assert bob_player.left_after is not None and bob_player.left_after < len(left_after)
    assert [m.ai for m in record.moves if m.seat == 1 and m.seq > bob_player.left_after]
    assert all(m.ai for m in record.moves if m.seat == 1 and m.seq > bob_player.left_after)
    assert not any(m.ai for m in record.moves if m.seat == 1 and m.seq <= bob_player.left_after)
    assert (alice_player.left, alice_player.left_after, alice_player.then_ai) == ("resigned", len(record.moves),
                                                                                  None)
    assert "alice resigned" in record.result["summary"].format(*[p.name for p in record.players])
    check(record)  # the bot's own ending verifies

    # The rebuild from the move logs gives the same numbers.
    live = await ratings.everything()
    await rebuild_ratings(harness.bot.services.db)
    assert await ratings.everything() == live
    harness.assert_no_bot_errors()


async def test_a_one_turn_game_against_the_hard_ai_is_played_but_not_rated(emulator: Any, harness: Harness) -> None:
    """The finding: a random mover farmed 29.5 ± 6.1 from 40 one-turn games against the hard AI."""
    alice = await harness.add_user("alice")
    await harness.start_bot()
    opened = await harness.slash(alice, emulator.general, "pyramid new", game="flaming-pyramids", turn_limit=1)
    assert opened.message is not None
    lobby = opened.message.text
    await harness.select(alice, opened.message, None, ["hard"])
    await harness.click(alice, opened.message, label="Start")
    game_id = await latest_game_id(harness)
    thread = harness.threads(emulator.general)[-1]
    final = await play_out(harness, game_id, {0: alice, 1: alice}, thread)
    assert final.record.status == "finished"
    await harness.settle()
    ratings = RatingStore(harness.bot.services.db)
    standings, records, counted = await ratings.everything()
    assert standings == [] and records == []
    assert [(g.game_id, g.rated, g.short) for g in counted] == [(game_id, False, True)]
    ends = [m.text for m in harness.messages(thread) if "Game over" in m.text]
    assert ends and "too short to measure skill" in ends[-1]
    stats = await harness.slash(alice, emulator.general, "pyramid stats")
    assert "No finished games counted yet" in stats.text
    assert SHORTEST_RATED_TURNS > 1 and f"fewer than {SHORTEST_RATED_TURNS} turns is too short" in lobby
    harness.assert_no_bot_errors()


async def test_a_challenge_entrants_game_is_theirs_alone_until_the_challenge_closes(
    emulator: Any, harness: Harness, clock: FakeClock
) -> None:
    """The finding: challenge games were public threads (each board tells the stock's
    refills), with their GIF, and ``game:N`` gave their history to every rival."""
    # Members as a server gives them (@everyone's permissions): no Manage Threads, which sees every thread.
    ana, ben = [await harness.add_user(name, permissions=0) for name in ("ana", "ben")]
    await harness.start_bot()
    general = emulator.general
    opened = await harness.slash(ana, general, "pyramid new", game="continuous-pyramid", challenge=True)
    post = opened.message
    assert post is not None
    await harness.click(ana, post, label="▶ Play this deal")
    ana_game = await latest_game_id(harness)
    ana_thread = harness.threads(general)[-1]
    assert not any(str(ana_game) in m.text for m in harness.messages(general) if m.id != post.id), \
        "nobody is told where ana plays"
    assert harness.visible_messages(ana, ana_thread), "ana sees her boards"
    assert harness.visible_messages(ben, ana_thread) == [], "ben does not see ana's boards"

    session = await session_of(harness, ana_game)
    move = session.game.legal_moves(session.state)[0]
    assert "✅" in (await harness.slash(ana, ana_thread, "pyramid play", move=move, game=ana_game)).text
    await harness.slash(ana, ana_thread, "pyramid resign", game=ana_game)
    await harness.settle()
    assert (await session_of(harness, ana_game)).record.status == "finished"
    gifs = [m for m in harness.messages(ana_thread) if any(a.filename.endswith(".gif") for a in m.attachments)]
    assert len(gifs) == 1 and harness.visible_messages(ben, ana_thread) == []

    await harness.click(ben, post, label="▶ Play this deal")
    ben_game = await latest_game_id(harness)
    for command in ("pyramid history", "pyramid status", "pyramid replay"):
        refused = await harness.slash(ben, general, command, game=ana_game)
        assert "shared deal" in refused.text and not refused.attachments, (command, refused.text)
    mine = await harness.slash(ana, general, "pyramid history", game=ana_game)
    assert mine.attachments
    board = harness.message(post.id).text
    assert "1/144 tiles" in board and "<#" not in board and "game #" not in board.lower(), "scores only"

    # Closed (a week on) but ben still plays: still his alone to see. Over: everyone's.
    clock.advance(days=8)
    assert "shared deal" in (await harness.slash(ben, general, "pyramid history", game=ana_game)).text
    assert "closed" in (await harness.click(ana, post, label="▶ Play this deal")).text
    ben_thread = harness.threads(general)[-1]
    await harness.slash(ben, ben_thread, "pyramid resign", game=ben_game)
    await harness.settle()
    assert (await harness.slash(ben, general, "pyramid history", game=ana_game)).attachments
    harness.assert_no_bot_errors()


async def test_a_resigned_games_record_names_no_discord_id(emulator: Any, harness: Harness) -> None:
    """The finding: the summary of a resigned game was made of mentions."""
    (alice, bob), thread, game_id = await flaming_game_of(emulator, harness, "alice", "bob", turn_limit=40)
    await harness.slash(alice, thread, "pyramid resign", game=game_id)
    await harness.settle()
    data = await history_file(harness, bob, thread, game_id)
    assert str(alice.id) not in data.decode() and str(bob.id) not in data.decode()
    record = read_record(data)
    assert record.result is not None
    assert record.result["summary"].format("alice", "bob") == "alice resigned. bob wins."
    check(record)
    # The channel was still told with mentions (they render as names there).
    told = [m.text for m in harness.messages(thread) if "resigned" in m.text]
    assert told and f"<@{alice.id}>" in told[-1]


async def test_verify_refuses_a_three_player_game_ended_by_one_resignation(
    emulator: Any, harness: Harness, tmp_path: Path
) -> None:
    """The finding: verify accepted a three-player record "ended" by one resignation after
    move 4; the bot goes on with an AI in the seat."""
    users = [await harness.add_user(name) for name in ("ana", "ben", "cal")]
    await harness.start_bot()
    thread, game_id = await start_flaming(emulator, harness, users, turn_limit=6)
    seats = dict(enumerate(users))
    for _ in range(4):
        session = await session_of(harness, game_id)
        user = seats[session.to_act]
        choices = await harness.autocomplete(user, thread, "pyramid play", "move", "", game=game_id)
        assert "✅" in (await harness.slash(user, thread, "pyramid play", move=choices[0]["value"],
                                            game=game_id)).text
    leaver = (await session_of(harness, game_id)).to_act
    assert "AI" in (await harness.slash(seats[leaver], thread, "pyramid resign", game=game_id)).text
    await harness.settle()
    final = await play_out(harness, game_id, {s: u for s, u in seats.items() if s != leaver}, thread)
    assert final.record.status == "finished"
    genuine = read_record(await history_file(harness, users[0], thread, game_id))
    check(genuine)  # what the bot did verifies

    forged = genuine.model_dump(mode="json")
    forged["moves"] = forged["moves"][:4]
    game = get_game("flaming-pyramids")
    state = game.replay(3, genuine.options, genuine.seed, [(m.seat, m.move) for m in genuine.moves[:4]])
    forged["result"] = game.forfeit(state, leaver).to_json()
    forged["players"][leaver].update(then_ai=None)
    path = tmp_path / "forged.json"
    path.write_text(json.dumps(forged))
    done = subprocess.run([sys.executable, "-m", "bot", "verify", str(path)], capture_output=True, text=True,
                          timeout=120, cwd=REPO)
    assert done.returncode == 1, done.stdout
    assert "never ends a game of 3 players" in done.stdout + done.stderr
    marked = genuine.model_dump(mode="json")["players"][leaver]
    assert (marked["left"], marked["left_after"], marked["then_ai"]) == ("resigned", 4, "easy")
