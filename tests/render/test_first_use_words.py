"""Issue #43, findings 5 and 6: the Flaming Pyramids hand picture and its alt text name tiles as the
picture shows them ("Yellow 60 wood", "Coal Green 1"), in the reader's language, not by the
notation's codes ("Y60 wood", "coal G1"); a pending fall's alt text tells the way it may fall,
not the notation's cells."""

from __future__ import annotations

import re
from typing import Any

import pytest

from i18n import shared_texts
from render import art_for, textlog
from render.describe import describe_board, describe_hand
from render.flaming_pyramids import draw_hand

CODE = re.compile(r"\b[RGBYM]\d+\b")
CELL = re.compile(r"-?\d+,-?\d+")
PYRINO = re.compile(r"\b[GYRBK]\d{1,2}\|[GYRBK]\d{1,2}\b")
ART = art_for("flaming-pyramids")


def hand_view(lang: str) -> dict[str, Any]:
    return {"game": "flaming-pyramids", "game_number": 4, "players": 2, "seat": 0, "names": ["Ana", "Bo"],
            "hands": [["Y60", "G1", "M200", "R7", "B2"], []], "piles": [3, 0], "lang": lang}


@pytest.mark.parametrize(("lang", "expected"), [("en", ["Yellow 60", "Coal Green 1", "Millstone 200"]),
                                                ("de", ["Gelb 60", "Kohle Grün 1", "Mühlstein 200"])])
def test_the_hand_picture_names_tiles_in_words(lang: str, expected: list[str]) -> None:
    with textlog.recording():
        img = draw_hand(hand_view(lang))
    drawn = " ".join(w.text for w in textlog.words(img) if not w.piece)
    assert not CODE.search(drawn), drawn
    for name in expected:
        assert name in drawn, (name, drawn)


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_hand_alt_text_names_tiles_in_words(lang: str) -> None:
    text = describe_hand(hand_view(lang), art=ART, lang=shared_texts().lang(lang))
    assert not CODE.search(text), text
    assert ("Yellow 60" if lang == "en" else "Gelb 60") in text, text


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_falls_alt_text_names_no_cells(lang: str) -> None:
    view = {"game": "flaming-pyramids", "game_number": 4, "players": 2, "names": ["Ana", "Bo"], "lang": lang,
            "to_act": 1, "pending": {"kind": "fall", "player": 1},
            "falling": {"tile": "R10", "at": "1,0", "left": "0,0", "right": "0,1"},
            "pyramid": {"0,0": "B2", "1,0": "R10"}, "hand_sizes": [5, 4], "piles": [3, 4]}
    lang_ = shared_texts().lang(lang)
    text = describe_board(view, art=ART, lang=lang_)
    first = text.splitlines()[1]
    assert "Bo" in first and not CELL.search(first) and not CODE.search(first), first
    assert ("Red 10" if lang == "en" else "Rot 10") in first, first


@pytest.mark.parametrize("lang", ["en", "de"])
def test_pyrinoes_alt_text_names_pyrinoes_by_their_ends(lang: str) -> None:
    """Built pyrinoes and those on the line are read out as their ends in words, not ``B32|K31``."""
    from engine.core import Rng, get_game
    from tools.playout import steps

    game = get_game("pyrinoes")
    words = shared_texts().lang(lang)
    found = 0
    for seed in range(6):
        for step in steps(game, game.setup(2, {}, seed), Rng(seed), 200):
            view = {**game.view(step.state, 0), "names": ["Ana", "Bo"], "game_number": 4, "lang": lang}
            built = [p for seat in view.get("pyrinoes") or [] if isinstance(seat, list) for p in seat]
            if not built and not any("|" in str(p) for p in view.get("line") or []):
                continue
            art = art_for("pyrinoes")
            for text in (describe_board(view, art=art, lang=words), describe_hand(view, art=art, lang=words)):
                assert not PYRINO.search(text), text
            found += 1
    assert found, "no pyrino built in the games tried"


PYRAMID = re.compile(r"\b[GYRBK][123]\b")
#: A colour's letter standing alone (the supply rows' old labels).
LETTER = re.compile(r"(?<![\w'])[GYRBK](?![\w'])")


def pyrinoes_view(lang: str) -> dict[str, Any]:
    from engine.core import get_game

    game = get_game("pyrinoes")
    return {**game.view(game.setup(2, {}, 1), 0), "names": ["Ana", "Bo"], "game_number": 4, "lang": lang}


@pytest.mark.parametrize(("lang", "colours"), [("en", ["Red", "Yellow", "Blue", "Black"]),
                                               ("de", ["Rot", "Gelb", "Blau", "Schwarz"])])
def test_pyrinoes_supply_rows_are_headed_by_colour_words(lang: str, colours: list[str]) -> None:
    """The supply rows said "R", "Y", "B", "K"; they say the colour, as the hand picture's rows do too."""
    from render.pyrinoes import draw_board, draw_hand

    for draw in (lambda v: draw_board(v, {}, []), draw_hand):
        with textlog.recording():
            img = draw(pyrinoes_view(lang))
        drawn = [w.text for w in textlog.words(img) if not w.piece]
        assert not [w for w in drawn if LETTER.fullmatch(w.strip())], drawn
        assert any(c in drawn for c in colours), drawn


@pytest.mark.parametrize(("lang", "red"), [("en", "red 1 ×3"), ("de", "Rot 1 ×3")])
def test_pyrinoes_alt_text_names_pyramids_by_colour_and_size(lang: str, red: str) -> None:
    words = shared_texts().lang(lang)
    view = pyrinoes_view(lang)
    for text in (describe_board(view, art=art_for("pyrinoes"), lang=words),
                 describe_hand(view, art=art_for("pyrinoes"), lang=words)):
        assert not PYRAMID.search(text), text
        assert red in text, text


CP_TILE = re.compile(r"\b(?:[BCO][1-9]|W[ESWN]|SP|SU|AU|WI|D[RGW])\b")


def cp_view(lang: str) -> dict[str, Any]:
    """A Continuous Pyramid position after a few plays: a reserve of suited tiles and honours."""
    from engine.core import get_game

    game = get_game("continuous-pyramid")
    state = game.setup(1, {}, 3)
    for _ in range(5):
        state, _ = game.play(state, 0, next(m for m in game.legal_moves(state) if m.startswith("play")))
    return {**game.view(state, 0), "names": ["Ana"], "game_number": 4, "lang": lang}


@pytest.mark.parametrize(("lang", "expected"), [("en", ["West wind", "Circles 3", "Green dragon"]),
                                                ("de", ["Westwind", "Kreise 3", "Grüner Drache"])])
def test_continuous_pyramid_reserve_names_tiles_in_words(lang: str, expected: list[str]) -> None:
    """The reserve's captions said "WW", "O3", "DG": the hand picture names each tile as its face shows
    it, the board's reserve leaves the face to say it; the alt text names them in words too."""
    from render.continuous_pyramid import draw_board, draw_hand

    view = cp_view(lang)
    with textlog.recording():
        hand, board = draw_hand(view), draw_board(view, {}, [])
    for img in (hand, board):
        drawn = [w.text for w in textlog.words(img) if not w.piece]
        assert not [w for w in drawn if CP_TILE.search(w)], drawn
    shown = " ".join(w.text for w in textlog.words(hand) if not w.piece)
    assert all(name.split()[0] in shown for name in expected), shown
    text = describe_hand(view, art=art_for("continuous-pyramid"), lang=shared_texts().lang(lang))
    reserve = next(line for line in text.splitlines() if "Reserve" in line)
    assert not CP_TILE.search(reserve) and all(name in reserve for name in expected), reserve
