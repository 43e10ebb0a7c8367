"""Typed moves: the letters drawn on the board picture stand for their cells.

Invariant, for every game and any position reached by legal moves: each legal move,
typed as the picture letters it or in the rules' notation (in any letter case), reads
as that very move; and what the reading answers is always a legal move."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st

from bot.games.catalogue import Catalogue
from bot.terminal.reading import lettered, read_move, shown

CATALOGUE = Catalogue.default()
PLAYERS = {"continuous-pyramid": 1}
OPTIONS = {"pyramido": [{"mode": "solo"}, {"mode": "competitive"}]}


@settings(max_examples=40, deadline=None)
# Found by this test: "place B" where B is both Pyramido's stone and the picture's letter of the one cell
# that stone fits: typed as the start of the move, it was played (its other reading named the cell).
@example(kind="pyramido", seed=3829, steps=24, variant=0,
         picks=[131073, 13397, 1, 5, 25768, 12, 0, 1, 147, 358, 7, 0, 0, 0, 1, *[0] * 15])
@given(kind=st.sampled_from(CATALOGUE.kinds), seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 30),
       picks=st.lists(st.integers(0, 10**6), min_size=30, max_size=30), variant=st.integers(0, 1))
def test_every_legal_move_reads_back_typed_with_letters_or_cells(kind: str, seed: int, steps: int,
                                                                   picks: list[int], variant: int) -> None:
    presenter = CATALOGUE.presenter(kind)
    game = presenter.game
    options = OPTIONS.get(kind, [{}])[variant % len(OPTIONS.get(kind, [{}]))]
    players = PLAYERS.get(kind, 1 if options.get("mode") == "solo" else 2)
    state = game.setup(players, options, seed)
    for pick in picks[:steps]:
        seat = game.waiting_for(state)
        if seat is None:
            break
        legal = game.legal_moves(state)
        state, _ = game.play(state, seat, legal[pick % len(legal)])
    if game.waiting_for(state) is None:
        return
    legal = game.legal_moves(state)
    labels = presenter.public_labels(game.view(state, None), legal)
    steps = presenter.steps
    for move in legal:
        assert read_move(lettered(move, labels), legal, labels, steps).move == move
        assert read_move(move, legal, labels, steps).move == move
        assert read_move(lettered(move, labels).lower(), legal, labels, steps).move == move
        typed = [shown(token, labels) for token in steps(move)]
        assert read_move(" ".join(typed), legal, labels, steps).move == move
        start = " ".join(typed[:-1])
        whole = {form.casefold() for m in legal
                 for form in (m, lettered(m, labels), " ".join(shown(t, labels) for t in steps(m)))}
        if start and start.casefold() not in whole:  # a start that is no other move written whole
            begun = read_move(start, legal, labels, steps)
            assert begun.move is None and move in begun.matches, (start, begun)
    for text in ("A", "B 1", "play", "zzz", *(m.split()[-1] for m in legal[:5])):
        reading = read_move(text, legal, labels)
        assert reading.move is None or reading.move in legal
        assert set(reading.matches) <= set(legal)


def test_a_letter_that_is_also_a_piece_is_read_where_it_makes_a_legal_move() -> None:
    legal = ["take R 1:0,1", "take G 1:0,1", "take R 1:2,0"]
    labels = {"1:0,1": "G", "1:2,0": "R"}  # a picture with many spots letters G and R too
    assert read_move("take R G", legal, labels).move == "take R 1:0,1"
    assert read_move("take G G", legal, labels).move == "take G 1:0,1"
    assert read_move("take R R", legal, labels).move == "take R 1:2,0"


def test_shorthand_plays_only_what_names_one_move() -> None:
    legal = ["play R4 0,-1", "play R4 0,1", "play Y6 0,-1", "fall left"]
    labels = {"0,-1": "A", "0,1": "B"}
    assert read_move("R4 A", legal, labels).move == "play R4 0,-1"
    assert read_move("left", legal, labels).move == "fall left"
    several = read_move("R4", legal, labels)
    assert several.move is None and several.matches == ("play R4 0,-1", "play R4 0,1")
    assert read_move("A R4", legal, labels).move is None  # out of order: not a move
    assert read_move("play R4 C", legal, labels).spelled == "play R4 C"
    assert read_move("play R4 a", legal, labels).move == "play R4 0,-1"
