"""Animated replays: a valid GIF Discord can play, one frame per position with the
last held longer, every frame showing its position, under the size budget however
long the game (frames dropped evenly, the first and last kept), the same bytes every
time."""

from __future__ import annotations

import dataclasses
import io
import itertools
from functools import cache
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageSequence, ImageStat

from engine.core import Event, Rng, derive_seed, game_ids, get_game
from render import art_for, board_image
from render.canvas import BG
from render.replay import FIRST_MS, FRAME_MS, LAST_MS, MAX_MS, MIN_SCALE, make_replay, render_replay, spread
from tools.playout import steps

#: Players and options of a quick random game of each kind.
SHORT = {
    "flaming-pyramids": (2, {"turn_limit": 12}),
    "continuous-pyramid": (1, {}),
    "pyrinoes": (2, {"target": 10}),
    "pyramido": (1, {"mode": "solo", "size": 4}),
}


@cache
def game_views(kind: str, players: int, options: tuple[tuple[str, Any], ...], seed: int,
               limit: int | None = None) -> tuple[list[dict[str, Any]], list[list[Event]]]:
    """The public view of every position of a random game (names and number as the
    bot adds them), and each move's public events."""
    game = get_game(kind)
    state = game.setup(players, dict(options), seed)

    def dressed(view: dict[str, Any]) -> dict[str, Any]:
        return {**view, "names": [f"Player {i + 1}" for i in range(players)], "game_number": 7}

    views, events = [dressed(game.view(state, None))], [[]]
    for step in steps(game, state, Rng(derive_seed(seed, "replay-test")), limit):
        views.append(dressed(game.view(step.state, None)))
        events.append([e for e in step.events if e.visible(None)])
    return views, events


def short_game(kind: str, limit: int = 24) -> tuple[list[dict[str, Any]], list[list[Event]]]:
    players, options = SHORT[kind]
    return game_views(kind, players, tuple(sorted(options.items())), 3, limit)


def long_flaming_game() -> tuple[list[dict[str, Any]], list[list[Event]]]:
    """A random two-player Flaming Pyramids game of over a thousand moves."""
    views, events = game_views("flaming-pyramids", 2, (("turn_limit", 2000),), 19)
    assert len(views) > 1000
    return views, events


def frames_of(data: bytes) -> list[Image.Image]:
    gif = Image.open(io.BytesIO(data))
    assert gif.format == "GIF" and gif.info.get("loop") == 0, "an animation that loops for ever"
    return [frame.copy() for frame in ImageSequence.Iterator(gif)]


def durations(data: bytes) -> list[int]:
    gif = Image.open(io.BytesIO(data))
    out = []
    for frame in ImageSequence.Iterator(gif):
        out.append(int(frame.info["duration"]))
    return out


def difference(a: Image.Image, b: Image.Image) -> float:
    """Mean absolute difference per channel, 0-255."""
    assert a.size == b.size
    return sum(ImageStat.Stat(ImageChops.difference(a.convert("RGB"), b.convert("RGB"))).mean) / 3


@pytest.mark.parametrize("kind", game_ids())
def test_one_frame_per_position_each_showing_it_and_the_last_held(kind: str) -> None:
    views, events = short_game(kind)
    replay = make_replay(views, events=events)
    assert replay.data[:6] == b"GIF89a"
    assert (replay.positions, replay.frames, replay.scale) == (len(views), len(views), 1.0)
    frames = frames_of(replay.data)
    pictures = [board_image(v, None, e, art=art_for(kind)) for v, e in zip(views, events, strict=True)]
    width, height = max(p.width for p in pictures), max(p.height for p in pictures)
    assert replay.size == (width, height) and frames[0].size == (width, height)
    # Every move changes the picture (its header counts moves), so no frame was merged into another.
    assert len(frames) == len(views)
    assert durations(replay.data) == [FIRST_MS] + [FRAME_MS] * (len(views) - 2) + [LAST_MS]
    for frame, picture in zip(frames, pictures, strict=True):
        # Composited over the frames before it, each frame is its position (within the palette's rounding),
        # centred on the canvas, on the card's background (no dark band under a shorter frame).
        left, top = (width - picture.width) // 2, (height - picture.height) // 2
        rgb = frame.convert("RGB")
        shown = rgb.crop((left, top, left + picture.width, top + picture.height))
        assert difference(shown, picture) < 4
        if picture.height < height:
            band = rgb.crop((0, top + picture.height, width, height))
            assert difference(band, Image.new("RGB", band.size, BG)) < 4


