"""Provably fair deals and game records, through the emulator.

A game's first card offers its deal's seal behind 🔐 Fair deal (SHA-256 over the game, seed and
salt, as docs/game-record.md writes it), answered privately; its last card's button reveals the
seed and salt, which hash to the seal given at the start; ``/pyramid history`` gives the documented record,
which ``verify`` accepts (as a function and as ``python -m bot verify``) and which it
rejects once edited: a move, the result, the salt. A game someone resigns ends without a move:
its last board becomes its final card, whose button reveals the deal the same way.
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.records.format import Record, RecordProblem, read_record
from bot.records.verify import check, verify_text
from emulator.harness import Harness
from tests.bot.e2e.driver import boards, flaming_game_of, play_out, session_of
from tests.paths import REPO

SEAL = re.compile(r"🔒 Deal sealed: `sha256:([0-9a-f]{64})`")
REVEAL = re.compile(r"🔓 Deal revealed: seed `(\d+)` · salt `([0-9a-f]{32})`")


def documented_seal(kind: str, seed: int, salt: str) -> str:
    """The commitment as docs/game-record.md defines it, computed here on its own."""
    return hashlib.sha256(f"pyramid-bot deal v1\n{kind}\n{seed}\n{salt}".encode()).hexdigest()


async def history_file(harness: Harness, user: Any, channel: Any, game_id: int) -> bytes:
    answer = await harness.slash(user, channel, "pyramid history", game=game_id)
    assert answer.ephemeral and [a.filename for a in answer.attachments] == [f"game-{game_id}.json"]
    assert "`pyramid-bot verify`" in answer.text
    return await harness.fetch_attachment(answer.attachments[0])


def rejected(data: dict[str, Any]) -> str:
    with pytest.raises(RecordProblem) as caught:
        verify_text(json.dumps(data))
    return str(caught.value)


async def test_the_seal_at_the_start_is_the_deal_revealed_at_the_end(emulator: Any, harness: Harness,
                                                                    tmp_path: Path) -> None:
    (alice, bob), thread, game_id = await flaming_game_of(emulator, harness, "alice", "bob", turn_limit=4)
    first = boards(harness, thread)[0]
    assert "· move 0" in first.text and not SEAL.search(first.text)  # not in the card's words
    told = await harness.click(bob, first, label="🔐 Fair deal")
    assert told.ephemeral
    sealed = SEAL.search(told.text)
    assert sealed, told.text
    assert "revealed when the game ends" in told.text
    # while the game runs, the seal is all there is: no seed, no salt, anywhere in the thread
    stored = await harness.bot.services.store.game_record(game_id)
    assert stored is not None and stored.salt is not None
    running = json.loads(await history_file(harness, alice, thread, game_id))
    assert running["seed"] is None and running["salt"] is None and running["commitment"] == f"sha256:{sealed[1]}"
    assert all(str(stored.seed) not in m.text and stored.salt not in m.text for m in harness.messages(thread))

    final = await play_out(harness, game_id, {0: alice, 1: bob}, thread)
    assert final.over and final.record.status == "finished"
    last = boards(harness, thread)[-1]
    assert "Game over" in last.text and not any(SEAL.search(b.text) or REVEAL.search(b.text)
                                                for b in boards(harness, thread))
    shown = await harness.click(alice, last, label="🔐 Fair deal")
    revealed = REVEAL.search(shown.text)
    assert shown.ephemeral and revealed, shown.text
    seed, salt = int(revealed[1]), revealed[2]
    assert (seed, salt) == (stored.seed, stored.salt)
    assert documented_seal("flaming-pyramids", seed, salt) == sealed[1]  # what was posted at the start

    raw = await history_file(harness, alice, thread, game_id)
    record = read_record(raw)
    assert isinstance(record, Record) and record.format == "pyramid-bot/game-record" and record.version == 1
    assert (record.seed, record.salt, record.commitment) == (seed, salt, f"sha256:{sealed[1]}")
    assert [p.name for p in record.players] == ["alice", "bob"] and record.status == "finished"
    assert len(record.moves) == final.version and record.result == final.record.result
    verdict = check(record)
    assert verdict.sealed and f"Game #{game_id} of Flaming Pyramids checks out" in verdict.summary

    path = tmp_path / f"game-{game_id}.json"
    path.write_bytes(raw)
    done = subprocess.run([sys.executable, "-m", "bot", "verify", str(path)], cwd=REPO, capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == verdict.summary

    data = json.loads(raw)
    moved = copy.deepcopy(data)
    moved["moves"][1]["move"] = "play Z99 9,9"
    assert rejected(moved).startswith("Move 2 (seat ") and "is not legal there" in rejected(moved)
    won = copy.deepcopy(data)
    won["result"]["winners"] = [1 - data["result"]["winners"][0]] if data["result"]["winners"] else [0]
    assert rejected(won).startswith("The result does not match the moves")
    salted = copy.deepcopy(data)
    salted["salt"] = "f" * 32
    assert rejected(salted).startswith("The commitment does not match the seed and salt")
    path.write_text(json.dumps(salted))
    refused = subprocess.run([sys.executable, "-m", "bot", "verify", str(path)], cwd=REPO, capture_output=True,
                             text=True, timeout=300, check=False)
    assert refused.returncode == 1 and refused.stderr.startswith("The commitment does not match")
    harness.assert_no_bot_errors()


async def test_a_resigned_game_reveals_its_deal_on_its_final_card(emulator: Any, harness: Harness) -> None:
    (alice, bob), thread, game_id = await flaming_game_of(emulator, harness, "alice", "bob")
    sealed = SEAL.search((await harness.click(alice, boards(harness, thread)[0], label="🔐 Fair deal")).text)
    assert sealed
    session = await session_of(harness, game_id)
    mover = {0: alice, 1: bob}[session.to_act]
    await harness.slash(mover, thread, "pyramid play", move=session.game.legal_moves(session.state)[0])
    await harness.slash(bob, thread, "pyramid resign")
    await harness.settle()
    last = boards(harness, thread)[-1]
    assert "Game over" in last.text and not REVEAL.search(last.text)
    shown = await harness.click(bob, last, label="🔐 Fair deal")
    found = REVEAL.search(shown.text)
    assert shown.ephemeral and found and documented_seal("flaming-pyramids", int(found[1]), found[2]) == sealed[1]
    record = read_record(await history_file(harness, alice, thread, game_id))
    assert record.players[1].resigned and record.result is not None and record.result["resigned"] == [1]
    assert "then bob left the game" in check(record).summary
    # the end is followed once: a delivery pass run again posts nothing more
    count = len(harness.messages(thread))
    await harness.bot.client.host.delivery.deliver_game(game_id)
    await harness.settle()
    assert len(harness.messages(thread)) == count
