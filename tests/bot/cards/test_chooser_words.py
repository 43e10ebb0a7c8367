"""Issue #43, findings 5 and 6: players read words, not notation. The chooser names tiles as
the picture shows them and in the picture's order, names spots by the letter the board picture
draws (in letter order), offers Continuous Pyramid's tiles at its top level beside ↩ Undo,
explains Pyrinoes' "Build a pyrino" menu; a move is told as a sentence; options have labels.

The last test walks every chooser of random positions of every game (the walk of
``tests/bot/cards/test_chooser_reach.py``) and holds every label it meets to the rule."""

from __future__ import annotations

import random
import re
from typing import Any

import discord
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.cards.boards import board_labels, board_view, public_view
from bot.cards.chooser import Chooser, chooser, spot_letters, step_to
from bot.cards.custom_ids import CustomId
from bot.core.session import Session
from bot.games.catalogue import Catalogue
from bot.games.continuous_pyramid import tile_words as cp_tile_words
from bot.games.flaming_pyramids import tile_words
from bot.lobbies.handlers import describe_options
from bot.store import GameRecord, SeatRecord
from engine.core.options import offered
from engine.core.registry import game_ids
from i18n import shared_texts
from tests.bot.cards.test_chooser_reach import Game, clicks, games

CATALOGUE = Catalogue.default()
EN, DE = shared_texts().lang("en"), shared_texts().lang("de")
#: A cell as the notation writes it ("0,-1", "2:0,5", "1:2,4").
CELL = re.compile(r"-?\d+\s*,\s*-?\d+")
#: A Flaming Pyramids tile code ("G60", "M200").
FP_CODE = re.compile(r"\b[RGBYM]\d+\b")
#: A Continuous Pyramid tile code ("O7", "WE", "DW").
CP_TILE = re.compile(r"\b(?:[BCO][1-9]|W[ESWN]|SP|SU|AU|WI|D[RGW])\b")
#: A spot's button (its letters may spell a tile code: "Spot AU").
SPOT = re.compile(r"(Spot|Platz) [A-Z]+")


def session_of(kind: str, players: int, options: dict[str, Any], seed: int = 7,
               moves: list[str] | None = None) -> Session:
    presenter = CATALOGUE.presenter(kind)
    game = presenter.game
    state = game.setup(players, options, seed)
    for move in moves or []:
        seat = game.waiting_for(state)
        assert seat is not None
        state, _ = game.play(state, seat, move)
    record = GameRecord(id=43, kind=kind, guild_id=1, channel_id=2, thread_id=3, options=options, status="active",
                        seed=seed, created_by=100, challenge_id=None, result=None, created_at="", updated_at="",
                        salt="0" * 32)
    seats = [SeatRecord(game_id=43, seat=s, user_id=100 + s, ai_level=None, name=f"P{s}", joined_at="")
             for s in range(players)]
    return Session(record, seats, presenter, state, len(moves or []))


def labels_of(shown: Chooser) -> list[str]:
    return [str(getattr(item, "label", "")) for item in shown.view.children if isinstance(item, discord.ui.Button)]


def path_of(item: discord.ui.Item[Any]) -> tuple[str, ...]:
    assert isinstance(item, discord.ui.Button) and item.custom_id is not None
    return tuple(CustomId.parse(item.custom_id).arg.split())


def test_flaming_pyramids_tiles_read_as_the_hand_picture_shows_them() -> None:
    """"G60 B20 Y4 B7 M200" became the hand's tiles left to right, by colour word and weight."""
    session = session_of("flaming-pyramids", 2, {})
    hand = list(dict.fromkeys(session.state.hands[session.to_act]))
    shown = chooser(session, (), lang=EN)
    tiles = [b for b in labels_of(shown) if not b.startswith("⬅")]
    assert tiles == [tile_words(t, EN) for t in hand], (tiles, hand)
    assert not any(FP_CODE.search(t) for t in tiles), tiles
    german = [b for b in labels_of(chooser(session, (), lang=DE)) if not b.startswith("⬅")]
    assert not any(FP_CODE.search(t) for t in german), german


def test_german_tile_names_use_german_colour_words() -> None:
    assert tile_words("G1", DE) == "🟢 Kohle Grün 1"
    assert tile_words("Y4", DE) == "⭐ Gelb 4"
    assert tile_words("M200", EN) == "🪨 Millstone 200"


