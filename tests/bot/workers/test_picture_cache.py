"""Hand pictures drawn once per view: the renderer keeps what it drew and hands the
very same bytes out again for the very same view, never for another seat's or
another position's. Real pictures of a real Flaming Pyramids game, drawn in a real
thread pool (one test: processes); the drawing is counted by wrapping the game's own
hand function, so the count is of drawings, not of the renderer's bookkeeping."""

from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any

import pytest
from PIL import Image
from prometheus_client import generate_latest
from prometheus_client.parser import text_string_to_metric_families

from bot.ops.metrics import Metrics
from bot.workers.rendering import PictureCache, Renderer, view_digest
from engine.flaming_pyramids import GAME
from render import Art, HandFn, hand_view, render_hand
from render.flaming_pyramids import ART


@dataclass(eq=False)
class CountingHand:
    """The game's own hand drawing, counted; ``gate`` (if set) holds each drawing
    until the test opens it, ``fail`` makes the next drawings raise."""

    draw: HandFn
    calls: int = 0
    gate: threading.Event | None = None
    fail: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __call__(self, view: dict[str, Any]) -> Image.Image:
        with self.lock:
            self.calls += 1
            failing = self.fail > 0
            self.fail -= failing
        if self.gate is not None:
            assert self.gate.wait(10), "the test never let the drawing finish"
        if failing:
            raise RuntimeError("the drawing failed")
        return self.draw(view)


def counted() -> tuple[Art, CountingHand]:
    hand = CountingHand(ART.hand)
    return replace(ART, hand=hand), hand


def views(seed: int = 3, moves: int = 2) -> list[dict[str, Any]]:
    """Each seat's view of a two-player game after ``moves`` moves, as the bot dresses them."""
    state = GAME.setup(2, None, seed)
    for _ in range(moves):
        seat = GAME.to_act(state)
        assert seat is not None
        state = GAME.play(state, seat, GAME.legal_moves(state)[0])[0]
    return [{**GAME.view(state, seat), "names": ["ana", "ben"], "game_number": 7} for seat in (0, 1)]


def read(file: Any) -> bytes:
    return bytes(file.fp.read())


@pytest.fixture
async def renderer() -> Any:
    renderer = Renderer.with_threads()
    yield renderer
    renderer.close()


async def test_a_repeated_view_is_drawn_once_and_gives_the_same_bytes(renderer: Renderer) -> None:
    art, hand = counted()
    view = views()[0]
    first = read(await renderer.hand(view, art=art))
    again = [read(await renderer.hand(dict(view), art=art)) for _ in range(3)]
    at_once = [read(f) for f in await asyncio.gather(*(renderer.hand(view, art=art) for _ in range(4)))]
    assert hand.calls == 1
    assert first == render_hand(view, art=ART), "the bytes are those a drawing gives"
    assert set(again) == set(at_once) == {first}
    assert renderer.pictures() == {("board", "drawn"): 0, ("hand", "drawn"): 1, ("hand", "reused"): 7}


async def test_requests_made_while_it_is_drawn_wait_for_that_drawing(renderer: Renderer) -> None:
    art, hand = counted()
    hand.gate = threading.Event()
    view = views()[1]
    first = asyncio.ensure_future(renderer.hand(view, art=art))
    second = asyncio.ensure_future(renderer.hand(view, art=art))
    await asyncio.sleep(0.05)
    first.cancel()  # the caller that started the drawing goes away; the other still gets it
    hand.gate.set()
    assert read(await second) == render_hand(view, art=ART)
    with pytest.raises(asyncio.CancelledError):
        await first
    assert hand.calls == 1
    assert read(await renderer.hand(view, art=art)) == render_hand(view, art=ART) and hand.calls == 1


async def test_seats_never_share_a_picture(renderer: Renderer) -> None:
    art, hand = counted()
    mine, theirs = views()
    assert mine["hands"][0] != theirs["hands"][1]
    pictures = [read(await renderer.hand(v, art=art)) for v in (mine, theirs, mine, theirs)]
    assert hand.calls == 2
    assert pictures[0] != pictures[1]
    assert pictures[0] == pictures[2] == render_hand(mine, art=ART)
    assert pictures[1] == pictures[3] == render_hand(theirs, art=ART)
    # The same seat holding other tiles (all else alike) is another picture.
    other = {**mine, "hands": [list(reversed(mine["hands"][0])), *mine["hands"][1:]]}
    assert read(await renderer.hand(other, art=art)) == render_hand(other, art=ART) != pictures[0]
    assert hand.calls == 3


async def test_another_position_or_game_number_is_drawn_afresh(renderer: Renderer) -> None:
    art, hand = counted()
    before, after = views(moves=2)[0], views(moves=3)[0]
    elsewhere = {**before, "game_number": 8}
    for view in (before, after, elsewhere):
        assert read(await renderer.hand(view, art=art)) == render_hand(view, art=ART)
    assert hand.calls == 3


