"""Every game's board and hand render for reachable positions, within Discord's
comfortable limits, and the same view always gives the same bytes."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from functools import cache
from itertools import combinations
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops, ImageFont, ImageStat

from engine.core import BadOptions, Event, Game, Rng, game_ids, get_game
from engine.core.options import Offer, offered
from render import art_for, art_ids, board_image, palette, render_board, render_hand
from render.canvas import encode, font
from render.labels import spot_labels
from render.pyramido import viewer_spots
from tools.gallery.palettes import learn, path_for, with_palettes
from tools.gallery.samples import all_samples, dress, labels_for
from tools.playout import played

MAX_SIDE = 1600
MAX_BYTES = 1_000_000
#: The most moves a random position is played into (long enough to end short games).
MOST_MOVES = 160

FAST = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SLOW = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_png(data: bytes) -> None:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) <= MAX_BYTES
    with Image.open(io.BytesIO(data)) as img:
        assert img.width <= MAX_SIDE and img.height <= MAX_SIDE
        assert img.width >= 300 and img.height >= 150


def option_values(offer: Offer) -> list[Any]:
    if offer.kind == "bool":
        return [True, False]
    if offer.kind == "choice":
        return list(offer.choices)
    return list(dict.fromkeys(v for v in (offer.minimum, offer.default, offer.maximum) if v is not None))


@cache
def option_sets(kind: str) -> tuple[dict[str, Any], ...]:
    """The options players may open a game with, read from the engine: none, and every
    one or two offered values (a number's bounds and default) the game accepts together."""
    game = get_game(kind)
    values = [(o.name, v) for o in offered(game.options_model) for v in option_values(o)]
    pairs = [{a: x, b: y} for (a, x), (b, y) in combinations(values, 2) if a != b]
    return tuple(o for o in [{}, *({name: v} for name, v in values), *pairs] if accepted(game, o))


def accepted(game: Game[Any], options: dict[str, Any]) -> bool:
    try:
        game.parse_options(options)
    except BadOptions:
        return False
    return True


def reach(kind: str, data: st.DataObject) -> tuple[Game[Any], Any, list[Event], int]:
    game = get_game(kind)
    option = data.draw(st.sampled_from(option_sets(kind)), label="options")
    low, high = game.player_range(game.parse_options(option))
    players = data.draw(st.integers(low, high), label="players")
    seed = data.draw(st.integers(0, 2**32 - 1), label="seed")
    moves = data.draw(st.integers(0, MOST_MOVES), label="moves")
    state, events = played(game, game.setup(players, option, seed), Rng(seed), moves)
    return game, state, events, players


def render_all(game: Game[Any], state: Any, events: list[Event], players: int) -> None:
    labels = labels_for(game, state)
    public = dress(game.view(state, None), 7)
    check_png(render_board(public, labels=labels, events=events))
    check_png(render_hand(public))
    for seat in range(players):
        view = dress(game.view(state, seat), 7)
        check_png(render_board(view, labels=labels, events=events))
        check_png(render_hand(view))


@pytest.mark.parametrize("kind", game_ids())
@FAST
@given(data=st.data())
def test_random_positions_render(kind: str, data: st.DataObject) -> None:
    render_all(*reach(kind, data))


@pytest.mark.slow
@pytest.mark.parametrize("kind", game_ids())
@SLOW
@given(data=st.data())
def test_many_random_positions_render(kind: str, data: st.DataObject) -> None:
    render_all(*reach(kind, data))


@pytest.fixture(scope="module")
def samples() -> list[Any]:
    return all_samples()


def test_gallery_positions_render_within_limits(samples: list[Any]) -> None:
    assert {s.game for s in samples} == set(game_ids())
    for s in samples:
        check_png(render_board(s.view, labels=s.labels, events=s.events))
        check_png(render_hand(s.hand_view))


def test_same_view_same_bytes(samples: list[Any]) -> None:
    first = [render_board(s.view, labels=s.labels, events=s.events) for s in samples]
    hands = [render_hand(s.hand_view) for s in samples]
    # again, in reverse order so sprite caches are warm in a different order
    for s, board, hand in reversed(list(zip(samples, first, hands, strict=True))):
        assert render_board(dict(s.view), labels=dict(s.labels), events=list(s.events)) == board, s.name
        assert render_hand(dict(s.hand_view)) == hand, s.name


_DIGEST_SCRIPT = """
import hashlib
from render import render_board, render_hand
from tools.gallery.samples import all_samples
for s in all_samples():
    if s.name.endswith(("-mid", "-fall", "-2p")):
        data = render_board(s.view, labels=s.labels, events=s.events) + render_hand(s.hand_view)
        print(s.name, hashlib.sha256(data).hexdigest())
"""


def test_same_bytes_across_processes() -> None:
    """Nothing may depend on set order or other per-process state (hash seeds)."""
    outputs = []
    for seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        done = subprocess.run([sys.executable, "-c", _DIGEST_SCRIPT], env=env, capture_output=True, text=True,
                              check=True, timeout=120)
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1]
    assert outputs[0].count("\n") >= 4


