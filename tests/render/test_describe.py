"""The pictures in words (``render.describe``): every game's board and hands, along
random games and at the longest positions, are described within Discord's 1024
characters, say who is to play, and a board's words read only what everyone may see."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bot.workers.render_jobs import alt_text
from engine.continuous_pyramid.geometry import NAMES
from engine.core import Game, Rng, get_game
from i18n import Lang, shared_texts
from render import art_for
from render.art import Art
from render.describe import MAX_DESCRIPTION, describe_board, describe_hand, describe_replay, fit
from tests.fifth_game.art import ART as PEBBLE_ART
from tests.fifth_game.engine import GAME as PEBBLE
from tools.playout import steps

#: (game, players, options): every game, its modes, and the most seats it takes.
TABLES = [
    ("continuous-pyramid", 1, {}),
    ("continuous-pyramid", 1, {"undo": False}),
    ("flaming-pyramids", 2, {}),
    ("flaming-pyramids", 6, {"curse": True}),
    ("pyrinoes", 2, {"target": 30}),
    ("pyramido", 1, {"mode": "solo"}),
    ("pyramido", 4, {"mode": "coop"}),
    ("pyramido", 2, {"mode": "competitive"}),
    ("pyramido", 4, {"mode": "competitive", "rounds": 3}),
]
#: The longest names a picture prints (``render.canvas.clean_name`` keeps 24 characters).
LONG = [f"{chr(65 + i)}{'w' * 22}{i}" for i in range(6)]
LANGS = [shared_texts().lang("en"), shared_texts().lang("de")]


def views(game: Game[Any], state: Any, seat: int | None, players: int) -> dict[str, Any]:
    view = dict(game.view(state, seat))
    view["names"] = LONG[:players]
    view["game_number"] = 2**62
    return view


def positions(game: Game[Any], players: int, options: dict[str, Any], seed: int) -> Iterator[Any]:
    """The deal, every third position of a random game, and where it ended."""
    state = game.setup(players, options, seed)
    yield state
    last = state
    for n, step in enumerate(steps(game, state, Rng(seed * 7 + 1), 600)):
        last = step.state
        if n % 3 == 0:
            yield last
    yield last


def says_who_plays(text: str, view: dict[str, Any], lang: Lang) -> bool:
    if view.get("result") is not None:
        return lang.tr("Game over.").rstrip(".") in text
    seat = view.get("to_act")
    return isinstance(seat, int) and LONG[seat] in text


@pytest.mark.parametrize(("kind", "players", "options"), TABLES, ids=lambda v: str(v))
def test_every_position_is_described_within_the_limit(kind: str, players: int, options: dict[str, Any]) -> None:
    game = get_game(kind)
    art = art_for(kind)
    assert art.describe_board is not None and art.describe_hand is not None
    longest = 0
    for seed in (1, 2):
        for state in positions(game, players, options, seed):
            public = views(game, state, None, players)
            for lang in LANGS:
                board = describe_board(public, art=art, lang=lang)
                assert board.strip() and len(board) <= MAX_DESCRIPTION, board
                assert says_who_plays(board, public, lang), board
                longest = max(longest, len(board))
                for seat in range(players):
                    mine = views(game, state, seat, players)
                    hand = describe_hand(mine, art=art, lang=lang)
                    assert hand.strip() and len(hand) <= MAX_DESCRIPTION, hand
                    assert says_who_plays(hand, mine, lang) or lang.tr("Your turn.").rstrip(".") in hand, hand
                    # the board's words read public parts only, whoever's view they are given
                    assert describe_board(mine, art=art, lang=lang) == board
    assert longest > 100


@pytest.mark.parametrize(("kind", "players", "options"), TABLES[::2], ids=lambda v: str(v))
def test_a_board_says_what_its_picture_shows_in_the_rules_notation(kind: str, players: int,
                                                                   options: dict[str, Any]) -> None:
    game = get_game(kind)
    state = game.setup(players, options, 3)
    for step in steps(game, state, Rng(5), 12):
        state = step.state
    view = views(game, state, None, players)
    text = describe_board(view, lang=LANGS[0])
    first = text.splitlines()[0]
    assert first.startswith(f"{game.title}, game #{2**62}, move ")
    placed: dict[str, Any] = dict(view.get("pyramid") or {})
    for pyramid in view.get("pyramids") or []:
        placed.update(pyramid)
    for piece in view.get("line") or []:
        placed[piece] = piece
    some = sorted(placed)[:3]
    assert some and all(cell in text for cell in some), text


def test_the_longest_positions_fit() -> None:
    """A complete Continuous Pyramid (144 tiles, each row written out), a six-player
    Flaming Pyramids with every tile placed or out, four full competitive pyramids."""
    lang = LANGS[1]
    cp = get_game("continuous-pyramid")
    view = views(cp, cp.setup(1, {}, 1), None, 1)
    view["pyramid"] = {cell: ("B1", "WE", "SP", "DR")[i % 4] for i, cell in enumerate(NAMES)}
    text = describe_board(view, lang=lang)
    assert len(text) <= MAX_DESCRIPTION and "4:0,0 " in text and "1:4,0 " in text, text

    fp = get_game("flaming-pyramids")
    view = views(fp, fp.setup(6, {"curse": True}, 1), None, 6)
    codes = [c for c in view["pyramid"].values()] + [f"{c}{w}" for c in "RGBY" for w in (2, 4, 6, 10, 20, 30, 40)]
    view["pyramid"] = {f"{r},{c}": codes[(r * 9 + c) % len(codes)] for r in range(6) for c in range(6 - r)}
    view["removed"] = [f"{c}{w}" for c in "RGBY" for w in (60, 100, 120)] + ["G1", "Y1", "R7", "B7", "M200"]
    text = describe_board(view, lang=lang, labels={f"{r},6": chr(65 + r) for r in range(5)})
    assert len(text) <= MAX_DESCRIPTION, text

    pd = get_game("pyramido")
    view = views(pd, pd.setup(4, {"mode": "competitive", "rounds": 3}, 1), None, 4)
    full = {f"1:{x},{y}": "R" for x in range(3) for y in range(3)}
    full |= {f"2:{x},{y}": "G" for x in range(2) for y in range(2)} | {"3:0,0": "B"}
    view["pyramids"] = [dict(full) for _ in range(4)]
    view["reserves"] = [["R", "G", "B", "W", "Y"]] * 4
    text = describe_board(view, lang=lang)
    assert len(text) <= MAX_DESCRIPTION and "Ebene 3: B\n" in text and "Reserve: R G B W Y" in text, text


def test_words_too_long_for_any_detail_are_cut_to_the_limit() -> None:
    def wordy(view: dict[str, Any], lang: Lang, detail: int) -> list[str]:
        return ["word " * (400 - detail)]

    art = Art(PEBBLE.id, PEBBLE_ART.board, PEBBLE_ART.hand, None, describe_board=wordy)
    view = views(PEBBLE, PEBBLE.setup(2, {}, 1), None, 2)
    text = describe_board(view, art=art, lang=LANGS[0])
    assert len(text) == MAX_DESCRIPTION and text.endswith("…")
    assert fit(lambda detail: ["x" * (30 - 10 * detail)], 15) == "x" * 10


def test_a_game_without_words_gets_a_sentence_and_a_broken_one_its_header() -> None:
    state = PEBBLE.setup(2, {}, 1)
    view = views(PEBBLE, state, None, 2)
    text = describe_board(view, art=PEBBLE_ART, lang=LANGS[0])
    seat = PEBBLE.to_act(state)
    assert seat is not None
    assert text.splitlines() == [f"{PEBBLE.title}, game #{2**62}, move 0.", f"{LONG[seat]} to play."]

    def broken(view: dict[str, Any], lang: Lang, detail: int) -> list[str]:
        raise KeyError("tile")

    art = Art(PEBBLE.id, PEBBLE_ART.board, PEBBLE_ART.hand, None, describe_board=broken)
    assert alt_text(describe_board, view, art=art) == f"{PEBBLE.title}, game #{2**62}, move 0."


def test_words_follow_the_language_of_the_view_and_a_replay_leads_with_what_it_is() -> None:
    game = get_game("pyrinoes")
    view = views(game, game.setup(2, {}, 4), None, 2)
    english = describe_board(view)
    german = describe_board({**view, "lang": "de"})
    assert "to play" in english and "ist am Zug" in german and german == describe_board(view, lang=LANGS[1])
    replay = describe_replay(view, moves=40, lang=LANGS[0], limit=300)
    assert replay.startswith("Animated replay, 40 moves. The final position:\nPyrinoes") and len(replay) <= 300
