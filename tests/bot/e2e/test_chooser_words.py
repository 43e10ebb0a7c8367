"""Issue #43, findings 5 and 6, through Discord: what a player reads while choosing and after
moving is words, not notation. The Flaming Pyramids chooser names the hand's tiles by colour
and weight in the hand picture's order and the spots by the board picture's letters; the reply
to a move tells it in a sentence ("✅ You played 🟢 Green 60 to spot A.", never "`play G60 0,-1`");
Continuous Pyramid's tiles stand at the chooser's top level; the lobby and its form name options
by their labels and leave unset ones out."""

from __future__ import annotations

import re
from typing import Any

from bot.games.flaming_pyramids import tile_words
from bot.games.presenter import ENGLISH
from emulator.harness import Harness
from tests.bot.e2e.driver import boards, latest_game_id, session_of, start_flaming

#: A cell as the notation writes it, a Flaming Pyramids tile code.
CELL = re.compile(r"-?\d+\s*,\s*-?\d+")
FP_CODE = re.compile(r"\b[RGBYM]\d+\b")


async def test_flaming_pyramids_chooser_and_reply_read_as_words(emulator: Any, harness: Harness) -> None:
    ana, ben = await harness.add_user("ana"), await harness.add_user("ben")
    await harness.start_bot()
    thread, game_id = await start_flaming(emulator, harness, [ana, ben])
    session = await session_of(harness, game_id)
    mover = {0: ana, 1: ben}[session.to_act]
    hand = list(dict.fromkeys(session.state.hands[session.to_act]))

    shown = await harness.click(mover, boards(harness, thread)[-1], label="▶ Your move")
    assert shown.message is not None
    tiles = [label for label in shown.message.button_labels if "Back" not in label]
    assert tiles == [tile_words(t, ENGLISH) for t in hand], tiles  # the hand picture's order and words
    assert not any(FP_CODE.search(t) for t in tiles), tiles

    step = await harness.click(mover, shown.message, label=tiles[0])
    assert step.message is not None
    spots = [label for label in step.message.button_labels if label.startswith("Spot ")]
    assert spots and not any(CELL.search(label) for label in step.message.button_labels), step.message.button_labels
    played = await harness.click(mover, step.message, label=spots[0])
    said = " ".join(m.text for m in [*played.messages, step.message, harness.message(step.message.id)])
    assert f"✅ You played {tiles[0]} to spot {spots[0].removeprefix('Spot ')}." in said, said
    assert "`play" not in said and "played play" not in said
    assert (await session_of(harness, game_id)).version == session.version + 1


async def test_continuous_pyramid_offers_its_tiles_at_once(emulator: Any, harness: Harness) -> None:
    ana = await harness.add_user("ana")
    await harness.start_bot()
    await harness.slash(ana, emulator.general, "pyramid new", game="continuous-pyramid")
    game_id = await latest_game_id(harness)
    thread = harness.threads(emulator.general)[-1]
    first = (await session_of(harness, game_id)).game.legal_moves((await session_of(harness, game_id)).state)[0]
    typed = await harness.slash(ana, thread, "pyramid play", move=first, game=game_id)
    assert f"in game #{game_id}" in typed.text and first not in typed.text, typed.text  # told in words
    session = await session_of(harness, game_id)  # one play made: ↩ Undo is legal too
    board = boards(harness, thread)[-1]
    if "▶ Your move" not in board.button_labels:  # a deal with few plays: they are the board's own buttons
        assert not any(CELL.search(label) for label in board.button_labels), board.button_labels
        return
    shown = await harness.click(ana, board, label="▶ Your move")
    assert shown.message is not None
    labels = shown.message.button_labels
    assert "Play a tile" not in labels and labels[-1] == "↩ Undo", labels
    assert shown.message.png_attachments(), "the board its spot letters are on comes with the chooser"
    labels = labels[:-1]
    reserve = [str(t) for t in session.game.view(session.state, 0)["reserve"]]
    playable = {m.split()[1] for m in session.game.legal_moves(session.state) if m.startswith("play")}
    assert labels == list(dict.fromkeys(t for t in reserve if t in playable)), (labels, reserve)  # the slots' order


async def test_lobby_and_form_name_options_in_words(emulator: Any, harness: Harness) -> None:
    ana = await harness.add_user("ana")
    await harness.start_bot()
    lobby = await harness.slash(ana, emulator.general, "pyramid new", game="flaming-pyramids", curse=True)
    assert lobby.message is not None
    text = lobby.message.text
    assert "The curse: **on**" in text and "turn_limit" not in text and "none" not in text, text
    opened = await harness.click(ana, lobby.message, label="⚙️ Options")
    assert opened.modal is not None
    words = [c.get("label", "") + " " + (c.get("description") or "") for c in opened.modal["components"]]
    assert any(w.startswith("The curse ") for w in words) and any(w.startswith("Turn limit ") for w in words), words
    assert not any("FP-" in w for w in words), words


async def test_continuous_pyramid_a_tile_click_plays_or_asks_for_its_spot(emulator: Any, harness: Harness) -> None:
    ana = await harness.add_user("ana")
    await harness.start_bot()
    await harness.slash(ana, emulator.general, "pyramid new", game="continuous-pyramid")
    game_id = await latest_game_id(harness)
    thread = harness.threads(emulator.general)[-1]
    before = await session_of(harness, game_id)
    board = boards(harness, thread)[-1]
    shown = await harness.click(ana, board, label="▶ Your move")
    assert shown.message is not None
    first = shown.message.button_labels[0]
    step = await harness.click(ana, shown.message, label=first)
    if (await session_of(harness, game_id)).version == before.version:  # several spots: pick one
        assert step.message is not None
        spot = next(label for label in step.message.button_labels if label.startswith("Spot "))
        step = await harness.click(ana, step.message, label=spot)
    assert (await session_of(harness, game_id)).version == before.version + 1, [m.text for m in step.messages]
    assert len(boards(harness, thread)) == 2, "the next board is posted"
