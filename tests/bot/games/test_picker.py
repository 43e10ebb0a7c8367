from __future__ import annotations

import random

import pytest

from bot.cards.custom_ids import BadCustomId, CustomId
from bot.games.catalogue import Catalogue
from bot.games.picker import PathGone, back_path, node_at

MOVES = ["play R40 1,0", "play R40 0,3", "play G4 1,0", "play G4 0,3"]


def test_root_then_tile_then_spot() -> None:
    root = node_at(MOVES, ())
    assert root.path == ("play",) and root.choices == ("R40", "G4") and root.complete is None
    assert back_path(MOVES, root) is None
    spots = node_at(MOVES, ("play", "G4"))
    assert spots.choices == ("1,0", "0,3")
    assert back_path(MOVES, spots) == ("play",)
    assert node_at(MOVES, ("play", "G4", "0,3")).complete == "play G4 0,3"


def test_forced_steps_descend_on_their_own() -> None:
    node = node_at(["play R40 1,0", "play G4 1,0"], ("play", "R40"))
    assert node.complete == "play R40 1,0" and node.choices == ()


def test_a_path_can_be_a_move_and_go_deeper() -> None:
    moves = ["discard R", "discard R G", "end"]
    node = node_at(moves, ("discard", "R"))
    assert node.complete == "discard R" and node.choices == ("G",)


def test_stale_paths() -> None:
    with pytest.raises(PathGone):
        node_at(MOVES, ("play", "Y4"))
    with pytest.raises(PathGone):
        node_at(MOVES, ("play", "Y4", "1,0"))


def test_custom_ids_round_trip_and_reject_junk() -> None:
    cid = CustomId("pick", 12, 7, "play R40")
    assert CustomId.parse(cid.encode()) == cid
    for junk in ("", "pb:", "pb:explode:1:2", "xx:pick:1:2", "pb:pick:a:2", "pb:pick:1"):
        with pytest.raises(BadCustomId):
            CustomId.parse(junk)
    with pytest.raises(ValueError):
        CustomId("pick", 1, 1, "x" * 100).encode()


@pytest.mark.parametrize("kind", Catalogue.default().kinds)
def test_every_step_survives_the_custom_id(kind: str) -> None:
    """A click carries its path as the steps joined by spaces and read back split on
    whitespace, so no step may contain whitespace: Pyrinoes' "6–3 spots" step did, and
    every build answered "That choice is no longer possible". Checked over the legal moves
    of random positions of each game (seeded, so a failure names its position)."""
    catalogue = Catalogue.default()
    game, steps = catalogue.game(kind), catalogue.presenter(kind).steps
    rng = random.Random(kind)
    for seed in range(3):
        low, high = game.player_range(game.parse_options(None))
        state = game.setup(min(max(low, 2), high), None, seed)
        for _ in range(60):
            seat = game.waiting_for(state)
            if seat is None:
                break
            moves = game.legal_moves(state)
            for move in moves:
                for token in steps(move):
                    assert token and token.split() == [token], (kind, seed, move, token)
            node = node_at(moves, (), steps)
            while node.choices:
                chosen = rng.choice(node.choices)
                path = (*node.path, chosen)
                sent = CustomId("pick", 1, 1, " ".join(path)).encode()
                node = node_at(moves, tuple(CustomId.parse(sent).arg.split()), steps)
            state, _ = game.apply(state, seat, rng.choice(moves))
