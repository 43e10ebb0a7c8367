"""Forged and stale clicks show a game only to whom the visibility rule lets see it (issue #37).

A client may send any custom id from any place it is in. A click that names a game is
answered only after :mod:`bot.core.visibility` has let its clicker see that game, stale
clicks included (they used to be answered with the current board before any check):

- a rival entrant of a challenge never sees another entrant's game (its board tells the
  face-down stock), from the challenge's channel or by DM;
- someone else's daily game is nobody's but its player's;
- a group-DM game is seen from its group DM, not by a stranger from elsewhere;
- a public channel's game stays public to its server's members (🔄 in its thread, a stale
  ▶ Your move from its channel, ``/pyramid status game:N``).
"""

from __future__ import annotations

from typing import Any

from emulator.harness import Harness, InteractionResult
from emulator.messages import create_message
from emulator.model import Channel, Message, User
from tests.bot.e2e.driver import (
    HEADER,
    card_text,
    challenge_of,
    flaming_game_of,
    group_dm_game,
    session_of,
    start_flaming,
)
from tests.bot.e2e.test_daily import daily_games
from tests.bot.e2e.test_daily_privacy import first_move

#: Every click that names a game and could answer with something of it: (action, argument).
GAME_CLICKS = (("turn", ""), ("pick", "play"), ("page", "1|"), ("move", "play"), ("hand", ""), ("board", ""),
               ("replay", ""), ("pvok", "play"), ("pvbk", "play"))
#: A version no board has had (the click is stale), and the version of a game's first board.
STALE, FIRST = 999, 0


def forge(harness: Harness, where: Channel, custom_ids: list[str], select: str | None = None) -> Message:
    """A message in ``where`` carrying buttons with ``custom_ids`` (and a select with id ``select``),
    as a modified client could click them: Discord takes any custom id a client sends."""
    rows: list[dict[str, Any]] = [
        {"type": 1, "components": [{"type": 2, "style": 1, "label": f"b{n}", "custom_id": cid}
                                   for n, cid in enumerate(custom_ids[i:i + 5], start=i)]}
        for i in range(0, len(custom_ids), 5)
    ]
    if select is not None:
        rows.append({"type": 1, "components": [{"type": 3, "custom_id": select,
                                                "options": [{"label": "x", "value": "x"}]}]})
    emu = harness.emu
    return create_message(emu, where, emu.world.bot, {"content": "forged", "components": rows}, [])


def shows_nothing(answer: InteractionResult, game_id: int, what: str) -> str:
    """The answer is a private refusal with no picture, no file and no board of the game; its text."""
    assert answer.answered, what
    for message in answer.messages:
        assert message.ephemeral, (what, message)
        assert not message.attachments and not message.png_attachments(), (what, message.text)
        assert not HEADER.search(card_text(message)), (what, card_text(message))
        assert f"#{game_id}" not in card_text(message) or "❌" in card_text(message), (what, card_text(message))
    said = answer.last.text  # the answer itself, or the follow-up of a click acknowledged by a silent update
    assert "❌" in said, (what, said)
    return said


def opens_a_chooser(answer: Any) -> bool:
    """The answer is the private chooser: choices as buttons, or in a select menu."""
    return answer.message is not None and bool(answer.message.buttons() or answer.message.selects())


async def click_everything(harness: Harness, user: User, where: Channel, game_id: int,
                           versions: tuple[int, ...] = (STALE, FIRST)) -> list[str]:
    """``user`` clicks, in ``where``, every game click naming ``game_id`` (stale and not), and the
    select; each must show nothing. Returns the refusals."""
    said: list[str] = []
    for version in versions:
        ids = [f"pb:{action}:{game_id}:{version}" + (f":{arg}" if arg else "") for action, arg in GAME_CLICKS]
        select = f"pb:sel:{game_id}:{version}:"
        message = forge(harness, where, ids, select)
        for cid in ids:
            answer = await harness.click(user, message, custom_id=cid)
            said.append(shows_nothing(answer, game_id, f"{user.username} {cid} in {where.name}"))
        answer = await harness.select(user, message, select, ["x"])
        said.append(shows_nothing(answer, game_id, f"{user.username} {select} in {where.name}"))
    return said


async def test_a_rival_entrant_never_sees_another_entrants_challenge_game(emulator: Any, harness: Harness) -> None:
    (ana, ben), post = await challenge_of(emulator, harness, "ana", "ben")
    for user in (ana, ben):
        await harness.click(user, post, label="▶ Play this deal")
    store = harness.bot.services.store
    games = {(await store.seats(g.id))[0].user_id: g for g in await store.all_games() if g.challenge_id}
    theirs = games[ana.id]
    thread = next(t for t in harness.threads(emulator.general) if t.id == theirs.thread_id)
    move = await first_move(harness, theirs.id)
    assert "✅" in (await harness.slash(ana, thread, "pyramid play", move=move)).text
    before = (await session_of(harness, theirs.id)).version

    # Ben, in the challenge's channel (the game's own channel) and by DM, clicks everything naming ana's game.
    for where in (emulator.general, harness.dm_channel(ben)):
        said = await click_everything(harness, ben, where, theirs.id)
        assert any("shared deal" in s or "no game" in s for s in said), said
    assert (await session_of(harness, theirs.id)).version == before

    # Ana herself still gets her board from a stale click in her thread, and a stale ▶ Your move
    # during her own turn opens her chooser, as the newest card's would.
    mine = forge(harness, thread, [f"pb:board:{theirs.id}:0", f"pb:turn:{theirs.id}:{STALE}"])
    answer = await harness.click(ana, mine, custom_id=f"pb:board:{theirs.id}:0")
    assert answer.attachments or any(m.png_attachments() for m in answer.messages), answer.text
    answer = await harness.click(ana, mine, custom_id=f"pb:turn:{theirs.id}:{STALE}")
    assert "❌" not in answer.text and opens_a_chooser(answer), answer.text
    harness.assert_no_bot_errors()


