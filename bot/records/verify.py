"""``pyramid-bot verify RECORD``: re-play a game record from scratch and check it.

Nothing in the record is taken on trust. The deal is made again by the engine from
the game's kind, options, players and seed; the seal is hashed again from the seed
and salt; each move must be legal, in its turn, for the seat that made it; each
move's story must be what the game narrates for it; and the moves must lead to the
recorded result (or, for a game someone left, the result their leaving gives). The
first thing that does not hold is named in one sentence (:class:`RecordProblem`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.records.build import story
from bot.records.fairness import matches
from bot.records.format import Record, RecordProblem, read_record, read_record_file
from engine.core import BadPosition, EngineError, Event, Game, Result, get_game

#: Finds a game's rule book by its kind (the engine's registry, or a test's own).
Games = Callable[[str], Game[Any]]


@dataclass(frozen=True)
class Position:
    """The game after ``number`` moves, and the events of the move that led there."""

    number: int
    state: Any
    events: list[Event]


@dataclass(frozen=True)
class Verdict:
    record: Record
    #: Whether the deal was sealed (games dealt before seals were added were not).
    sealed: bool
    summary: str


def rule_book(record: Record, games: Games = get_game) -> Game[Any]:
    try:
        return games(record.game)
    except EngineError as exc:
        raise RecordProblem(f"The record is of a game this pyramid-bot does not know: {record.game!r}.") from exc


def seed_of(record: Record) -> int:
    """The seed, or why the deal cannot be made again without it."""
    if record.seed is None:
        why = (f"it is a deal of challenge #{record.challenge} that others may still be playing"
               if record.challenge is not None else
               "the game is still running" if record.status == "active" else "it was left out")
        raise RecordProblem(f"Game #{record.number}'s record has no seed ({why}), so its deal stays sealed and "
                            "cannot be made again: nothing in it can be checked until the seed is revealed.")
    return record.seed


def positions(record: Record, games: Games = get_game) -> Iterator[Position]:
    """Every position of the game, from the deal (0) to after its last move, made by
    the engine from scratch. Raises :class:`RecordProblem` at the first move that is
    out of order or not legal for its seat."""
    game = rule_book(record, games)
    seats = [p.seat for p in record.players]
    if seats != list(range(len(seats))):
        raise RecordProblem(f"The players' seats are {seats}; a record lists seats 0, 1, 2 … in order.")
    try:
        state = game.setup(len(record.players), record.options, seed_of(record))
    except (EngineError, ValueError) as exc:
        raise RecordProblem(f"The deal cannot be made for {len(seats)} players with these options: {exc}") from exc
    yield Position(0, state, [])
    for number, move in enumerate(record.moves, start=1):
        if move.seq != number:
            raise RecordProblem(f"Move {number} is numbered {move.seq}: moves are numbered 1, 2, 3 … in order.")
        try:
            state, events = game.play(state, move.seat, move.move)
        except (EngineError, ValueError) as exc:
            raise RecordProblem(f"Move {number} (seat {move.seat}, `{move.move}`) is not legal there: {exc}") \
                from exc
        yield Position(number, state, events)


def check(record: Record, games: Games = get_game) -> Verdict:
    """Check everything (see the module's docstring); the verdict's summary is one
    paragraph. Raises :class:`RecordProblem` with the first problem."""
    game = rule_book(record, games)
    seed = seed_of(record)
    sealed = _check_seal(record, seed)
    names = [p.name for p in record.players]
    last: Position | None = None
    for position in positions(record, games):
        if position.number:
            move = record.moves[position.number - 1]
            told = story(position.events, names)
            if told != move.story:
                raise RecordProblem(f"Move {position.number}'s story does not match the move: the game narrates "
                                    f"{_quote(told)}, the record says {_quote(move.story)}.")
        last = position
    assert last is not None  # positions() always yields the deal
    _check_leavers(record, names)
    ending = _check_result(record, game, last.state, names)
    return Verdict(record, sealed, _summary(record, game, seed, sealed, ending, names))


def verify_text(text: str | bytes, games: Games = get_game) -> Verdict:
    return check(read_record(text), games)


def verify_file(path: Path, games: Games = get_game) -> Verdict:
    return check(read_record_file(path), games)


# --- the parts of the check ------------------------------------------------------
def _check_seal(record: Record, seed: int) -> bool:
    if record.commitment is None and record.salt is None:
        return False  # dealt before deals were sealed: there is nothing to check, and nothing is claimed
    if record.commitment is None:
        raise RecordProblem("The record has a salt but no commitment: the seal posted at the start is missing.")
    if record.salt is None:
        raise RecordProblem("The record has a commitment but no salt, so the seal cannot be checked.")
    if not matches(record.commitment, record.game, seed, record.salt):
        raise RecordProblem(f"The commitment does not match the seed and salt: {record.commitment} is not "
                            "SHA-256 of this game's kind, seed and salt, so one of them was changed.")
    return True


def _check_result(record: Record, game: Game[Any], state: Any, names: Sequence[str]) -> str:
    """How the game ended, for the summary; raises when the record says otherwise."""
    over = game.waiting_for(state) is None
    if record.status == "finished" and record.result is None:
        raise RecordProblem("The record says the game is finished but gives no result.")
    if record.status == "active" and record.result is not None:
        raise RecordProblem("The record says the game is still running but gives a result.")
    recorded = _result(record.result) if record.result is not None else None
    if over:
        played = game.result(state)
        assert played is not None  # the engine's invariant: nobody to act ⇔ a result
        if recorded is None:
            raise RecordProblem(f"After the last move the game is over ({_describe(played, names)}), "
                                "but the record gives no result.")
        if recorded.to_json() != played.to_json():
            raise RecordProblem(f"The result does not match the moves: they give {_describe(played, names)}, "
                                f"the record says {_describe(recorded, names)}.")
        return f"they end the game with the recorded result ({_describe(played, names)})"
    if recorded is None:
        return "the game is not over after them"
    if not recorded.resigned:
        raise RecordProblem(f"The record gives a result ({_describe(recorded, names)}), but after the last move "
                            "the game is not over and nobody left it.")
    seat = recorded.resigned[0]
    if seat >= len(record.players) or not record.players[seat].resigned:
        raise RecordProblem(f"The result says seat {seat} left the game, but the players do not say so.")
    _check_ending_leaver(record, seat, names)
    left = game.forfeit(state, seat)
    if _without_summary(left) != _without_summary(recorded):
        # The summary is the bot's own sentence for a resignation ("… resigned."), so only it may differ.
        raise RecordProblem(f"The result does not match: {names[seat]} leaving after the last move gives "
                            f"{_describe(left, names)}, the record says {_describe(recorded, names)}.")
    return f"then {names[seat]} left the game, which gives the recorded result ({_describe(left, names)})"


def _check_leavers(record: Record, names: Sequence[str]) -> None:
    """What the players say about leaving fits the bot: only people leave, after a
    move the game had, and a seat nobody plays on makes no move after its person left."""
    count = len(record.moves)
    for player in record.players:
        if player.ai is not None and (player.resigned or player.left is not None):
            raise RecordProblem(f"{names[player.seat]} is an AI seat, but the record says it left the game: "
                                "only people leave games.")
        if player.left_after is None:
            continue
        if player.left_after > count:
            raise RecordProblem(f"{names[player.seat]} left after move {player.left_after}, but the game has "
                                f"only {count} moves.")
        late = [m for m in record.moves if m.seat == player.seat and m.seq > player.left_after]
        if late and player.then_ai is None:
            raise RecordProblem(f"{names[player.seat]} left after move {player.left_after} and nobody played "
                                f"their seat on, yet the seat made move {late[0].seq}.")
        person = [m for m in late if not m.ai]
        if person:
            raise RecordProblem(f"{names[player.seat]} left after move {player.left_after}, yet move "
                                f"{person[0].seq} of their seat is not marked as the AI's.")


def _check_ending_leaver(record: Record, seat: int, names: Sequence[str]) -> None:
    """A game ends when someone leaves only as the bot ends one (``bot.resignations.resignations``):
    a solo or two-player game, left by its person after the last move, with nobody
    playing the seat on. Bigger games go on with an AI in the seat."""
    players = len(record.players)
    if players > 2:
        raise RecordProblem(f"The result says the game ended when {names[seat]} left it, but the bot never ends "
                            f"a game of {players} players when one of them leaves: an AI plays their seat on, "
                            "and the game ends by its rules.")
    leaver = record.players[seat]
    if leaver.ai is not None:
        raise RecordProblem(f"The result says {names[seat]} left the game, but that seat is an AI's: only people "
                            "leave games.")
    if leaver.then_ai is not None:
        raise RecordProblem(f"The result says the game ended when {names[seat]} left it, but the record says an AI "
                            "played their seat on.")
    if leaver.left_after is not None and leaver.left_after != len(record.moves):
        raise RecordProblem(f"The result says the game ended when {names[seat]} left it, after move "
                            f"{leaver.left_after}, but the record goes on to move {len(record.moves)}.")


def _result(data: dict[str, Any]) -> Result:
    try:
        return Result.from_json(data)
    except BadPosition as exc:
        raise RecordProblem(f"The record's result cannot be read: {exc}") from exc


def _without_summary(result: Result) -> dict[str, Any]:
    data = result.to_json()
    data.pop("summary", None)
    return data


def _describe(result: Result, names: Sequence[str]) -> str:
    who = [names[s] if s < len(names) else f"seat {s}" for s in result.winners]
    text = f"won by {' and '.join(who)}" if who else "no winner"
    if result.scores:
        text += ", scores " + " · ".join(f"{s:g}" for s in result.scores)
    return text


def _quote(lines: Sequence[str]) -> str:
    text = " / ".join(lines) or "nothing"
    return f"“{text if len(text) <= 300 else text[:297] + '…'}”"


def _summary(record: Record, game: Game[Any], seed: int, sealed: bool, ending: str, names: Sequence[str]) -> str:
    count = len(record.moves)
    if count == 0:
        moves = "it has no moves yet"
    elif count == 1:
        moves = "its one move is legal for the seat that made it and tells the story recorded"
    else:
        moves = f"all {count} moves are legal for the seats that made them and tell the stories recorded"
    text = (f"Game #{record.number} of {game.title} checks out. The deal was made again from seed {seed} for "
            f"{len(names)} player{'s' if len(names) != 1 else ''} ({', '.join(names)}); {moves}; {ending}.")
    if sealed:
        text += (f" The seal {record.commitment} is SHA-256 of the game, the seed and the salt: if it is the one "
                 "the 🔒 line showed at the start of the game's thread, the deal was fixed before the first move.")
    else:
        text += " This game was dealt before deals were sealed, so it has no seal to check."
    return text