def test_spot_buttons_are_the_board_letters_in_letter_order() -> None:
    """"A · 0,-1" became "Spot A", the spots in the order of their letters, and the letters are
    those of the board picture."""
    session = session_of("flaming-pyramids", 2, {}, moves=None)
    game = session.game
    # a few plays, so the pyramid has several open spots
    state = session.state
    rng = random.Random(5)
    played = 0
    while len({m.split()[2] for m in game.legal_moves(state) if m.startswith("play")}) < 3:
        seat = game.waiting_for(state)
        assert seat is not None and played < 200
        state, _ = game.play(state, seat, rng.choice(game.legal_moves(state)))
        played += 1
    session = Session(session.record, session.seats, session.presenter, state, played)
    board = board_labels(session, public_view(session))
    tile = game.legal_moves(state)[0].split()[1]
    shown = step_to(session, ("play", tile), lang=EN)
    assert isinstance(shown, Chooser)
    spots = [b for b in labels_of(shown) if b.startswith("Spot")]
    assert len(spots) >= 2
    letters = sorted(board.values(), key=lambda letter: (len(letter), letter))
    assert spots == [f"Spot {letter}" for letter in letters], (spots, board)
    assert not any(CELL.search(b) for b in labels_of(shown))


def test_continuous_pyramid_tiles_and_undo_at_the_top_level() -> None:
    """No "Play a tile" step before every move: the reserve's tiles in slot order, named as their faces show
    them ("Circles 7", not the notation's "O7"), ↩ Undo beside."""
    for seed in range(50):  # a deal whose first play leaves plays to make (not stuck at once)
        start = session_of("continuous-pyramid", 1, {"undo": True}, seed=seed)
        first = start.game.legal_moves(start.state)[0]
        session = session_of("continuous-pyramid", 1, {"undo": True}, seed=seed, moves=[first])
        if len([m for m in session.game.legal_moves(session.state) if m.startswith("play")]) >= 2:
            break
    shown = chooser(session, (), lang=EN)
    buttons = labels_of(shown)
    assert "Play a tile" not in buttons and "↩ Undo" in buttons, buttons
    view = public_view(session)
    playable = {m.split()[1] for m in session.game.legal_moves(session.state) if m.startswith("play")}
    in_slots = [str(t) for t in view["reserve"] if str(t) in playable]  # type: ignore[attr-defined]
    tiles = [b for b in buttons if b != "↩ Undo"]
    assert tiles == [cp_tile_words(t, EN) for t in dict.fromkeys(in_slots)], (tiles, in_slots)
    assert not any(CP_TILE.search(t) for t in tiles), tiles
    german = [b for b in labels_of(chooser(session, (), lang=DE)) if "↩" not in b]
    assert german and not any(CP_TILE.search(t) for t in german), german
    tile_button = next(i for i in shown.view.children if isinstance(i, discord.ui.Button) and i.label == tiles[0])
    spots = step_to(session, path_of(tile_button), lang=EN)
    if isinstance(spots, Chooser):
        letters = [b for b in labels_of(spots) if b.startswith("Spot")]
        assert letters == sorted(letters, key=lambda b: (len(b), b)) and letters, labels_of(spots)


def test_continuous_pyramid_board_buttons_are_words() -> None:
    """The board's own buttons read "Characters 3 to spot A" and "↩ Undo", not "C3 A · 1:2,4" and "undo"."""
    start = session_of("continuous-pyramid", 1, {"undo": True}, seed=11)
    game, state, rng, played = start.game, start.state, random.Random(3), 0
    while not (2 <= len(moves := game.legal_moves(state)) <= 5 and "undo" in moves):  # the board's own buttons
        plays = [m for m in moves if m.startswith("play")]
        assert plays and played < 150, "no position with a few moves to show on the board"
        state, _ = game.play(state, 0, rng.choice(plays))
        played += 1
    session = Session(start.record, start.seats, start.presenter, state, played)
    words = [str(getattr(i, "label", "")) for i in board_view(session, EN).children]
    assert "↩ Undo" in words, words
    assert "undo" not in words and not any(CELL.search(w) or CP_TILE.search(w) for w in words), words


def test_pyrinoes_build_menu_is_explained() -> None:
    session = session_of("pyrinoes", 2, {})
    if not any(m.startswith("build") for m in session.game.legal_moves(session.state)):
        return
    shown = step_to(session, ("build",), lang=EN)
    assert isinstance(shown, Chooser)
    assert "A pyrino is built from two of your pyramids" in shown.content, shown.content
    # grouped so that each step is a few buttons, never the paged menu "1–25 of 27"
    assert not any(isinstance(i, discord.ui.Select) for i in shown.view.children), shown.view.children
    high = next(i for i in shown.view.children if isinstance(i, discord.ui.Button) and "spots" in str(i.label))
    pairs = step_to(session, path_of(high), lang=EN)
    assert isinstance(pairs, Chooser) and "A pyrino is built" in pairs.content
    assert not any(isinstance(i, discord.ui.Select) for i in pairs.view.children), labels_of(pairs)


