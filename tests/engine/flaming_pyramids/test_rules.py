"""FP-4 building regulations and FP-6 mayhem, with the narration the bot shows."""

from __future__ import annotations

import pytest

from engine.core.events import Event
from engine.flaming_pyramids import GAME, fall_targets, rest_problem
from engine.flaming_pyramids.rules import COLLAPSE, CURSE, EXPLOSION, FIRE, FREE_AIR, find_mayhem

from .helpers import cell, load


def _events(state_kwargs: dict[str, object], *moves: str) -> list[Event]:
    state = load(**state_kwargs)
    events: list[Event] = []
    for move in moves:
        seat = GAME.to_act(state)
        assert seat is not None
        state, new = GAME.play(state, seat, move)
        events.extend(new)
    return events


# --- FP-4 -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("pyramid", "where", "problem"),
    [
        ({"0,0": "R40", "0,1": "B2", "1,0": "R6"}, "1,0", None),  # colour
        ({"0,0": "R20", "0,1": "G40", "1,0": "B20"}, "1,0", None),  # weight
        ({"0,0": "R40", "0,1": "B20", "1,0": "R60"}, "1,0", None),  # exactly the sum
        ({"0,0": "B30", "0,1": "R4", "1,0": "Y60"}, "1,0", "overweight+mismatch"),
        ({"0,0": "B30", "0,1": "R4", "1,0": "R60"}, "1,0", "overweight"),
        ({"0,0": "R40", "0,1": "B20", "1,0": "Y2"}, "1,0", "mismatch"),
        ({"0,0": "R40", "1,0": "R10"}, "1,0", None),  # overhanging, same colour, lighter
        ({"0,0": "R40", "1,0": "Y10"}, "1,0", "overhang colour"),
        ({"0,0": "R20", "1,0": "R30"}, "1,0", "overhang weight"),
        ({"0,1": "M200", "1,0": "Y20"}, "1,0", None),  # the Millstone shares every colour
        ({"0,1": "R20", "1,0": "M200"}, "1,0", "overhang weight"),
        ({"0,0": "R100", "0,1": "B120", "1,0": "M200"}, "1,0", None),
        ({"1,0": "R6"}, "1,0", "free air"),
        ({"0,5": "M200"}, "0,5", None),  # base tiles are always legal
    ],
)
def test_fp4_rest_problem(pyramid: dict[str, str], where: str, problem: str | None) -> None:
    state = load(pyramid=pyramid, hands=[["G2"], ["G4"]])
    assert rest_problem(state, where) == problem


# --- FP-6: the order of checks ----------------------------------------------------------
def test_fp6_free_air_before_collapse() -> None:
    state = load(pyramid={"0,0": "B30", "0,1": "R4", "1,0": "Y60", "3,0": "G2"}, hands=[["G4"], ["G6"]])
    assert find_mayhem(state.pyramid, False) == (FREE_AIR, (3, 0), ())


def test_fp6_collapse_before_explosion_and_fire() -> None:
    state = load(pyramid={"0,0": "G10", "0,1": "R7", "0,2": "G1", "1,3": "Y2", "0,3": "R40", "0,4": "B4"},
                 hands=[["G4"], ["G6"]])
    assert find_mayhem(state.pyramid, False) == (COLLAPSE, (1, 3), ())


def test_fp6_explosion_before_fire() -> None:
    state = load(pyramid={"0,0": "G10", "0,1": "R7", "0,2": "G1"}, hands=[["G4"], ["G6"]])
    assert find_mayhem(state.pyramid, False) == (EXPLOSION, (0, 1), ((0, 1), (0, 2)))


def test_fp6_fire_before_curse() -> None:
    state = load(pyramid={"0,0": "G10", "0,1": "R100", "0,3": "R20", "0,4": "G20", "1,3": "B20", "0,-1": "Y1"},
                 hands=[["G4"], ["G6"]], curse=True)
    assert find_mayhem(state.pyramid, True) == (FIRE, (0, -1), ((0, 0),))
    without_fire = load(pyramid={"0,3": "R20", "0,4": "G20", "1,3": "B20"}, hands=[["G4"], ["G6"]], curse=True)
    assert find_mayhem(without_fire.pyramid, True) == (CURSE, (1, 3), ())
    assert find_mayhem(without_fire.pyramid, False) is None


def test_fp6_fire_burns_connected_straw_in_scan_order() -> None:
    state = load(pyramid={"0,0": "G2", "0,1": "G4", "0,2": "R100", "0,3": "Y1", "1,0": "G6", "1,1": "R10"},
                 hands=[["G10"], ["B6"]])
    # Y1 at 0,3 touches only stone; nothing burns.
    assert find_mayhem(state.pyramid, False) is None
    burning = load(pyramid={"0,0": "G2", "0,1": "G4", "0,2": "Y1", "1,0": "G6", "1,1": "Y4"}, hands=[["G10"], ["B6"]])
    kind, start, cells = find_mayhem(burning.pyramid, False) or (None, None, ())
    assert (kind, start) == (FIRE, (0, 2))
    assert cells == ((1, 0), (1, 1), (0, 0), (0, 1))


