"""Issue #43, findings 5 and 6: what the games say names pieces in words, as the pictures show
them, never by the notation's codes, in English and German:

- Pyramido's stones by their colour and where they went by its level ("placed white on level 1", not
  "placed W at 1:0,2": the picture outlines the stone, and shows no such coordinates);
- a Pyrinoes pyrino by its ends' colours and pyramids ("blue 3+2 · black 3+1", not "B32|K31");
- a Flaming Pyramids fall by its direction alone (the card's buttons say ⬅ left / right ➡; the
  notation's cells "0,0" are on no picture);
- a fire names the tile that started it once (it said "Coal Green 1 set fire … and Coal Green 1
  leaves the game")."""

from __future__ import annotations

import re
from typing import Any

import pytest

from engine.core import Rng, get_game
from engine.core.errors import IllegalMove
from i18n import shared_texts
from tools.playout import steps

NAMES = ["Ana", "Bo"]
DE = shared_texts().lang("de").gettext
#: A cell in the notation (Flaming Pyramids "0,1", Pyramido "1:0,-1"); a pyrino's code; a stone's letter alone.
CELL = re.compile(r"(?<![\w–-])-?\d+,-?\d+\b")
PYRINO = re.compile(r"\b[GYRBK]\d{1,2}\|[GYRBK]\d{1,2}\b")
STONE = re.compile(r"(?<![\w'])[RYGBW](?![\w'])")
PD_CELL = re.compile(r"\d:-?\d+,-?\d+")


def narrations(kind: str, players: int, options: dict[str, Any], seeds: range,
               kinds: set[str]) -> list[tuple[str, str]]:
    """Every sentence of the given kinds of event in a few seeded random games: English, German."""
    game = get_game(kind)
    found: list[tuple[str, str]] = []
    for seed in seeds:
        for step in steps(game, game.setup(players, options, seed), Rng(seed), 400):
            for event in step.events:
                if event.kind in kinds:
                    found.append((event.narrate(NAMES), event.narrate(NAMES, DE)))
    return found


@pytest.mark.parametrize("options", [{"mode": "solo", "size": 4}, {"mode": "competitive"}])
def test_pyramido_names_stones_by_their_colour(options: dict[str, Any]) -> None:
    players = 2 if options["mode"] == "competitive" else 1
    said = narrations("pyramido", players, options, range(3),
                      {"place", "take", "build", "reserve", "draw", "quarry", "refresh", "discard"})
    assert said, "no stone was placed"
    for english, german in said:
        assert not STONE.search(english), english
        assert not STONE.search(german), german
        assert not PD_CELL.search(english) and not PD_CELL.search(german), (english, german)  # "on level 2"
    assert any(re.search(r"\b(red|yellow|green|blue|white)\b", e) for e, _ in said), said[:3]
    assert any("on level" in e for e, _ in said) and any("Ebene" in g for _, g in said), said[:3]
    assert any(re.search(r"\b(rot|gelb|grün|blau|weiß)\b", g, re.IGNORECASE) for _, g in said), said[:3]


def test_pyrinoes_names_pyrinoes_by_their_ends() -> None:
    said = narrations("pyrinoes", 2, {}, range(4), {"build", "play", "drew"})
    built = [(e, g) for e, g in said if " built " in e]
    assert built, "no pyrino was built"
    for english, german in said:
        assert not PYRINO.search(english), english
        assert not PYRINO.search(german), german
    assert any(re.search(r"(blue|black|red|yellow|green) \d(\+\d)?", e) for e, _ in built), built[:3]
    assert any(re.search(r"(blau|schwarz|rot|gelb|grün) \d(\+\d)?", g, re.IGNORECASE) for _, g in built), built[:3]


def test_flaming_pyramids_falls_name_no_cells_and_fires_name_their_starter_once() -> None:
    said = narrations("flaming-pyramids", 2, {}, range(30), {"fall_choice", "fall", "free_air", "fire"})
    falls = [s for s in said if "fall" in s[0]]
    fires = [s for s in said if "fire" in s[0]]
    assert falls and fires, (len(falls), len(fires))
    for english, german in falls:
        assert not CELL.search(english), english
        assert not CELL.search(german), german
    for english, german in fires:
        starter = english.split(" set fire")[0] if " set fire" in english else english.split(" burns")[0]
        assert english.count(starter) == 1, english
        assert german.count(german.split(" ")[0] + " " + german.split(" ")[1]) == 1, german


