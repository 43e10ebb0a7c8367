"""Forecasts (issue #41), through the emulator: in a 3-player Flaming Pyramids game, a
player's forecast is played on their turn the moment the move it waits for is made (the
card says "played as forecast", the record marks it, nothing of it showed before), and
another player's forecast whose moves did not happen is dropped: their turn comes as usual."""

from __future__ import annotations

from typing import Any

import render
from bot.cards.boards import plain_names
from bot.games.presenter import ENGLISH
from bot.records.build import record_of
from bot.store.forecast_lines import ForecastStore
from emulator.harness import Harness
from tests.bot.e2e.driver import boards, card_text, flaming_game_of, session_of


def a_reply(session: Any) -> tuple[str, int, str]:
    """A move of the seat to act after which the next seat (not the same one) is to act, and a
    legal answer of that next seat."""
    game, state, seat = session.game, session.state, session.to_act
    for move in game.legal_moves(state):
        after, _ = game.play(state, seat, move)
        nxt = game.to_act(after)
        if nxt is not None and nxt != seat:
            return move, nxt, game.legal_moves(after)[-1]
    raise AssertionError("no move that passes the turn on")


async def test_a_forecast_is_played_on_its_turn_and_another_is_dropped(emulator: Any, harness: Harness) -> None:
    (ana, ben, cy), thread, game_id = await flaming_game_of(emulator, harness, "ana", "ben", "cy")
    users = {0: ana, 1: ben, 2: cy}
    session = await session_of(harness, game_id)
    mover = session.to_act
    move, waiting, answer = a_reply(session)
    third = next(seat for seat in users if seat not in (mover, waiting))

    refused = await harness.slash(users[mover], thread, "pyramid forecast", game=game_id, lines=f"{move} -> pass")
    assert "your turn now" in refused.text, refused.text
    bad = await harness.slash(users[waiting], thread, "pyramid forecast", game=game_id, lines="no arrow here")
    assert "needs one ->" in bad.text, bad.text
    kept = await harness.slash(users[waiting], thread, "pyramid forecast", game=game_id,
                               lines=f"pass | pass -> pass; {move} -> {answer}")
    assert kept.ephemeral and "Forecast kept" in kept.text, kept.text
    # Each line previewed from what the player sees: "pass | pass" cannot happen (no pass in this position).
    assert "1. ⚠ From what you can see, the others can't play these moves." in kept.text, kept.text
    assert "2. 👁️" in kept.text and "Your answer would not be legal" not in kept.text, kept.text
    # The third player lines up an answer to a move that will not be made.
    never = next(m for m in session.game.legal_moves(session.state) if m not in (move, answer))
    await harness.slash(users[third], thread, "pyramid forecast", game=game_id, lines=f"{move} | {never} -> pass")
    assert all(answer not in card_text(m) for m in harness.messages(thread)), "private until played"

    await harness.slash(users[mover], thread, "pyramid play", move=move, game=game_id)
    await harness.settle()
    after = await session_of(harness, game_id)
    log = await harness.bot.services.store.moves(game_id)
    assert [(m.seat, m.move) for m in log[-2:]] == [(mover, move), (waiting, answer)], "played at once"
    assert log[-1].actor_id == users[waiting].id
    assert any("played as forecast" in card_text(b) for b in boards(harness, thread)[-2:])
    record = await record_of(harness.bot.services.store, after.game, game_id)
    assert record.moves[-1].made == "forecast" and record.moves[-2].made is None and not record.moves[-1].ai

    # The third player's line waited for `never` after `move`: the forecast's answer came instead, so it is dropped.
    assert after.to_act == third
    assert await ForecastStore(harness.bot.services.db).of_game(game_id) == []
    assert after.version == session.version + 2, "nothing played for the third player"


async def test_the_forecast_button_on_a_waiting_players_hand_card_opens_their_lines_as_a_form(
        emulator: Any, harness: Harness) -> None:
    (ana, ben, cy), thread, game_id = await flaming_game_of(emulator, harness, "ana", "ben", "cy")
    users = {0: ana, 1: ben, 2: cy}
    session = await session_of(harness, game_id)
    mover = session.to_act
    move, _, _ = a_reply(session)
    played = await harness.slash(users[mover], thread, "pyramid play", move=move, game=game_id)
    await harness.settle()
    # The mover waits now: the hand card their move brought carries 🔮 Forecast.
    third = mover
    cards = [m for m in [*played.messages, *harness.dm(users[mover])] if "🔮 Forecast" in m.button_labels]
    assert cards, [m.button_labels for m in played.messages]
    hand = cards[-1]
    opened = await harness.click(users[third], hand, label="🔮 Forecast")
    assert opened.modal is not None, opened.text
    field = opened.modal["components"][0]["component"]
    saved = await harness.submit_modal(users[third], opened, {field["custom_id"]: "pass -> pass\npass | pass -> pass"})
    assert "Forecast kept" in saved.text and saved.ephemeral, saved.text
    mine = [f for f in await ForecastStore(harness.bot.services.db).of_game(game_id) if f.seat == third]
    assert [len(f.lines) for f in mine] == [2]
    again = await harness.click(users[third], hand, label="🔮 Forecast")
    assert "pass | pass -> pass" in str(again.modal), "the form shows the lines kept"
    shown = await harness.slash(users[third], thread, "pyramid forecast", game=game_id)
    assert "pass → pass ⇒" in shown.text and shown.ephemeral
    dropped = await harness.slash(users[third], thread, "pyramid forecast", game=game_id, clear=True)
    assert "dropped" in dropped.text