def test_fp6_blowtorch_burns_wood_but_never_stone() -> None:
    state = load(pyramid={"0,0": "G20", "0,1": "R7", "0,2": "B100", "0,3": "M200", "1,0": "R20", "1,1": "R4"},
                 hands=[["G10"], ["G6"]])
    found = find_mayhem(state.pyramid, False)
    assert found is not None and found[0] == FIRE
    assert found[2] == ((1, 0), (1, 1), (0, 0))


# --- FP-6: resolution and the responsible player ------------------------------------------
def test_collapse_narration_names_the_player_and_tiles() -> None:
    events = _events({"pyramid": {"0,0": "B30", "0,1": "R4"}, "hands": [["R60", "G2"], ["R2"]]}, "play R60 1,0")
    collapse = next(e for e in events if e.kind == "collapse")
    assert collapse.narrate(["Ana", "Bo"]) == ("Red 60 was overweight (60 > 30 + 4): Blue 30 and Red 4 collapse into "
                                               "Ana's pile.")
    assert collapse.cells == ("1,0", "0,0", "0,1")
    assert collapse.items == ("R60", "B30", "R4")
    ask = next(e for e in events if e.kind == "fall_choice")
    assert ask.narrate(["Ana", "Bo"]) == "Ana must choose where Red 60 falls: left or right."


def test_fire_narration() -> None:
    events = _events({"pyramid": {"0,0": "G2", "0,1": "G4", "1,0": "G6", "0,2": "R100"},
                      "hands": [["G1", "G60"], ["R2"]]}, "play G1 1,1")
    fire = next(e for e in events if e.kind == "fire")
    assert fire.narrate(["Ana"]) == (
        "Coal Green 1 set fire to 3 straw tiles (Green 6, Green 2 and Green 4) and burnt out, leaving the game; the "
        "burnt tiles go under Ana's pile."
    )
    assert fire.cells == ("1,1", "1,0", "0,0", "0,1")


def test_explosion_and_curse_narration() -> None:
    events = _events({"pyramid": {"0,0": "M200", "0,1": "R30", "0,2": "B100", "1,0": "G1"},
                      "hands": [["B7", "G60"], ["Y4"]]}, "play B7 1,1")
    boom = next(e for e in events if e.kind == "explosion")
    assert boom.narrate(["Ana"]) == (
        "Coal Green 1 and Blowtorch Blue 7 exploded: Millstone 200, Red 30 and Blue 100 go under Ana's pile and "
        "Coal Green 1 and Blowtorch Blue 7 leave the game."
    )
    events = _events({"players": 3, "turn": 1, "curse": True, "pyramid": {"0,0": "R20", "0,1": "G20"},
                      "hands": [["Y4"], ["B20", "B60"], ["R6"]]}, "play B20 1,0")
    curse = next(e for e in events if e.kind == "curse")
    assert curse.players == (0,)
    assert "Blue 20 on Red 20 and Green 20 are three 20s" in curse.narrate(["Ana", "Bo", "Cy"])
    assert "Ana's pile" in curse.narrate(["Ana", "Bo", "Cy"])


def test_draws_are_private_with_a_public_count() -> None:
    events = _events({"pyramid": {"0,0": "R40", "0,1": "B20"}, "hands": [["R6", "G2"], ["Y4"]],
                      "piles": [["B2", "B4"], []]}, "play R6 1,0")
    private = [e for e in events if e.kind == "draw"]
    public = [e for e in events if e.kind == "draw_count"]
    assert len(private) == 1 and private[0].visible_to == 0 and private[0].items == ("B2", "B4")
    assert not private[0].visible(1)
    assert public[0].narrate(["Ana"]) == "Ana drew 2 tiles." and public[0].visible_to is None
    assert [e.kind for e in events] == ["play", "draw", "draw_count", "turn"]


def test_fall_targets_helper() -> None:
    state = load(pyramid={"0,0": "B30", "0,1": "R4"}, hands=[["Y60", "G2"], ["R2"]])
    assert fall_targets(state) is None
    state, _ = GAME.play(state, 0, "play Y60 1,0")
    assert fall_targets(state) == {"left": "0,0", "right": "0,1"}


def test_played_tile_is_lifted_but_a_pyramid_tile_falls_from_its_cell() -> None:
    state = load(pyramid={"0,0": "R40", "0,1": "R20", "0,2": "R30", "1,0": "Y20"}, hands=[["G100", "B2"], ["Y4"]])
    state, _ = GAME.play(state, 0, "play G100 1,1")
    assert state.pending is not None and state.pending.lifted
    assert cell("1,1") not in state.pyramid
    state, _ = GAME.play(state, 0, "fall right")
    assert state.pending is not None and not state.pending.lifted
    assert state.pyramid[cell("1,0")] == "Y20"
