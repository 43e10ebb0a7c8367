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
