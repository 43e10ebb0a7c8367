"""Alt text through the emulator (issue #19): games of every kind played out, and every
picture the bot posted read back. A board in a channel is described from the public
view of its move, exactly, and names no tile or domino hidden at that move (any
seat's hand, a draw pile, the boneyard); a hand's DM names its owner's hand; the
replay's animation and step pictures are described too; ``/pyramid status text:true``
answers with the same words and no picture. (That every picture of every e2e test has
alt text at all is checked by this directory's conftest.)"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

import discord

from bot.cards.boards import board_labels, ended_view, player_view, public_view
from emulator.harness import Harness
from emulator.model import Attachment, Channel, Message, User
from render.describe import MAX_DESCRIPTION, describe_board, describe_hand, describe_replay
from tests.bot.e2e.driver import HEADER, bot_of, flaming_game_of, latest_game_id, play_out, session_of

#: A DM'd hand: "… · game #3 · your hand after move 5".
HAND = re.compile(r"game #(\d+) · your hand after move (\d+)")
#: Flaming Pyramids tile codes (FP-1) and dominoes (PY-1) as they appear in words.
TILE = re.compile(r"\b(?:[RGBY]\d{1,3}|M200)\b")
DOMINO = re.compile(r"\b(\d)-(\d)\b")


def pictures(harness: Harness) -> list[tuple[Message, Attachment]]:
    emulator = harness.emulator
    return [(m, a) for m, a in emulator.world.uploads if m.author.id == emulator.bot.id and a.is_image]


def hidden_codes(kind: str, position: dict[str, Any]) -> set[str]:
    """What no seat but its owner may see at a position: every hand, every draw pile
    and the boneyard (the rules files' position JSON)."""
    hidden: set[str] = set()
    lists: Iterable[Any] = [*(position.get("hands") or []), *(position.get("piles") or [])]
    boneyard = position.get("boneyard")
    if isinstance(boneyard, list):
        lists = [*lists, boneyard]
    for pieces in lists:
        if isinstance(pieces, list):
            hidden.update(_norm(kind, str(p)) for p in pieces)
    return hidden


def named_codes(kind: str, words: str) -> set[str]:
    if kind == "pyrinoes":
        return {_norm(kind, f"{a}-{b}") for a, b in DOMINO.findall(words)}
    return set(TILE.findall(words))


def _norm(kind: str, code: str) -> str:
    """A domino is the same either way round (PY-1)."""
    if kind == "pyrinoes" and re.fullmatch(r"\d-\d", code):
        return "-".join(sorted(code.split("-")))
    return code


async def check_pictures(harness: Harness, thread: Channel, game_id: int) -> int:
    """Every picture the bot posted for ``game_id``: the channel's boards and replay are
    the public view of their move in words (with no hidden code in them), each DM'd hand
    is its owner's. Returns how many pictures were checked."""
    final = await session_of(harness, game_id)
    kind, art = final.record.kind, final.presenter.art
    sessions = bot_of(harness).services.sessions
    checked = 0
    for message, picture in pictures(harness):
        words = picture.description or ""
        assert words.strip() and len(words) <= MAX_DESCRIPTION, picture.filename
        board, hand = HEADER.search(message.text), HAND.search(message.text)
        if message.channel_id == thread.id and not message.ephemeral:
            if board is not None and int(board.group(1)) == game_id and picture.filename == "board.png":
                at = await sessions.load_at(game_id, int(board.group(2)))
                current = any(a.id == picture.id for a in message.attachments)
                if (current and at.version == final.version and not final.over
                        and final.record.status == "finished"):
                    # the final card of an ending without a move (a resignation), drawn again with its result
                    # over the last board (whose first picture, replaced, is checked as it was)
                    assert words == describe_board(ended_view(at), art=art, labels={})
                else:
                    view = public_view(at)
                    assert words == describe_board(view, art=art, labels=board_labels(at, view))
            elif picture.filename == f"game-{game_id}-replay.gif":
                moves = len(await bot_of(harness).services.store.moves(game_id))
                at = final
                assert words == describe_replay(public_view(final), moves=moves, art=art)
            else:
                continue
            leaked = named_codes(kind, words) & hidden_codes(kind, at.game.to_position(at.state))
            assert not leaked, f"the channel's alt text names hidden {sorted(leaked)}: {words}"
            checked += 1
        elif (hand is not None and int(hand.group(1)) == game_id and picture.filename == "hand.png"
              and message.guild_id is None):
            at = await sessions.load_at(game_id, int(hand.group(2)))
            owner = harness.emulator.world.channels[message.channel_id].recipient_ids[0]
            seat = at.seat_of(owner)
            assert seat is not None
            assert words == describe_hand(player_view(at, seat.seat), art=art)
            checked += 1
    return checked


async def against_ai(harness: Harness, ana: User, kind: str, level: str, *, prefer: tuple[str, ...] = (),
                     **options: Any) -> tuple[Channel, int]:
    emulator = harness.emulator
    res = await harness.slash(ana, emulator.general, "pyramid new", game=kind, **options)
    assert res.message is not None
    await harness.select(ana, res.message, None, [level])
    await harness.click(ana, res.message, label="Start")
    game_id, thread = await latest_game_id(harness), harness.threads(emulator.general)[-1]
    await play_out(harness, game_id, {0: ana}, thread, prefer=prefer)
    return thread, game_id


async def test_flaming_pyramids_pictures_name_no_hidden_tile(emulator: Any, harness: Harness) -> None:
    ana = await harness.add_user("ana")
    await harness.start_bot()
    thread, game_id = await against_ai(harness, ana, "flaming-pyramids", "easy", turn_limit=8)
    assert (await session_of(harness, game_id)).record.status == "finished"
    # the replay's step pictures: the public board of their move, in words
    step = await harness.slash(ana, thread, "pyramid replay", move=2)
    shown = step.message.png_attachments()[0] if step.message is not None else None
    assert shown is not None
    at = await bot_of(harness).services.sessions.load_at(game_id, 2)
    assert shown.description == describe_board(public_view(at), art=at.presenter.art)
    assert await check_pictures(harness, thread, game_id) >= 5
    gif = [a for _, a in pictures(harness) if a.filename.endswith(".gif")]
    assert len(gif) == 1 and gif[0].description and gif[0].description.startswith("Animated replay")


async def test_pyrinoes_pictures_name_no_hidden_domino(emulator: Any, harness: Harness) -> None:
    ana = await harness.add_user("ana")
    await harness.start_bot()
    thread, game_id = await against_ai(harness, ana, "pyrinoes", "normal", target=10)
    assert await check_pictures(harness, thread, game_id) >= 3


async def test_pyramido_and_continuous_pyramid_pictures_are_described(emulator: Any, harness: Harness) -> None:
    ana = await harness.add_user("ana")
    await harness.start_bot()
    thread, game_id = await against_ai(harness, ana, "pyramido", "easy", mode="competitive",
                                       prefer=("take", "build", "reserve", "pass"))
    assert await check_pictures(harness, thread, game_id) >= 3

    await harness.slash(ana, emulator.general, "pyramid new", game="continuous-pyramid", undo=False)
    game_id, thread = await latest_game_id(harness), harness.threads(emulator.general)[-1]
    for _ in range(6):
        session = await session_of(harness, game_id)
        played = await harness.slash(ana, thread, "pyramid play", move=session.game.legal_moves(session.state)[0],
                                     game=game_id)
        assert "✅" in played.text, played.text
    await harness.slash(ana, thread, "pyramid hand", game=game_id)
    await harness.slash(ana, thread, "pyramid resign", game=game_id)
    assert await check_pictures(harness, thread, game_id) >= 6


async def test_status_in_words(emulator: Any, harness: Harness) -> None:
    users, thread, game_id = await flaming_game_of(emulator, harness, "ana", "ben")
    session = await session_of(harness, game_id)
    seat = session.to_act
    assert seat is not None
    move = session.game.legal_moves(session.state)[0]
    assert "✅" in (await harness.slash(users[seat], thread, "pyramid play", move=move, game=game_id)).text

    res = await harness.slash(users[0], thread, "pyramid status", text=True)
    assert res.ephemeral and not res.attachments
    session = await session_of(harness, game_id)
    view = public_view(session)
    note = f"Game #{game_id}:"
    words = describe_board(view, art=session.presenter.art, labels=board_labels(session, view),
                           limit=2000 - len(note) - 1)
    assert res.text == note + "\n" + discord.utils.escape_markdown(words)
    assert len(res.text) <= 2000 and session.seats[session.to_act or 0].plain_name in res.text
    hidden = hidden_codes("flaming-pyramids", session.game.to_position(session.state))
    assert not named_codes("flaming-pyramids", res.text) & hidden

    # without text:, the picture, described the same way (as far as a description goes)
    picture = await harness.slash(users[1], thread, "pyramid status")
    assert picture.attachments and picture.attachments[0].description == describe_board(
        view, art=session.presenter.art, labels=board_labels(session, view))
    # a hand: its owner's tiles, privately
    hand = await harness.slash(users[1], thread, "pyramid hand")
    mine: dict[str, Any] = player_view(session, 1)
    assert hand.ephemeral and hand.attachments[0].description == describe_hand(mine, art=session.presenter.art)
    assert all(tile in hand.attachments[0].description for tile in mine["hands"][1])
    assert await check_pictures(harness, thread, game_id) >= 2