def test_the_digest_tells_apart_what_a_drawing_could_tell_apart() -> None:
    class Name(str):
        pass

    base = views()[0]
    assert view_digest(base) == view_digest(dict(base)) is not None
    distinct: list[dict[str, Any]] = [
        {"a": [1]}, {"a": (1,)}, {"a": 1}, {"a": 1.0}, {"a": True}, {"a": "1"}, {"a": None},
        {"a": {"b": 1}}, {"a": [["b", 1]]}, {"a": 1, "b": 2}, {"b": 2, "a": 1}, {"a": ["l", 1]},
    ]
    digests = [view_digest(v) for v in distinct]
    assert None not in digests and len(set(digests)) == len(distinct)
    assert view_digest({"a": Name("x")}) is None, "a str subclass could draw differently: not cached"
    assert view_digest({"a": object()}) is None and view_digest({"a": {1: "x"}}) is None


async def test_a_view_that_is_not_plain_data_is_drawn_every_time(renderer: Renderer) -> None:
    class Name(str):
        pass

    art, hand = counted()
    view = {**views()[0], "names": [Name("ana"), "ben"]}
    for _ in range(2):
        assert read(await renderer.hand(view, art=art)) == render_hand(view, art=ART)
    assert hand.calls == 2 and renderer.pictures()["hand", "reused"] == 0


async def test_a_failed_drawing_is_not_kept(renderer: Renderer) -> None:
    art, hand = counted()
    hand.fail = 1
    view = views()[0]
    with pytest.raises(RuntimeError, match="the drawing failed"):
        await renderer.hand(view, art=art)
    assert read(await renderer.hand(view, art=art)) == render_hand(view, art=ART)
    assert read(await renderer.hand(view, art=art)) == render_hand(view, art=ART)
    assert hand.calls == 2
    assert renderer.pictures() == {("board", "drawn"): 0, ("hand", "drawn"): 1, ("hand", "reused"): 1}


async def test_the_cache_keeps_each_seats_latest_picture_up_to_its_bounds() -> None:
    art, hand = counted()
    renderer = Renderer(ThreadPoolExecutor(max_workers=1), hand_cache=2)
    try:
        mine, theirs = views(moves=1)
        elsewhere = {**mine, "game_number": 8}
        for view in (mine, theirs, mine, elsewhere):  # a third seat pushes out the one seen least recently
            await renderer.hand(view, art=art)
        assert hand.calls == 3
        await renderer.hand(mine, art=art)
        assert hand.calls == 3
        assert read(await renderer.hand(theirs, art=art)) == render_hand(theirs, art=ART)
        assert hand.calls == 4
        # the seat's next picture (the next view in which its hand changed) takes its place
        later = next(v for k in range(2, 9) if hand_view(v := views(moves=k)[0], ART) != hand_view(mine, ART))
        await renderer.hand(later, art=art)
        assert read(await renderer.hand(mine, art=art)) == render_hand(mine, art=ART)
        assert hand.calls == 6
    finally:
        renderer.close()
    cache = PictureCache(entries=10, size=100)
    cache.put("a", b"1", b"x" * 60)
    cache.put("b", b"2", b"y" * 30)
    cache.put("c", b"3", b"z" * 101)  # bigger than the whole cache: not kept
    assert len(cache) == 2 and cache.nbytes == 90 and cache.get("c", b"3") is None
    assert cache.get("a", b"2") is None, "a slot serves only the view it was drawn from"
    cache.put("b", b"4", b"v" * 20)
    assert cache.get("b", b"2") is None and cache.get("b", b"4") == b"v" * 20 and cache.nbytes == 80
    cache.put("c", b"5", b"w" * 30)  # 110 bytes: the slot used least recently goes
    assert cache.get("a", b"1") is None and cache.get("b", b"4") == b"v" * 20 and cache.nbytes == 50
    none = PictureCache(entries=0, size=100)
    none.put("a", b"1", b"x")
    assert len(none) == 0


async def test_in_worker_processes_the_picture_is_kept_in_the_bot() -> None:
    renderer = Renderer.with_processes(1, [ART])
    try:
        view = views()[0]
        pictures = [read(await renderer.hand(view, art=ART)) for _ in range(2)]
        assert pictures[0] == pictures[1] == render_hand(view, art=ART)
        assert renderer.pictures()["hand", "drawn"] == 1 and renderer.pictures()["hand", "reused"] == 1
    finally:
        renderer.close()


async def test_the_metrics_endpoint_counts_pictures_drawn_and_reused(renderer: Renderer) -> None:
    metrics = Metrics()

    def samples() -> dict[tuple[str, str], float]:
        page = generate_latest(metrics.registry).decode()
        return {(s.labels["picture"], s.labels["source"]): s.value
                for family in text_string_to_metric_families(page) if family.name == "pyramid_pictures"
                for s in family.samples}

    assert samples() == {}
    metrics.watch(render_queue=renderer.queue_depth, ai_queue=lambda: 0, outbox_backlog=None,
                  pictures=renderer.pictures)
    assert samples() == {("board", "drawn"): 0, ("hand", "drawn"): 0, ("hand", "reused"): 0}
    view = views()[0]
    for _ in range(3):
        await renderer.hand(view, art=ART)
    await renderer.board({**GAME.view(GAME.setup(2, None, 3), None), "names": ["ana", "ben"]}, art=ART)
    assert samples() == {("board", "drawn"): 1, ("hand", "drawn"): 1, ("hand", "reused"): 2}