async def test_someone_elses_daily_game_is_not_shown_by_a_forged_click_from_a_dm(
    emulator: Any, harness: Harness
) -> None:
    ana = await harness.add_user("ana")
    ben = await harness.add_user("ben")
    await harness.start_bot()
    assert "waiting in your DMs" in (await harness.slash(ana, emulator.general, "pyramid daily")).text
    (game,) = (await daily_games(harness))[ana.id]
    move = await first_move(harness, game.id)
    assert "✅" in (await harness.slash(ana, harness.dm_channel(ana), "pyramid play", move=move, game=game.id)).text

    for where in (harness.dm_channel(ben), emulator.general):
        await click_everything(harness, ben, where, game.id)
    # Its player's stale 🔄 in her DM still shows her the current board, and a stale ▶ Your move her chooser.
    mine = forge(harness, harness.dm_channel(ana), [f"pb:board:{game.id}:{STALE}", f"pb:turn:{game.id}:{STALE}"])
    answer = await harness.click(ana, mine, custom_id=f"pb:board:{game.id}:{STALE}")
    assert answer.attachments or any(m.png_attachments() for m in answer.messages), answer.text
    answer = await harness.click(ana, mine, custom_id=f"pb:turn:{game.id}:{STALE}")
    assert "❌" not in answer.text and opens_a_chooser(answer), answer.text
    harness.assert_no_bot_errors()


async def test_a_group_dm_game_is_not_shown_to_a_stranger_elsewhere(emulator: Any, harness: Harness) -> None:
    table = await group_dm_game(harness, "flaming-pyramids", turn_limit=3)
    cal = harness.world.add_user("cal")
    harness.install_app(cal)
    elsewhere = harness.add_group_dm(cal, harness.world.add_user("dee"))
    for where in (harness.dm_channel(cal), elsewhere):
        await click_everything(harness, cal, where, table.game_id)
        status = await harness.slash(cal, where, "pyramid status", game=table.game_id)
        shows_nothing(status, table.game_id, f"status in {where.name}")
    harness.assert_no_bot_errors()


async def test_a_public_game_stays_public_to_its_servers_members(emulator: Any, harness: Harness) -> None:
    (_alice, _bob), thread, game_id = await flaming_game_of(emulator, harness, "alice", "bob")
    carol = await harness.add_user("carol")  # a member watching, no player
    board = [m for m in harness.messages(thread) if m.png_attachments()][-1]
    assert (await harness.click(carol, board, label="🔄 Latest board")).attachments
    stale = forge(harness, emulator.general, [f"pb:turn:{game_id}:{STALE}"])
    answer = await harness.click(carol, stale, custom_id=f"pb:turn:{game_id}:{STALE}")
    assert answer.attachments or any(m.png_attachments() for m in answer.messages), answer.text
    assert (await harness.slash(carol, emulator.general, "pyramid status", game=game_id)).attachments
    # By DM, a member who does not play sees nothing of it (a DM reaches only one's own games).
    await click_everything(harness, carol, harness.dm_channel(carol), game_id, versions=(STALE,))
    harness.assert_no_bot_errors()


async def test_a_game_in_a_channel_a_member_cannot_see_is_not_shown_to_them(emulator: Any, harness: Harness) -> None:
    """A public channel's board is its server's to watch; a game in a channel hidden from a member (a staff
    channel) is not theirs, whatever game number or custom id they send from a channel they do see."""
    member = (1 << 40) - 1 - (1 << 3) - (1 << 34)  # no Administrator, no Manage Threads
    alice, bob = await harness.add_user("alice"), await harness.add_user("bob")
    carol = await harness.add_user("carol", permissions=member)
    await harness.start_bot()
    staff = await harness.add_channel("staff")
    await harness.set_overwrite(staff, harness.guild.everyone, deny=["view_channel"])
    for user in (alice, bob):
        await harness.set_overwrite(staff, user, allow=["view_channel"])
    await harness.set_bot_permission(staff, "view_channel", True)
    _thread, game_id = await start_flaming(emulator, harness, [alice, bob], channel=staff)

    for command in ("pyramid status", "pyramid history"):
        shows_nothing(await harness.slash(carol, emulator.general, command, game=game_id), game_id, command)
    await click_everything(harness, carol, emulator.general, game_id, versions=(STALE,))
    # Its players, and a member who sees the channel, still see it from elsewhere in the server.
    assert (await harness.slash(bob, emulator.general, "pyramid status", game=game_id)).attachments
    harness.assert_no_bot_errors()
