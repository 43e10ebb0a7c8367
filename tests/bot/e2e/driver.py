"""Playing games through the harness the way people do: slash commands and clicks."""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from bot.ratings.outcome import own_moves
from emulator.harness import Harness
from emulator.model import Channel, Message, User

#: The first line of a board: its game and the move it shows.
HEADER = re.compile(r"game #(\d+) · move (\d+)")


def bot_of(harness: Harness) -> Any:
    return harness.bot


async def session_of(harness: Harness, game_id: int) -> Any:
    return await harness.bot.services.sessions.load(game_id)


async def latest_game_id(harness: Harness) -> int:
    games = await harness.bot.services.store.all_games()
    return games[-1].id


async def plays_keeping_it_running(harness: Harness, game_id: int, count: int, exact: bool = True) -> list[str]:
    """``count`` tile plays in a row, none of which ends the game. The deal is the day's, under
    a secret each test's database makes anew, so it is a different deal every run: a greedy
    first choice can leave only plays that end it (CI met one), so this searches ahead."""
    session = await session_of(harness, game_id)
    game = session.game

    def search(state: Any, left: int) -> list[str] | None:
        if left == 0:
            return []
        for move in (m for m in game.legal_moves(state) if m.startswith("play")):
            after = game.play(state, 0, move)[0]
            if game.result(after) is not None:
                continue
            rest = search(after, left - 1)
            if rest is not None:
                return [str(move), *rest]
        return None

    found = search(session.state, count)
    if found is None and count > 1 and not exact:
        return await plays_keeping_it_running(harness, game_id, count - 1, exact=False)
    assert found is not None, f"the deal has no {count} plays in a row that keep the game running"
    return found


async def play_out(harness: Harness, game_id: int, users: dict[int, Any], channel: Any, *,
                   max_moves: int = 3000, give_up_when_stuck: bool = False,
                   prefer: tuple[str, ...] = ()) -> Any:
    """Finish a game by typing moves with /pyramid play, taking the first
    autocomplete suggestion each time (AI seats move by themselves). With
    ``give_up_when_stuck``, a stuck solitaire is resigned rather than undone;
    ``prefer`` orders moves by their verb (earlier verbs first)."""
    for _ in range(max_moves):
        session = await session_of(harness, game_id)
        if session.over or session.record.status != "active":
            return session
        seat = session.to_act
        user = users.get(seat)
        assert user is not None, f"seat {seat} has no human and no AI moved"
        choices = await harness.autocomplete(user, channel, "pyramid play", "move", "", game=game_id)
        assert choices, "autocomplete offered no move to the player to act"
        values = [c["value"] for c in choices]
        if prefer:
            rank = {verb: i for i, verb in enumerate(prefer)}
            values.sort(key=lambda v: rank.get(v.split()[0], len(rank)))
        value = values[0]
        if give_up_when_stuck and "resign" in values:
            value = "resign"
        res = await harness.slash(user, channel, "pyramid play", move=value, game=game_id)
        assert "✅" in res.text, res.text
    raise AssertionError("the game did not finish")


async def play_each(harness: Harness, game_id: int, users: dict[int, Any], channel: Any, moves: int) -> None:
    """Type moves (the first autocomplete suggestion) until every seat of ``users`` made
    ``moves`` moves of its own (AI seats move by themselves): enough play for a rated
    game to rate anyone against them (``bot.ratings.rules.fewest_moves``)."""
    for _ in range(50 * max(1, moves) * max(1, len(users))):
        session = await session_of(harness, game_id)
        assert not session.over and session.record.status == "active", "the game ended before enough play"
        made = own_moves(session.seats, await harness.bot.services.store.moves(game_id))
        if all(made[seat] >= moves for seat in users):
            return
        user = users.get(session.to_act)
        if user is None:  # an AI's turn
            await harness.settle()
            continue
        choices = await harness.autocomplete(user, channel, "pyramid play", "move", "", game=game_id)
        res = await harness.slash(user, channel, "pyramid play", move=choices[0]["value"], game=game_id)
        assert "✅" in res.text, res.text
        await harness.settle()
    raise AssertionError("the seats did not make their moves")


