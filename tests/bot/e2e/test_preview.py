"""See before you commit, through the emulator (issue #19): with ``/pyramid settings
preview:True`` a Flaming Pyramids move that collapses tiles is shown privately first,
picture and story, before anything is played; ↩ Back changes nothing; ✅ Confirm plays
it once, and a second Confirm of the same move is refused; a player without previews
plays at once as before."""

from __future__ import annotations

from typing import Any

import render
from bot.cards.boards import plain_names
from bot.cards.chooser import spot_letters
from bot.games.presenter import ENGLISH
from emulator.harness import Harness
from emulator.model import Channel, Message, User
from tests.bot.e2e.driver import boards, bot_of, flaming_game_of, session_of

#: What the rules make mayhem (a safe move sets none of it off).
MAYHEM = {"collapse", "explosion", "fire", "curse", "free_air"}


def collapsing(session: Any) -> list[str]:
    """The moves of the seat to act that collapse tiles (worked out by the test, which may see all)."""
    game, state, seat = session.game, session.state, session.to_act
    return [m for m in game.legal_moves(state) if any(e.kind == "collapse" for e in game.play(state, seat, m)[1])]


async def reach_a_collapse(harness: Harness, users: list[User], thread: Channel, game_id: int) -> Any:
    """Play quiet moves (typed, no previews yet) until the player to act can collapse tiles."""
    for _ in range(30):
        session = await session_of(harness, game_id)
        if collapsing(session):
            return session
        game, state, seat = session.game, session.state, session.to_act
        quiet = next(m for m in game.legal_moves(state)
                     if not {e.kind for e in game.play(state, seat, m)[1]} & MAYHEM)
        res = await harness.slash(users[seat], thread, "pyramid play", move=quiet, game=game_id)
        assert "✅" in res.text, res.text
    raise AssertionError("no collapse within reach")


async def pick_move(harness: Harness, user: User, chooser: Message, move: str) -> Message:
    """Click through the private chooser down to ``move`` (forced steps are skipped by
    the chooser itself); returns the message the last click left."""
    words = move.split()
    message = chooser
    while True:
        ids = {b["custom_id"].split(":", 4)[-1]: b["custom_id"] for b in message.buttons()
               if b["custom_id"].startswith("pb:pick:")}
        path = next((" ".join(words[:n]) for n in range(len(words), 0, -1) if " ".join(words[:n]) in ids), None)
        assert path is not None, f"{move!r} is not in the chooser: {list(ids)}"
        result = await harness.click(user, message, custom_id=ids[path])
        assert result.message is not None
        message = result.message
        if path == move or not any(b["custom_id"].startswith("pb:pick:") for b in message.buttons()):
            return message