def test_public_board_never_shows_private_events() -> None:
    game = get_game("flaming-pyramids")
    state = game.setup(3, None, 5)
    seat = game.to_act(state)
    assert seat is not None
    move = game.legal_moves(state)[0]
    state, events = game.play(state, seat, move)
    assert any(e.visible_to is not None for e in events)
    view = dress(game.view(state, None), 1)
    public = [e for e in events if e.visible_to is None]
    assert render_board(view, events=events) == render_board(view, events=public)


def test_names_and_number_are_optional_and_any_name_draws() -> None:
    game = get_game("flaming-pyramids")
    state = game.setup(3, None, 9)
    bare = game.view(state, 0)
    bare.pop("names", None)
    check_png(render_board(bare))
    check_png(render_hand(bare))
    odd = {**bare, "names": ["🐍 Émilie-Ærøskøbing the Magnificent of Everywhere", "", "王小明"], "game_number": 10**9}
    check_png(render_board(odd))
    check_png(render_hand(odd))


def test_flaming_pyramid_auto_fits_a_very_wide_base() -> None:
    game = get_game("flaming-pyramids")
    tiles = [f"{c}{w}" for w in (2, 4, 6, 10, 20, 30, 40, 60, 100, 120) for c in "RGBY"]
    pyramid = {f"0,{i - 20}": t for i, t in enumerate(tiles[:38])}
    position = {"players": 2, "options": {}, "turn": 0, "pyramid": pyramid,
                "hands": [tiles[38:39], tiles[39:40]], "piles": [[], []], "removed": []}
    state = game.from_position(position)
    labels = labels_for(game, state)
    data = render_board(dress(game.view(state, None), 1), labels=labels)
    check_png(data)
    with Image.open(io.BytesIO(data)) as img:
        assert img.width == MAX_SIDE


def test_unknown_game_is_refused() -> None:
    with pytest.raises(ValueError, match="No renderer"):
        render_board({"game": "chess"})


@pytest.mark.parametrize("options", [{"mode": "solo"}, {"mode": "coop"}, {"mode": "competitive"}])
@FAST
@given(seed=st.integers(0, 2**32 - 1), moves=st.integers(0, 80))
def test_pyramido_hand_letters_are_the_buttons_letters(options: dict[str, Any], seed: int, moves: int) -> None:
    """The DM draws letters from the engine's legal_cells; they must be the cells of
    the legal moves, or the letters would not match the buttons."""
    game = get_game("pyramido")
    players = 1 if options["mode"] == "solo" else 2
    state, _ = played(game, game.setup(players, options, seed), Rng(seed), moves)
    seat = game.to_act(state)
    if seat is None:
        return
    expected = labels_for(game, state)
    assert spot_labels(viewer_spots(game.view(state, seat))) == expected


def _a_play(game: Game[Any], state: Any, rng: Rng) -> str:
    """A random tile play, never an undo (a game still going always has one: CP-6)."""
    return rng.choice([m for m in game.legal_moves(state) if m.startswith("play")])


@FAST
@given(seed=st.integers(0, 2**32 - 1), moves=st.integers(0, 120))
def test_continuous_reserve_letters_are_the_buttons_letters(seed: int, moves: int) -> None:
    game = get_game("continuous-pyramid")
    state, _ = played(game, game.setup(1, None, seed), Rng(seed), moves, _a_play)
    view = game.view(state, 0)
    assert spot_labels(c for fit in view["fits"] for c in fit) == labels_for(game, state)


def test_the_shipped_font_is_used() -> None:
    loaded = font(20, True)
    assert isinstance(loaded, ImageFont.FreeTypeFont)
    assert str(loaded.path).endswith("DejaVuSans-Bold.ttf")


def test_every_game_ships_a_palette() -> None:
    """An adaptive palette is for games outside the default table; the four are learnt."""
    assert with_palettes() == art_ids()


@pytest.mark.parametrize("kind", with_palettes())
def test_shipped_palettes_are_what_the_gallery_teaches(kind: str) -> None:
    """Colours changed without `python -m tools.gallery.palettes` would be mapped onto stale ones."""
    art = art_for(kind)
    assert path_for(art).read_bytes() == learn(art), "run `python -m tools.gallery.palettes`"


def test_fixed_palette_pictures_stay_faithful() -> None:
    """Mapping onto the shipped palette loses no more than a learnt-per-picture one would, by much."""
    for s in all_samples():
        img = board_image(s.view, s.labels, s.events).convert("RGB")
        shipped = Image.open(io.BytesIO(encode(img, palette(art_for(s.game))))).convert("RGB")
        own = Image.open(io.BytesIO(encode(img))).convert("RGB")
        error = sum(ImageStat.Stat(ImageChops.difference(img, shipped)).mean) / 3
        baseline = sum(ImageStat.Stat(ImageChops.difference(img, own)).mean) / 3
        assert error < baseline + 2.5, f"{s.name}: mean error {error:.2f} against {baseline:.2f}"