async def test_each_forecast_line_is_previewed_as_a_picture_of_its_position(emulator: Any, harness: Harness) -> None:
    """The answer to a forecast carries, per line that can happen, a picture of the board after the others'
    moves and the answer (the public board, as the move preview draws it), its alt text telling the line in
    words; a line that can't happen keeps its warning and has no picture."""
    (ana, ben, cy), thread, game_id = await flaming_game_of(emulator, harness, "ana", "ben", "cy")
    users = {0: ana, 1: ben, 2: cy}
    session = await session_of(harness, game_id)
    move, waiting, answer = a_reply(session)
    kept = await harness.slash(users[waiting], thread, "pyramid forecast", game=game_id,
                               lines=f"pass | pass -> pass; {move} -> {answer}")
    assert kept.ephemeral and "1. ⚠" in kept.text, kept.text
    assert kept.message is not None
    pictures = kept.message.png_attachments()
    assert len(pictures) == 1, "one picture: the line that can happen"
    game = session.game
    between, _ = game.play(session.state, session.to_act, move)
    after, events = game.play(between, waiting, answer)
    expected = {**game.view(after, None), "names": plain_names(session), "game_number": game_id, "lang": "en"}
    assert pictures[0].data == render.render_board(expected, labels={}, events=[e for e in events if e.visible(None)],
                                                   art=session.presenter.art)
    told = [session.presenter.move_words(m, {}, ENGLISH) for m in (move, answer)]
    alt = pictures[0].description or ""
    assert alt.startswith(f"Line 2: after {told[0]}, your answer {told[1]}. The board then:"), alt
    assert len(alt) <= 1024
    assert "🖼" in kept.text, kept.text


async def test_ten_lines_set_through_the_form_come_back_as_ten_pictures_in_one_answer(
        emulator: Any, harness: Harness) -> None:
    """The 🔮 form previews as the command does, and ten lines (the most) fit one private answer: ten
    pictures, each named after its line, within Discord's limits of files and components per message."""
    (ana, ben, cy), thread, game_id = await flaming_game_of(emulator, harness, "ana", "ben", "cy")
    users = {0: ana, 1: ben, 2: cy}
    session = await session_of(harness, game_id)
    me = session.to_act
    move, _, _ = a_reply(session)
    played = await harness.slash(users[me], thread, "pyramid play", move=move, game=game_id)
    await harness.settle()
    session = await session_of(harness, game_id)
    game, state = session.game, session.state
    lines: list[str] = []  # the two others' moves (as they could come), then an answer of mine
    for first in game.legal_moves(state):
        between, _ = game.play(state, session.to_act, first)
        second_seat = game.to_act(between)
        assert second_seat is not None
        for second in game.legal_moves(between):
            after, _ = game.play(between, second_seat, second)
            if game.to_act(after) == me:
                lines += [f"{first} | {second} -> {answer}" for answer in game.legal_moves(after)]
        if len(lines) >= 10:
            break
    assert len(lines) >= 10, lines
    hand = next(m for m in [*played.messages, *harness.dm(users[me])] if "🔮 Forecast" in m.button_labels)
    opened = await harness.click(users[me], hand, label="🔮 Forecast")
    assert opened.modal is not None, opened.text
    field = opened.modal["components"][0]["component"]
    saved = await harness.submit_modal(users[me], opened, {field["custom_id"]: "\n".join(lines[:10])})
    assert saved.ephemeral and "Forecast kept" in saved.text, saved.text
    assert saved.message is not None
    pictures = saved.message.png_attachments()
    assert [p.filename for p in pictures] == [f"line{n}.png" for n in range(1, 11)]
    assert all((p.description or "").startswith(f"Line {n}: after ") for n, p in enumerate(pictures, start=1))
    assert not saved.rejected, saved.rejected
    assert "🖼 Below" in saved.text and saved.text.count(" 🖼") >= 10, saved.text