async def start_flaming(
    emulator: Any, harness: Harness, players: list[User], *, ai: str | None = None, channel: Channel | None = None,
    **options: Any,
) -> tuple[Channel, int]:
    """A Flaming Pyramids game of ``players`` (and an AI), started; returns its thread and number."""
    where = channel or emulator.general
    res = await harness.slash(players[0], where, "pyramid new", game="flaming-pyramids", **options)
    for user in players[1:]:
        await harness.click(user, res.message, label="Join")
    if ai is not None:
        await harness.select(players[0], res.message, None, [ai])
    await harness.click(players[0], res.message, label="Start")
    return harness.threads(where)[-1], await latest_game_id(harness)


async def flaming_game_of(
    emulator: Any, harness: Harness, *names: str, closed_dms: Collection[str] = (), **options: Any
) -> tuple[list[User], Channel, int]:
    """``names`` on the server (those in ``closed_dms`` accept no DMs), the bot running,
    and their Flaming Pyramids game started by the first of them with ``options``;
    returns the players, the game's thread and its number."""
    users = [await harness.add_user(name, dms_open=name not in closed_dms) for name in names]
    await harness.start_bot()
    thread, game_id = await start_flaming(emulator, harness, users, **options)
    return users, thread, game_id


async def challenge_of(emulator: Any, harness: Harness, *names: str) -> tuple[list[User], Message]:
    """``names`` on the server, the bot running, and a Continuous Pyramid challenge
    opened in the channel by the first of them; returns the users and the challenge's
    post (the one with ▶ Play this deal)."""
    users = [await harness.add_user(name) for name in names]
    await harness.start_bot()
    opened = await harness.slash(users[0], emulator.general, "pyramid new", game="continuous-pyramid", challenge=True)
    assert opened.message is not None
    return users, opened.message


def card_text(message: Message) -> str:
    """What a message says: a card's text displays (Components V2), else its content;
    the one place tests read a board's or a hand's words."""
    return "\n".join(message.text_displays()) or message.content


def boards(harness: Harness, channel: Channel) -> list[Message]:
    """The board pictures posted in ``channel``, oldest first."""
    return [m for m in harness.messages(channel) if m.png_attachments() and HEADER.search(card_text(m))]


def versions(harness: Harness, channel: Channel) -> list[int]:
    """The move number of each board in ``channel``, oldest first."""
    return [int(m.group(2)) for b in boards(harness, channel) if (m := HEADER.search(card_text(b)))]


@dataclass(frozen=True)
class GroupDmGame:
    """A two-player game started in a group DM where both players have user-installed the app and
    the bot is not present (#27, play anywhere): the lobby message became the game's card."""

    ana: User
    ben: User
    channel: Channel
    card: Message
    game_id: int


async def group_dm_game(harness: Harness, game: str, *, ben_installs: bool = True, ai: str | None = None,
                        **options: Any) -> GroupDmGame:
    """Ana opens ``game`` in a group DM with Ben and starts it: Ben joins, or with ``ai`` an AI of
    that level takes the second seat. Ana has user-installed the app; Ben too unless ``ben_installs``
    is False."""
    world = harness.world
    ana, ben = world.add_user("ana"), world.add_user("ben")
    harness.install_app(ana)
    if ben_installs:
        harness.install_app(ben)
    await harness.start_bot()
    gdm = harness.add_group_dm(ana, ben)
    lobby = (await harness.slash(ana, gdm, "pyramid new", game=game, **options)).message
    assert lobby is not None
    if ai is None:
        await harness.click(ben, lobby, label="Join")
    else:
        await harness.select(ana, lobby, None, [ai])
    await harness.click(ana, lobby, label="Start")
    return GroupDmGame(ana, ben, gdm, lobby, await latest_game_id(harness))
