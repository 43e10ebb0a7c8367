"""Issue #43, finding 4: a quiet thread, one card per turn.

- An AI's turn gets no card of its own: the card after it, which pings the next human,
  tells everything since the last card (``bot.core.announcements.folded``).
- A turn that goes on over several moves (Pyramido's stones, one move each) keeps one
  card, edited in place until the turn passes (``turn_goes_on``).

Each test prints the thread's messages per human move (``-s`` shows it): before this
change a Flaming Pyramids game against an AI posted two cards per human move (the
human's board, then the AI's "it's your turn" board), and Pyramido one per stone.
"""

from __future__ import annotations

from typing import Any

from emulator.harness import Harness
from tests.bot.e2e.driver import boards, card_text, latest_game_id, session_of, start_flaming, versions

HUMAN_MOVES = 12


async def test_an_ai_turn_is_told_on_the_next_humans_card(emulator: Any, harness: Harness) -> None:
    ana = await harness.add_user("ana")
    await harness.start_bot()
    thread, game_id = await start_flaming(emulator, harness, [ana], ai="normal")
    await harness.settle()
    made = 0
    while made < HUMAN_MOVES:
        session = await session_of(harness, game_id)
        if session.over:
            break
        assert session.to_act == 0, "the AI has moved before the human's turn comes"
        choices = await harness.autocomplete(ana, thread, "pyramid play", "move", "", game=game_id)
        res = await harness.slash(ana, thread, "pyramid play", move=choices[0]["value"], game=game_id)
        assert "✅" in res.text, res.text
        made += 1
        await harness.settle()
    posted = versions(harness, thread)
    messages = len(harness.messages(thread))
    print(f"\nFlaming Pyramids vs a normal AI: {messages} messages in the thread after {made} human moves "
          f"({messages / made:.2f} per human move), {len(posted)} boards")
    services = harness.bot.services
    for version in posted[1:]:  # after the opening card, no card is an AI's "it's your turn"
        shown = await services.sessions.load_at(game_id, version)
        seat = shown.seat(shown.to_act) if shown.to_act is not None else None
        assert shown.over or (seat is not None and not seat.is_ai), (version, card_text(boards(harness, thread)[-1]))
    assert len(posted) <= made + 2, posted  # the opening card, the AI's first turn's, then one per human turn
    # The folded AI moves are narrated: the cards after the opening one tell the AI's moves since Ana's.
    told = [card_text(b) for b in boards(harness, thread)[1:]]
    assert sum("🤖" in text for text in told) >= made // 2, told


async def test_a_pyramido_turn_keeps_one_card_edited_in_place(emulator: Any, harness: Harness) -> None:
    ana = await harness.add_user("ana")
    await harness.start_bot()
    await harness.slash(ana, emulator.general, "pyramid new", game="pyramido", mode="solo", size=4)
    game_id = await latest_game_id(harness)
    thread = harness.threads(emulator.general)[0]
    turns, moves = 0, 0
    for _ in range(3):  # three turns: place every stone that can be placed, then end the turn
        before = len(boards(harness, thread))
        placed = 0
        while True:
            session = await session_of(harness, game_id)
            legal = session.game.legal_moves(session.state)
            move = next((m for m in legal if m.startswith("place")), None) if placed < 2 else None
            move = move or next(m for m in legal if m == "end" or not m.startswith("place"))
            res = await harness.slash(ana, thread, "pyramid play", move=move, game=game_id)
            assert "✅" in res.text, res.text
            moves += 1
            await harness.settle()
            if move != "end" and move.startswith("place"):
                placed += 1
                continue
            break
        turns += 1
        assert placed >= 1
        assert len(boards(harness, thread)) == before + 1, f"turn {turns}: one card for {placed + 1} moves"
        latest = boards(harness, thread)[-1]
        assert f"move {moves}" in card_text(latest) and latest.png_attachments(), card_text(latest)
    messages = len(harness.messages(thread))
    print(f"\nPyramido solo: {messages} messages in the thread after {turns} turns of {moves} moves "
          f"({messages / turns:.2f} per turn)")
    assert (await harness.bot.services.store.get_message(game_id, "board")).version == moves


async def test_an_out_of_date_click_answers_with_a_card_whose_buttons_work(emulator: Any, harness: Harness) -> None:
    """Old cards and choosers keep their buttons (no edits: each would cost one of the channel's 5 edits in
    5 s); a click there that names an older position is answered with the current board, privately, and
    the newest card's buttons on it, so the next click works as on the newest card."""
    ana = await harness.add_user("ana")
    await harness.start_bot()
    await harness.slash(ana, emulator.general, "pyramid new", game="pyramido", mode="solo", size=4)
    game_id = await latest_game_id(harness)
    thread = harness.threads(emulator.general)[0]
    old_chooser = await harness.click(ana, boards(harness, thread)[-1], label="▶ Your move")
    session = await session_of(harness, game_id)
    place = next(m for m in session.game.legal_moves(session.state) if m.startswith("place"))
    assert "✅" in (await harness.slash(ana, thread, "pyramid play", move=place, game=game_id)).text
    step = next(b for b in old_chooser.message.buttons() if not b.get("disabled") and "Back" not in
                (b.get("label") or ""))
    stale = await harness.click(ana, old_chooser.message, custom_id=step["custom_id"])
    copy = stale.last
    assert "out of date" in card_text(copy) and copy.flags & 64, card_text(copy)
    labels = [b.get("label") for b in copy.buttons() if not b.get("disabled")]
    assert "▶ Your move" in labels, labels
    chooser = await harness.click(ana, copy, label="▶ Your move")
    assert chooser.ephemeral and "· move 1" in chooser.text, chooser.text