def test_the_same_game_gives_the_same_bytes() -> None:
    views, events = short_game("flaming-pyramids")
    assert render_replay(views, events=events) == render_replay(views, events=events)


def test_a_game_without_a_shipped_palette_gets_one_of_its_own() -> None:
    views, events = short_game("pyrinoes", 12)
    art = dataclasses.replace(art_for("pyrinoes"), palette=None)
    frames = frames_of(render_replay(views, events=events, art=art))
    assert len(frames) == len(views)
    last = board_image(views[-1], None, events[-1], art=art)
    width, height = frames[-1].size
    left, top = (width - last.width) // 2, (height - last.height) // 2
    assert difference(frames[-1].convert("RGB").crop((left, top, left + last.width, top + last.height)), last) < 6


def test_a_very_long_game_fits_the_budget_by_shrinking_then_dropping_frames_evenly() -> None:
    views, events = long_flaming_game()
    budget = 400_000
    replay = make_replay(views, events=events, max_bytes=budget, max_frames=80)
    assert len(replay.data) <= budget
    assert replay.dropped and 2 <= replay.frames < 80 < replay.positions
    assert replay.scale == MIN_SCALE
    frames = frames_of(replay.data)
    assert len(frames) == replay.frames
    assert durations(replay.data)[-1] == LAST_MS
    # The first frame is the deal and the last the final position, both shrunk to the canvas.
    width, height = replay.size
    for frame, index in ((frames[0], 0), (frames[-1], -1)):
        picture = board_image(views[index], None, events[index], art=art_for("flaming-pyramids"))
        small = picture.resize((round(picture.width * MIN_SCALE), round(picture.height * MIN_SCALE)),
                               Image.Resampling.BOX)
        left, top = (width - small.width) // 2, (height - small.height) // 2
        assert abs(top - (height - small.height) / 2) <= 1
        shown = frame.convert("RGB").crop((left, top, left + small.width, top + small.height))
        assert difference(shown, small) < 12


def test_a_long_game_at_the_default_budget_stays_under_discords_limit() -> None:
    views, events = long_flaming_game()
    replay = make_replay(views, events=events, max_frames=120)
    assert len(replay.data) <= 8 * 2**20
    assert replay.frames == 120 and replay.dropped


def test_a_long_game_lasts_at_most_a_minute_with_first_and_last_held() -> None:
    """A thousand-move game: the positions share the minute, the deal and the result held."""
    views, events = long_flaming_game()
    replay = make_replay(views, events=events)
    times = durations(replay.data)
    assert sum(times) <= MAX_MS
    assert sum(times) >= MAX_MS * 0.9  # it does not throw the time away either
    assert times[0] >= FIRST_MS and times[-1] == LAST_MS
    assert max(times[1:-1]) < times[0]


def test_a_short_game_keeps_its_pace() -> None:
    views, events = short_game("pyrinoes", 12)
    times = durations(render_replay(views, events=events))
    assert times[1:-1] == [FRAME_MS] * (len(views) - 2)
    assert sum(times) < MAX_MS


def test_spread_keeps_the_first_and_the_last_evenly() -> None:
    assert spread(5, 10) == [0, 1, 2, 3, 4]
    assert spread(10, 4) == [0, 3, 6, 9]
    assert spread(1000, 2) == [0, 999]
    picked = spread(1688, 300)
    assert len(picked) == 300 and picked[0] == 0 and picked[-1] == 1687
    gaps = {b - a for a, b in itertools.pairwise(picked)}
    assert gaps <= {5, 6}


def test_a_single_position_is_a_still_picture() -> None:
    views, events = short_game("continuous-pyramid", 0)
    frames = frames_of(render_replay(views, events=events))
    assert len(frames) == 1


def test_bad_arguments_are_refused_with_a_reason() -> None:
    views, events = short_game("pyramido", 3)
    with pytest.raises(ValueError, match="at least one position"):
        render_replay([])
    with pytest.raises(ValueError, match="one entry per position"):
        render_replay(views, events=events[:-1])
    with pytest.raises(ValueError, match="pictures of"):
        render_replay(views, art=art_for("pyrinoes"))