def test_a_move_is_told_as_a_sentence() -> None:
    fp = CATALOGUE.presenter("flaming-pyramids")
    assert fp.move_words("play G60 0,-1", {"0,-1": "A"}, EN) == "🟢 Green 60 to spot A"
    assert fp.move_words("play Y1 0,-1", {"0,-1": "C"}, DE) == "⭐ Kohle Gelb 1 auf Platz C"
    assert fp.move_words("fall left", {}, EN) == "Fall left"
    cp = CATALOGUE.presenter("continuous-pyramid")
    assert cp.move_words("undo", {}, EN) == "Undo"
    assert cp.move_words("play C3 1:2,4", {"1:2,4": "B"}, EN) == "Characters 3 to spot B"
    assert cp.move_words("play WE 1:2,4", {"1:2,4": "B"}, DE) == "Ostwind auf Platz B"


def test_the_reply_to_a_move_is_not_its_notation() -> None:
    session = session_of("flaming-pyramids", 2, {})
    move = session.game.legal_moves(session.state)[0]
    told = session.presenter.move_words(move, spot_letters(session), EN)
    assert "play" not in told and not CELL.search(told) and not FP_CODE.search(told), told


def test_options_have_labels_and_no_rule_ids() -> None:
    for kind in game_ids():
        for offer in offered(CATALOGUE.presenter(kind).game.options_model):
            assert offer.label and "_" not in offer.label and offer.label != offer.name, offer
            assert not re.search(r"\b[A-Z]{2}-\d", offer.description), offer
    fp = CATALOGUE.presenter("flaming-pyramids").game
    told = describe_options(fp.parse_options({"curse": True}), EN)
    assert "turn_limit" not in told and "none" not in told and "The curse" in told, told
    pyramido = CATALOGUE.presenter("pyramido").game
    assert "size" not in describe_options(pyramido.parse_options({"mode": "competitive"}), EN)


def test_flaming_pyramids_narration_names_tiles_in_words() -> None:
    session = session_of("flaming-pyramids", 2, {})
    move = session.game.legal_moves(session.state)[0]
    _, events = session.game.play(session.state, 0, move)
    said = [e.narrate(["Ana", "Ben"]) for e in events if e.kind == "play"]
    assert said and not FP_CODE.search(said[0]) and not CELL.search(said[0]), said


def test_continuous_pyramid_opened_cells_in_words() -> None:
    """"Now open above: 2:0,5" became "A cell opened on level 2."."""
    game = CATALOGUE.presenter("continuous-pyramid").game
    state = game.setup(1, {}, 3)
    for _ in range(60):
        moves = [m for m in game.legal_moves(state) if m.startswith("play")]
        if not moves:
            break
        state, events = game.play(state, 0, moves[0])
        opened = [e.narrate(["Ana"]) for e in events if e.kind == "open"]
        if opened:
            assert not CELL.search(opened[0]) and "level" in opened[0], opened
            return


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(), st.integers(0, 120))
def test_no_chooser_label_is_notation(game: Game, moves: int) -> None:
    """Every button and menu option of every chooser a player can reach: no cell written as the
    notation writes it, no move id ("undo", "play"), spots in letter order."""
    session = game.last_position(moves)
    ids = {m.split()[0] for m in session.game.legal_moves(session.state)}
    pending = [chooser(session, (), lang=game.lang)]
    seen: set[tuple[str, ...]] = set()
    while pending:
        shown = pending.pop()
        words = []
        for item in shown.view.children:
            if isinstance(item, discord.ui.Select):
                words += [o.label for o in item.options]
            else:
                words.append(str(getattr(item, "label", "")))
        for word in words:
            assert not CELL.search(word) and word not in ids, (word, shown.content)
            assert SPOT.fullmatch(word) or not CP_TILE.search(word), (word, shown.content)
        spots = [w for w in words if re.fullmatch(r"(Spot|Platz) [A-Z]+", w)]
        assert spots == sorted(spots, key=lambda w: (len(w), w)), spots
        for args in clicks(shown):
            if args.cid.action == "move":
                continue
            path = (*args.path, args.value) if args.cid.action == "sel" and args.value else args.path
            if path in seen or args.page:
                continue
            seen.add(path)
            after = step_to(session, path, 0, game.lang)
            if not isinstance(after, str):
                pending.append(after)
