"""The load bench plays moves and prints its figures: a short run of the deployed bot
(a few games, a few moves each) through the emulator with Discord's rate limits.

Figures, not timings: nothing here depends on how fast the machine is."""

from __future__ import annotations

import json
import math

import pytest

from emulator.model import Message, User
from emulator.server import RequestRecord
from tools.bench import load


def test_a_short_run_plays_and_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    bench = load.Load(games=3, moves=2, seed=3, think=0.05, workers=1)
    load.run_all(bench, [load.Deployment("sqlite", 1)])
    lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("{")]
    assert len(lines) == 1
    figures = json.loads(lines[0])
    assert figures["moves"] >= 3  # every game moved; none of it was lost
    assert figures["lost_moves"] == 0 and figures["violations"] == 0
    for name in ("click_to_board_ms", "click_to_response_ms_move_click"):
        assert all(math.isfinite(v) for v in figures[name].values())
    assert math.isfinite(figures["bot_cpu_ms_per_move"]) and figures["bot_cpu_ms_per_move"] > 0
    assert 0 < figures["bot_own_cpu_ms_per_move"] < figures["bot_cpu_ms_per_move"]  # the workers drew pictures
    assert figures["rate_limited_per_move"] > 0 and figures["interaction_per_move"] > 0
    assert "POST /channels/{channel_id}/messages" in figures["rate_limited_by_route"]
    assert figures["429s"] >= figures["429s_global"] >= 0


def board(content: str, components: list[dict[str, object]] | None = None,
          pinged: frozenset[int] = frozenset()) -> Message:
    author = User(1, "bot", bot=True)
    return Message(id=2, channel_id=3, guild_id=4, author=author, content=content, components=components or [],
                   pinged=pinged)


def test_the_player_to_act_is_found_wherever_the_board_names_them() -> None:
    alice, bob = User(10, "alice"), User(11, "bob")
    seats = {alice.id: alice, bob.id: bob}
    sealed = "🔥 **Flaming Pyramids** · game #1 · move 0\n🎯 <@11>, it's your turn.\n🔒 Deal sealed: `ab12`"
    assert load.to_act(board(sealed), seats) is bob  # the last line is the seal, not the status
    story = "game #1 · move 3\n<@10> played A1\n🎯 <@11>, it's your turn."
    assert load.to_act(board(story), seats) is bob
    assert load.to_act(board(story, pinged=frozenset({alice.id})), seats) is alice  # the ping decides
    card = [{"type": 17, "components": [{"type": 10, "content": "game #1 · move 3"},
                                        {"type": 10, "content": "🎯 <@10>, it's your turn."}]}]
    assert load.to_act(board("", card), seats) is alice  # a Components V2 card: its text displays
    assert load.to_act(board("nobody named"), seats) is None


def test_requests_per_move_counts_what_is_rate_limited() -> None:
    records = [RequestRecord("POST", "POST /channels/{channel_id}/messages", "/x", 200, 0.0),
               RequestRecord("POST", "POST /channels/{channel_id}/messages", "/x", 429, 0.0, "global"),
               RequestRecord("POST", "POST /interactions/{interaction_id}/{token}/callback", "/y", 204, 0.0)]
    figures = load.requests_per_move(records, moves=2)  # the 429 is counted as such, not as a request made
    assert figures["rate_limited_per_move"] == 0.5 and figures["interaction_per_move"] == 0.5
    assert figures["429s"] == 1 and figures["429s_global"] == 1


@pytest.mark.postgres
def test_moves_from_hand_dms_reach_shard_zero(capsys: pytest.CaptureFixture[str], postgres_url: str) -> None:
    """``--dm-moves 1``: every move the hand DM offers is made there, and its clicks reach shard 0's process only
    (Discord's rule for events without a server): the DM share is reported per process and shard."""
    bench = load.Load(games=2, moves=3, seed=5, think=0.2, workers=0, dm_moves=1.0)
    load.run_all(bench, [load.Deployment(postgres_url, 2)])
    figures = json.loads(next(line for line in capsys.readouterr().out.splitlines() if line.startswith("{")))
    assert figures["lost_moves"] == 0 and figures["violations"] == 0
    assert figures["dm_moves"] > 0, "some moves were made from a hand DM"
    by_shard = figures["move_click_p95_ms_by_shard"]
    assert set(by_shard) <= {"0", "1"} and "0" in by_shard
    assert len(figures["cpu_ms_per_move_by_process"]) == 2 and 0 < figures["shard0_cpu_share"] <= 1