async def test_preview_shows_a_collapse_back_changes_nothing_confirm_plays_once(
        emulator: Any, harness: Harness) -> None:
    users, thread, game_id = await flaming_game_of(emulator, harness, "alice", "bob")
    session = await reach_a_collapse(harness, users, thread, game_id)
    seat = session.to_act
    me, other = users[seat], users[1 - seat]
    move = collapsing(session)[0]

    # /pyramid settings: shows the choices, then turns previews on (privately).
    shown = await harness.slash(me, thread, "pyramid settings")
    assert shown.ephemeral and "**off**" in shown.text
    turned = await harness.slash(me, thread, "pyramid settings", preview=True)
    assert turned.ephemeral and "Saved" in turned.text and "**on**" in turned.text
    assert (await bot_of(harness).services.players.prefs(me.id)).preview

    version = session.version
    board = boards(harness, thread)[-1]
    channel_before = [m.id for m in harness.messages(thread)]

    # ▶ Your move, the tile, the spot: the move is previewed, not played.
    chooser = await harness.click(me, board, label="▶ Your move")
    assert chooser.message is not None
    preview = await pick_move(harness, me, chooser.message, move)
    assert preview.ephemeral
    told = session.presenter.move_words(move, spot_letters(session), ENGLISH)  # in words (#43)
    assert "Preview" in preview.text and told in preview.text and move not in preview.text, preview.text
    assert "collapse" in preview.text, preview.text
    assert [b["label"] for b in preview.buttons()] == ["✅ Confirm", "↩ Back"]
    # The picture is the public board after the move, the collapse ringed on it.
    game = session.game
    after, events = game.play(session.state, seat, move)
    expected = {**game.view(after, None), "names": plain_names(session), "game_number": game_id, "lang": "en"}
    picture = preview.png_attachments()
    assert len(picture) == 1
    assert picture[0].data == render.render_board(expected, labels={}, events=[e for e in events if e.visible(None)],
                                                  art=session.presenter.art)
    assert (picture[0].description or "").startswith(f"Preview of {move}, not played yet.")
    session = await session_of(harness, game_id)
    assert session.version == version
    assert [m.id for m in harness.messages(thread)] == channel_before, "a preview is never posted in the channel"

    # ↩ Back: nothing is played; the chooser is back, where the move was picked.
    back = await harness.click(me, preview, label="↩ Back")
    assert back.message is not None and "Nothing was played" in back.message.text
    assert not back.message.png_attachments()
    assert any(b["custom_id"].startswith("pb:pick:") for b in back.message.buttons()), "the chooser again"
    session = await session_of(harness, game_id)
    assert session.version == version and len(await bot_of(harness).services.store.moves(game_id)) == version
    assert [m.id for m in harness.messages(thread)] == channel_before
    assert boards(harness, thread)[-1].id == board.id and boards(harness, thread)[-1].buttons()

    # Two previews of the same move (the chooser again, and the typed command).
    first = await pick_move(harness, me, back.message, move)
    typed = await harness.slash(me, thread, "pyramid play", move=move, game=game_id)
    second = typed.message
    assert first is not None and second is not None and second.ephemeral and "collapse" in second.text
    assert second.png_attachments() and (await session_of(harness, game_id)).version == version

    # ✅ Confirm plays it through the normal path, once.
    confirmed = await harness.click(me, first, label="✅ Confirm")
    assert confirmed.message is not None and "✅ You played" in confirmed.message.text  # told in words (#43)
    assert move not in confirmed.message.text, confirmed.message.text
    session = await session_of(harness, game_id)
    assert session.version == version + 1
    played = boards(harness, thread)[-1]
    assert played.id != board.id and "collapse" in played.text

    # The other preview's Confirm is refused: the game moved on; nothing doubles.
    again = await harness.click(me, second, label="✅ Confirm")
    assert again.message is not None and "moved on" in again.message.text
    assert not again.message.buttons() and not again.message.png_attachments()
    session = await session_of(harness, game_id)
    assert session.version == version + 1 and len(await bot_of(harness).services.store.moves(game_id)) == version + 1
    assert boards(harness, thread)[-1].id == played.id

    # The collapse left a fall to choose: the board's public button is previewed too.
    assert session.to_act == seat and session.game.pending(session.state) is not None
    fall = await harness.click(me, played, label="⬅ Fall left")
    assert fall.message is not None and fall.message.ephemeral and "fall left" in fall.message.text
    assert (await session_of(harness, game_id)).version == version + 1
    await harness.click(me, fall.message, label="✅ Confirm")
    session = await session_of(harness, game_id)
    assert session.version == version + 2

    # Previews off (the other player): a move is played at once, as before.
    assert session.to_act == 1 - seat
    assert not (await bot_of(harness).services.players.prefs(other.id)).preview
    quiet = session.game.legal_moves(session.state)[0]
    direct = await harness.slash(other, thread, "pyramid play", move=quiet, game=game_id)
    assert "✅" in direct.text and "Preview" not in direct.text
    assert (await session_of(harness, game_id)).version == version + 3


async def test_settings_choose_a_language_and_go_back_to_auto(emulator: Any, harness: Harness) -> None:
    alice = await harness.add_user("alice")
    await harness.start_bot()
    german = await harness.slash(alice, emulator.general, "pyramid settings", language="de")
    assert german.ephemeral and "Gespeichert" in german.text and "Deutsch" in german.text
    prefs = await bot_of(harness).services.players.prefs(alice.id)
    assert prefs.language == "de" and not prefs.preview
    auto = await harness.slash(alice, emulator.general, "pyramid settings", language="auto", preview=True)
    assert "Saved" in auto.text and "**auto**" in auto.text and "**on**" in auto.text
    prefs = await bot_of(harness).services.players.prefs(alice.id)
    assert prefs.language is None and prefs.preview