# --- what #43 left: refusals of typed moves, Pyrinoes' supply, Continuous Pyramid's tiles ------------

#: A Pyrinoes pyramid's code ("R2", "G1"); a Continuous Pyramid tile's code ("O7", "WE", "DW").
PYRAMID = re.compile(r"\b[GYRBK][123]\b")
CP_TILE = re.compile(r"\b(?:[BCO][1-9]|W[ESWN]|SP|SU|AU|WI|D[RGW])\b")


def refusals(kind: str, players: int, options: dict[str, Any], seeds: range, typed: Any) -> list[tuple[str, str]]:
    """The reasons (English, German) of the typed moves ``typed(legal)`` makes of each position's legal
    moves, where the engine refuses them."""
    game = get_game(kind)
    found: list[tuple[str, str]] = []
    for seed in seeds:
        for step in steps(game, game.setup(players, options, seed), Rng(seed), 60):
            seat = game.waiting_for(step.state)
            if seat is None:
                continue
            for move in typed(game.legal_moves(step.state)):
                try:
                    game.play(step.state, seat, move)
                except IllegalMove as exc:
                    found.append((exc.explain(), exc.explain(DE)))
    return found


def pyramido_cells_elsewhere(legal: list[str]) -> list[str]:
    """Each placing move typed with every other cell nearby (taken, not open, off the base, too high)."""
    out = []
    for move in legal[:6]:
        verb, colour, cell = [*move.split(), "", ""][:3]
        if not PD_CELL.fullmatch(cell):
            continue
        out += [f"{verb} {colour} {level}:{x},{y}" for level in (1, 2, 3) for x in range(-1, 3) for y in range(-1, 3)]
    return out


@pytest.mark.parametrize("options", [{"mode": "solo", "size": 4}, {"mode": "competitive"}])
def test_pyramido_refuses_a_typed_placement_in_words(options: dict[str, Any]) -> None:
    """"1:0,2 needs the four stones beneath it first; 1:0,2 1:1,2 still empty" named cells no picture
    shows; the reason says where in words ("that spot on level 2")."""
    players = 2 if options["mode"] == "competitive" else 1
    said = refusals("pyramido", players, options, range(2), pyramido_cells_elsewhere)
    assert len(said) > 20, said[:3]
    for english, german in said:
        assert not PD_CELL.search(english), english
        assert not PD_CELL.search(german), german
    assert any("level" in e for e, _ in said) and any("Ebene" in g for _, g in said), said[:3]


def test_pyrinoes_refuses_a_build_beyond_the_supply_in_words() -> None:
    """"Your supply has no R2 left": a pyramid by its colour and size, as the picture shows it."""
    def builds_of_others(legal: list[str]) -> list[str]:
        from engine.pyrinoes.pieces import PYRINOES
        return [f"build {code}" for code in sorted(PYRINOES)[::7]]

    said = refusals("pyrinoes", 2, {}, range(3), builds_of_others)
    supply = [(e, g) for e, g in said if "supply" in e or "middle" in e]
    assert supply, said[:5]
    for english, german in said:
        assert not PYRAMID.search(english) and not PYRINO.search(english), english
        assert not PYRAMID.search(german) and not PYRINO.search(german), german


def test_continuous_pyramid_names_tiles_in_words() -> None:
    """"Ana played O4 to 1:4,4" and "O2 came from the stock": a tile as its face shows it ("Circles 4"),
    in English and German; the refusals of typed plays too."""
    said = narrations("continuous-pyramid", 1, {}, range(2), {"play", "refill", "undo", "unrefill"})
    assert said
    for english, german in said:
        assert not CP_TILE.search(english) and not CELL.search(english), english
        assert not CP_TILE.search(german) and not CELL.search(german), german
    assert any(re.search(r"\b(Bamboo|Characters|Circles) \d\b|wind|dragon|Spring|Summer|Autumn|Winter", e)
               for e, _ in said), said[:3]

    def elsewhere(legal: list[str]) -> list[str]:
        return [f"play {m.split()[1]} {cell}" for m in legal[:3] if m.startswith("play")
                for cell in ("1:4,4", "1:0,4", "2:1,1", "1:3,4")]

    refused = refusals("continuous-pyramid", 1, {}, range(2), elsewhere)
    assert refused
    for english, german in refused:
        assert not CP_TILE.search(english), english
        assert not CP_TILE.search(german), german
