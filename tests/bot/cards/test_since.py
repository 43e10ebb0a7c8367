"""What changed since a player's turn (``bot.cards.since``): the places outlined and
the one-line summary, for every kind of game, from public events only; and the
same read from the store (the story stored with each move, else the log replayed)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from bot.cards.since import SUMMARY_LIMIT, Moved, changed_cells, since_your_turn, summary_line
from bot.core.session_service import SessionService
from engine.core import Event, Game, Rng, get_game
from i18n import Lang, shared_texts
from tests.bot.core.test_sessions import new_game
from tests.fifth_game.engine import GAME as PEBBLE
from tools.playout import Step, steps

NAMES = ["Ana", "Ben", "Cy", "Dee"]


def english() -> Lang:
    return shared_texts().lang("en")


def german() -> Lang:
    return shared_texts().lang("de")


def public(step: Step[Any]) -> Moved:
    return Moved(step.seat, tuple(e for e in step.events if e.visible(None)))


@dataclasses.dataclass
class Turn:
    """A game played until ``seat`` is to act again after others moved: the state
    after its last move, the moves since, and the state now."""

    game: Game[Any]
    seat: int
    before: Any
    made: list[Step[Any]]
    now: Any


def turn_again(game: Game[Any], players: int, options: dict[str, Any] | None, seed: int, skip: int) -> Turn:
    """Play ``skip`` moves at random, then on until the seat to act has moved before
    and others have moved since, changing the board; the moves after its last one are
    "since its turn"."""
    rng = Rng(seed)
    state = game.setup(players, options, seed)
    made: list[Step[Any]] = []
    for step in steps(game, state, rng, 400):
        made.append(step)
        seat = game.to_act(step.state)
        if len(made) < skip or seat is None:
            continue
        mine = [i for i, s in enumerate(made) if s.seat == seat]
        if mine and mine[-1] < len(made) - 1:
            last = mine[-1]
            turn = Turn(game, seat, made[last].state, made[last + 1:], step.state)
            if any(changed_places(turn).values()):
                return turn
    raise AssertionError("the game never came back to a seat that had moved")


#: game, players, options, moves played at least before looking (a short game fewer)
GAMES: dict[str, tuple[Game[Any], int, dict[str, Any] | None, int]] = {
    "flaming-pyramids": (get_game("flaming-pyramids"), 4, None, 9),
    "pyrinoes": (get_game("pyrinoes"), 2, None, 9),
    "pyramido-coop": (get_game("pyramido"), 3, {"mode": "coop"}, 9),
    "pyramido-competitive": (get_game("pyramido"), 3, {"mode": "competitive"}, 9),
    "pebble-pyramid": (PEBBLE, 2, None, 1),
}


def changed_places(turn: Turn) -> dict[int | None, set[str]]:
    """What a spectator sees differ between the boards before and now, by the seat
    whose own board it is on (None: the shared board)."""
    before, now = turn.game.view(turn.before, None), turn.game.view(turn.now, None)
    if "line" in now:  # a line of play grows at its ends
        old, new = list(before["line"]), list(now["line"])
        grown = next(k for k in range(len(new) - len(old) + 1) if new[k:k + len(old)] == old)
        return {None: {f"line:{i}" for i in range(len(new)) if not grown <= i < grown + len(old)}}
    if "pyramids" in now and now.get("mode") == "competitive":
        return {seat: _differ(b, n) for seat, (b, n) in enumerate(zip(before["pyramids"], now["pyramids"],
                                                                        strict=True))}
    if "pyramids" in now:
        return {None: _differ(before["pyramids"][0], now["pyramids"][0])}
    return {None: _differ(before["pyramid"], now["pyramid"])}


def _differ(before: dict[str, str], now: dict[str, str]) -> set[str]:
    return {cell for cell in {*before, *now} if before.get(cell) != now.get(cell)}


@pytest.mark.parametrize("kind", sorted(GAMES))
@pytest.mark.parametrize("seed", [3, 11])
def test_every_place_that_changed_since_the_seats_turn_is_outlined(kind: str, seed: int) -> None:
    game, players, options, skip = GAMES[kind]
    turn = turn_again(game, players, options, seed, skip)
    moves = [public(step) for step in turn.made]
    cells = changed_cells(moves)
    changed = changed_places(turn)
    for owner, places in changed.items():
        outlined = {c.rpartition("@")[0] or c for c in cells if owner is None or c.endswith(f"@{owner}")}
        assert places <= outlined, (owner, places - outlined)
    touched = {c for m in moves for e in m.events for c in e.cells}
    assert {c.rpartition("@")[0] or c for c in cells} <= touched | {c for p in changed.values() for c in p}


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_the_line_names_every_mover_and_what_their_move_did(kind: str) -> None:
    game, players, options, skip = GAMES[kind]
    turn = turn_again(game, players, options, 5, skip)
    moves = [public(step) for step in turn.made]
    line = summary_line(moves, NAMES[:players], english())
    count = len(moves)
    assert line.startswith(f"{count} move{'s' if count != 1 else ''} since your turn: "), line
    assert len(line) <= SUMMARY_LIMIT
    if not line.endswith("…"):
        for moved in moves:
            assert NAMES[moved.seat] in line, (NAMES[moved.seat], line)
    assert NAMES[turn.seat] not in line.split(": ", 1)[1] or any(
        turn.seat in e.players for m in moves for e in m.events), "the reader is named only if a move involved them"
    in_german = summary_line(moves, NAMES[:players], german())
    assert in_german.startswith(f"{count} Z{'ü' if count != 1 else 'u'}g"), in_german
    assert "since your turn" not in in_german


def test_a_collapse_is_told_as_what_the_piece_did() -> None:
    moved = Moved(1, (
        Event("play", "{0} played {tile} to {cell}.", (1,), ("1,0",), ("R40",), args={"tile": "R40", "cell": "1,0"}),
        Event("collapse", "{tile} was overweight: it collapses.", (1,), ("1,0", "0,0", "0,1"), ("R40", "G2", "B4"),
              args={"tile": "R40"}),
        Event("draw", "You drew {tiles}.", (1,), (), ("Y6",), visible_to=1, args={"tiles": "Y6"}),
    ))
    quiet = Moved(2, (Event("play", "{0} played {tile} to {cell}.", (2,), ("0,2",), ("G10",),
                            args={"tile": "G10", "cell": "0,2"}),))
    line = summary_line([moved, quiet], NAMES, english())
    assert line == "2 moves since your turn: Ben's R40 collapsed 2 tiles; Cy played G10 to 0,2."
    assert summary_line([moved], NAMES, german()) == (
        "1 Zug seit deinem letzten Zug: R40 von Ben brachte 2 Steine zum Einsturz.")
    assert changed_cells([moved, quiet]) == ["1,0@1", "0,0@1", "0,1@1", "0,2@2"]


def test_private_events_are_neither_outlined_nor_told() -> None:
    game, players, options, _ = GAMES["flaming-pyramids"]
    turn = turn_again(game, players, options, 7, 4)
    moves = [public(step) for step in turn.made]
    # the same moves with every private event they had, and some more with places
    with_private = [Moved(s.seat, (*s.events, Event("draw", "You drew {tiles}.", (s.seat,), ("5,5",), ("Z999",),
                                                      visible_to=s.seat, args={"tiles": "Z999"})))
                    for s in turn.made]
    assert any(not e.visible(None) for s in turn.made for e in s.events), "the moves drew in secret"
    assert changed_cells(with_private) == changed_cells(moves)
    assert summary_line(with_private, NAMES, english()) == summary_line(moves, NAMES, english())
    assert "Z999" not in summary_line(with_private, NAMES, english())


def test_a_redeal_of_what_nobody_sees_gives_the_same_outline_and_line() -> None:
    """Ana moves; then Ben, Cy and Dee play from the hands they were dealt and draw
    from their face-down piles. Turn those piles over in another order: the draws
    differ, what everyone saw does not."""
    game = get_game("flaming-pyramids")
    state = game.setup(4, None, 19)
    first = game.to_act(state)
    assert first is not None
    state, _ = game.play(state, first, game.legal_moves(state)[0])
    position = game.to_position(state)
    others = dict(position, piles=[list(reversed(pile)) for pile in position["piles"]])
    redealt = game.from_position(others)
    assert game.view(redealt, None) == game.view(state, None), "the same public position"
    runs: list[list[Step[Any]]] = []
    for start in (state, redealt):
        made: list[Step[Any]] = []
        current = start
        for _ in range(3):
            seat = game.to_act(current)
            assert seat is not None and seat != first
            move = game.legal_moves(current)[0]
            current, events = game.play(current, seat, move)
            made.append(Step(seat, move, current, events))
        runs.append(made)
    assert game.to_act(runs[0][-1].state) == first
    secret = [[e.items for s in run for e in s.events if not e.visible(None)] for run in runs]
    assert secret[0] != secret[1], "the draws differ"
    told = [([public(s) for s in run]) for run in runs]
    assert changed_cells(told[0]) == changed_cells(told[1])
    assert summary_line(told[0], NAMES, english()) == summary_line(told[1], NAMES, english())


def test_a_long_story_is_cut_to_one_line() -> None:
    moves = [Moved(seat % 4, (Event("play", "{0} played {tile} to {cell}.", (seat % 4,), (f"0,{seat}",),
                                    (f"R{seat}",), args={"tile": f"R{seat}", "cell": f"0,{seat}"}),))
             for seat in range(1, 20)]
    line = summary_line(moves, NAMES, english())
    assert line.startswith("19 moves since your turn: Ben played R1 to 0,1; ")
    assert line.endswith("…") and len(line) <= SUMMARY_LIMIT
    assert "; …" not in line and not line.endswith(";…")


def test_a_new_round_clears_the_outline_and_a_left_play_moves_the_line_along() -> None:
    def play(seat: int, side: str, at: int) -> Moved:
        return Moved(seat, (Event("play", "{0} played to the {side} end.", (seat,), (f"line:{at}",), ("3-4",),
                                  data={"side": side, "index": at}, args={"side": side}),))

    assert changed_cells([play(1, "right", 5), play(1, "left", 0)]) == ["line:6@1", "line:0@1"]
    reset = Moved(1, (Event("round-start", "Round 2 starts.", (0,)),))
    assert changed_cells([play(1, "right", 5), reset, play(1, "right", 1)]) == ["line:1@1"]


# --- from the store -----------------------------------------------------------------


async def test_the_store_gives_the_moves_since_a_seats_turn_stored_or_replayed(service: SessionService) -> None:
    store = service.store
    game_id = await new_game(store, players=3, names=NAMES)
    session = await service.start(game_id)
    first = session.to_act
    assert first is not None
    assert await since_your_turn(store, service, session, first) is None, "no turn yet, nothing since"
    made: list[tuple[int, list[Event]]] = []
    while True:
        session = await service.load(game_id)
        seat = session.to_act
        assert seat is not None
        if made and seat == first:
            break
        outcome = await service.make_move(game_id, session.game.legal_moves(session.state)[0], user_id=100 + seat,
                                          expected_version=session.version)
        made.append((seat, outcome.events))
        if seat == first:
            assert await since_your_turn(store, service, outcome.session, first) is None, "nobody moved since"
    last = max(i for i, (seat, _) in enumerate(made) if seat == first)
    expected = [Moved(seat, tuple(e for e in events if e.visible(None))) for seat, events in made[last + 1:]]
    stored = await since_your_turn(store, service, session, first)
    assert stored is not None
    assert (stored.seat, stored.since, stored.until) == (first, last + 1, session.version)
    assert [m.seat for m in stored.moves] == [m.seat for m in expected] and first not in [m.seat for m in expected]
    assert list(stored.cells) == changed_cells(expected)
    async with store.db.transaction() as conn:  # the stored story purged: rebuilt from the log
        await conn.execute("DELETE FROM outbox WHERE game_id = ?", (game_id,))
    replayed = await since_your_turn(store, service, session, first)
    assert replayed is not None
    assert replayed.cells == stored.cells
    assert replayed.summary(NAMES, english()) == stored.summary(NAMES, english()) == summary_line(
        expected, NAMES, english())
