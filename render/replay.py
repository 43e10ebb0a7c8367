"""A whole game as one animated GIF, which Discord plays inline.

``render_replay(views, *, art=None, events=None, labels=None, frame_ms=FRAME_MS,
last_ms=LAST_MS, max_bytes=MAX_BYTES, max_frames=MAX_FRAMES) -> bytes``
    One frame per position (``views[0]`` the deal, then one after each move), each
    the public board as :func:`render.board_image` draws it (``events[i]``: what move
    ``i`` did, so the frame rings it; ``labels[i]``: letters to draw, usually none),
    ``frame_ms`` each and the last held for ``last_ms``. :func:`make_replay` does
    the same and says what it had to give up (:class:`Replay`).

Why GIF: Discord plays an animated GIF attachment inline on every client (desktop,
web, mobile). Animated WebP would be smaller, but Discord has not played it inline
reliably on every client, and an animation that might not move defeats the purpose.

The file must stay under ``max_bytes`` (Discord refuses a bot's attachment above
10 MiB) whatever the game's length. So:

- every frame is mapped onto one shared palette: the game's shipped palette less
  its most redundant colour, whose index then marks "unchanged" pixels; a frame
  stores only the box around what changed since the previous one, with the pixels
  that did not change in it transparent, so a move costs 10-35 KB at full size
  rather than a whole picture's 50-60 KB;
- at most ``max_frames`` positions are drawn (evenly spread, the first and the last
  always kept), which bounds the worker's time and memory for any game;
- if the file is still too big it is encoded again smaller: first scaled down (to
  :data:`MIN_SCALE`: Discord shows pictures about 550 px wide anyway), then with
  frames dropped evenly, the first and the last always kept. An encoding stops as
  soon as it passes the budget, and the bytes per frame it measured size the next.

Boards grow as a game goes on, so every frame sits centred on a canvas of the largest
one's size, on the card's background colour.

A replay lasts at most :data:`MAX_MS` (a minute) whatever the game's length: the deal is
held :data:`FIRST_MS`, the result ``last_ms``, and the positions between share the
rest (``frame_ms`` each at most, :data:`MIN_FRAME_MS` at least: beyond that, fewer
positions are drawn, evenly spread).

Frames are drawn once and kept zlib-packed (a few tens of KB each), and the GIF is
written frame by frame, so memory stays small however long the game. Output depends
only on the arguments (no clock, no randomness): the same game gives the same bytes.
"""

from __future__ import annotations

import io
import math
import struct
import zlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import GifImagePlugin, Image, ImageChops

from engine.core import Event
from render import board_image, palette
from render.art import Art
from render.canvas import BG
from render.registry import art_for

#: How long each position shows at most, the first (the deal) and the last one (the
#: result) before the loop restarts.
FRAME_MS = 600
FIRST_MS = 1500
LAST_MS = 3000
#: A whole replay lasts at most this long, whatever the game's length: a long game's
#: positions show shorter (down to MIN_FRAME_MS), and beyond that fewer are drawn.
MAX_MS = 60_000
MIN_FRAME_MS = 150
#: Under Discord's 10 MiB attachment limit for bots, with room for the request around it.
MAX_BYTES = 8 * 2**20
#: Positions drawn at most: 300 frames are three minutes of animation, and a few
#: seconds of drawing in a worker.
MAX_FRAMES = 300
#: Scaled down no further than this before frames are dropped: boards are drawn
#: ~900-1000 px wide, and Discord shows pictures inline about 550 px wide.
MIN_SCALE = 0.6
#: Last resort, only for a budget too small for two frames at MIN_SCALE.
FLOOR_SCALE = 0.1
#: The palette index of "unchanged since the previous frame" (no colour uses it).
CLEAR = 255
#: A new attempt aims this far below the budget, so one estimate usually suffices.
MARGIN = 0.92
#: Behind frames smaller than the largest (boards grow as a game goes on): the card's
#: own background, so a shorter frame shows no band.
MAT = BG


@dataclass(frozen=True)
class Replay:
    """A replay and what it took to fit: ``positions`` given, ``frames`` in the GIF
    (fewer when some were dropped), the ``scale`` they were drawn at, the GIF's
    ``size`` in pixels, and ``attempts`` (encodings tried)."""

    data: bytes
    positions: int
    frames: int
    scale: float
    size: tuple[int, int]
    attempts: int

    @property
    def dropped(self) -> bool:
        """Some positions are not in the animation (it steps over several moves at a time)."""
        return self.frames < self.positions


def render_replay(
    views: Sequence[Mapping[str, Any]], *, art: Art | None = None,
    events: Sequence[Sequence[Event]] | None = None, labels: Sequence[Mapping[str, str]] | None = None,
    frame_ms: int = FRAME_MS, last_ms: int = LAST_MS, max_bytes: int = MAX_BYTES, max_frames: int = MAX_FRAMES,
) -> bytes:
    """The GIF bytes of :func:`make_replay`."""
    return make_replay(views, art=art, events=events, labels=labels, frame_ms=frame_ms, last_ms=last_ms,
                       max_bytes=max_bytes, max_frames=max_frames).data


def make_replay(
    views: Sequence[Mapping[str, Any]], *, art: Art | None = None,
    events: Sequence[Sequence[Event]] | None = None, labels: Sequence[Mapping[str, str]] | None = None,
    frame_ms: int = FRAME_MS, last_ms: int = LAST_MS, max_bytes: int = MAX_BYTES, max_frames: int = MAX_FRAMES,
) -> Replay:
    """Draw the positions and encode them as small as :data:`MAX_BYTES` asks (see the module)."""
    if not views:
        raise ValueError("A replay needs at least one position.")
    for name, extra in (("events", events), ("labels", labels)):
        if extra is not None and len(extra) != len(views):
            raise ValueError(f"{name} must have one entry per position ({len(extra)} for {len(views)}).")
    if frame_ms < 20 or last_ms < 20:
        raise ValueError("Frames must show for at least 20 ms (browsers slow shorter ones down).")
    if max_frames < 2:
        raise ValueError("A replay keeps at least its first and last positions.")
    art = art if art is not None else art_for(str(views[0].get("game")))
    chosen = spread(len(views), min(max_frames, most_frames(first_ms=min(FIRST_MS, last_ms), last_ms=last_ms)))
    drawn = [board_image(dict(views[i]), dict(labels[i]) if labels is not None else None,
                         list(events[i]) if events is not None else None, art=art).convert("RGB") for i in chosen]
    colours = _palette(art, drawn)
    frames = [_Packed.of(img.quantize(palette=colours, dither=Image.Dither.NONE)) for img in drawn]
    del drawn
    keep, scale, attempts = list(range(len(frames))), 1.0, 0
    while True:
        attempts += 1
        written = _encode(frames, keep, scale, colours, frame_ms, last_ms, max_bytes)
        if isinstance(written, bytes):
            width, height = _canvas(frames, scale)
            return Replay(written, len(views), len(keep), scale, (width, height), attempts)
        keep, scale = _smaller(keep, scale, written, max_bytes)


def most_frames(*, first_ms: int = FIRST_MS, last_ms: int = LAST_MS, max_ms: int = MAX_MS,
                min_frame_ms: int = MIN_FRAME_MS) -> int:
    """How many positions fit in ``max_ms`` with the first and last held and every other
    shown at least ``min_frame_ms``."""
    return max(2, 2 + (max_ms - first_ms - last_ms) // min_frame_ms)


def durations(count: int, frame_ms: int, last_ms: int, *, first_ms: int = FIRST_MS, max_ms: int = MAX_MS) -> list[int]:
    """Each frame's time in ms: the first held ``first_ms`` (at least ``frame_ms``), the
    last ``last_ms``, the others ``frame_ms``, or less (in GIF's 10 ms steps) so that
    the whole lasts at most ``max_ms``."""
    if count == 1:
        return [last_ms]
    first = max(frame_ms, min(first_ms, last_ms))
    middle = count - 2
    each = frame_ms
    if middle and first + last_ms + middle * frame_ms > max_ms:
        each = max(20, (max_ms - first - last_ms) // middle // 10 * 10)
    return [first] + [each] * middle + [last_ms]


def spread(total: int, most: int) -> list[int]:
    """At most ``most`` of ``range(total)``, evenly spaced, the first and the last included."""
    if total <= most:
        return list(range(total))
    if most < 2:
        return [0] if most == 1 else []
    return sorted({round(i * (total - 1) / (most - 1)) for i in range(most)})


# --- the palette ------------------------------------------------------------------------
def _palette(art: Art, frames: Sequence[Image.Image]) -> Image.Image:
    """255 colours for every frame (index 255 stays free for :data:`CLEAR`): the game's
    shipped palette without the colour closest to another one, or, for a game that
    ships none, one chosen from its first and last positions."""
    shipped = palette(art)
    if shipped is not None:
        raw = shipped.getpalette() or []
        entries = [tuple(raw[i:i + 3]) for i in range(0, min(len(raw), 768), 3)]
        if len(entries) >= 256:
            entries.pop(_most_redundant(entries))
        flat = [c for entry in entries[:255] for c in entry]
    else:
        ends = [frames[0], frames[-1]]
        mosaic = Image.new("RGB", (max(f.width for f in ends), sum(f.height for f in ends)), MAT)
        y = 0
        for f in ends:
            mosaic.paste(f, (0, y))
            y += f.height
        learnt = mosaic.quantize(254, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
        flat = (learnt.getpalette() or [])[:254 * 3] + list(MAT)  # the mat is always there to map to
    image = Image.new("P", (1, 1))
    image.putpalette(flat)
    return image


def _most_redundant(entries: Sequence[tuple[int, ...]]) -> int:
    """The index of the later of the two closest colours (it is missed the least)."""
    best, drop = math.inf, len(entries) - 1
    for j in range(1, len(entries)):
        b = entries[j]
        for i in range(j):
            a = entries[i]
            d = (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 + (a[2] - b[2]) ** 2
            if d < best:
                best, drop = d, j
    return drop


# --- frames -----------------------------------------------------------------------------
@dataclass(frozen=True)
class _Packed:
    """A palette frame kept zlib-packed between encodings (a tenth of its size)."""

    size: tuple[int, int]
    data: bytes

    @classmethod
    def of(cls, img: Image.Image) -> _Packed:
        return cls(img.size, zlib.compress(img.tobytes(), 1))

    def image(self, colours: Image.Image) -> Image.Image:
        img = Image.frombytes("P", self.size, zlib.decompress(self.data))
        img.putpalette(colours.getpalette() or [])
        return img


def _canvas(frames: Sequence[_Packed], scale: float) -> tuple[int, int]:
    """The GIF's size: the largest frame's, scaled."""
    width, height = max(f.size[0] for f in frames), max(f.size[1] for f in frames)
    return max(1, round(width * scale)), max(1, round(height * scale))


def _frames(frames: Sequence[_Packed], keep: Sequence[int], scale: float,
            colours: Image.Image) -> Iterator[Image.Image]:
    """The kept frames, each centred on a canvas of the largest one's size (on the
    card's background), then scaled. Every canvas is scaled by
    the very same factor, so what did not change between two frames stays the same
    pixels (and costs nothing in the GIF)."""
    width, height = _canvas(frames, 1.0)
    mat = _mat_index(colours)
    for index in keep:
        img = frames[index].image(colours)
        if img.size != (width, height):
            canvas = Image.new("P", (width, height), mat)
            canvas.putpalette(colours.getpalette() or [])
            canvas.paste(img, ((width - img.width) // 2, (height - img.height) // 2))
            img = canvas
        if scale != 1.0:
            img = img.convert("RGB").resize(_canvas(frames, scale), Image.Resampling.BOX)
            img = img.quantize(palette=colours, dither=Image.Dither.NONE)
        yield img


def _mat_index(colours: Image.Image) -> int:
    raw = colours.getpalette() or []
    entries = [tuple(raw[i:i + 3]) for i in range(0, len(raw), 3)][:CLEAR]
    return min(range(len(entries)), key=lambda i: sum((a - b) ** 2 for a, b in zip(entries[i], MAT, strict=True)))


# --- writing ------------------------------------------------------------------------------
@dataclass(frozen=True)
class _TooBig:
    """An encoding stopped once it passed the budget: the bytes and frames it had written."""

    written: int
    frames: int
    header: int


def _encode(frames: Sequence[_Packed], keep: Sequence[int], scale: float, colours: Image.Image,
            frame_ms: int, last_ms: int, max_bytes: int) -> bytes | _TooBig:
    """The GIF of the ``keep`` frames, or how far it got before passing ``max_bytes``."""
    out = io.BytesIO()
    width, height = _canvas(frames, scale)
    raw = (colours.getpalette() or [])[:CLEAR * 3]
    table = bytes(raw) + bytes(768 - len(raw))
    out.write(b"GIF89a" + struct.pack("<HHBBB", width, height, 0xF7, _mat_index(colours), 0) + table)
    out.write(b"!\xff\x0bNETSCAPE2.0\x03\x01" + struct.pack("<H", 0) + b"\x00")  # loop for ever
    header = out.tell()
    times = durations(len(keep), frame_ms, last_ms)
    previous: Image.Image | None = None
    pending: tuple[Image.Image, tuple[int, int], int] | None = None  # written when its duration is known
    count = 0
    for img, duration in zip(_frames(frames, keep, scale, colours), times, strict=True):
        if previous is None:
            pending = (img, (0, 0), duration)
        else:
            delta = ImageChops.subtract_modulo(img, previous)
            box = delta.getbbox(alpha_only=False)
            if box is None:  # the same picture: the one before shows longer
                assert pending is not None
                pending = (pending[0], pending[1], pending[2] + duration)
                continue
            assert pending is not None
            _write_frame(out, *pending)
            count += 1
            if out.tell() > max_bytes:
                return _TooBig(out.tell(), count, header)
            part = img.crop(box)
            unchanged = delta.crop(box).point([255, *(0,) * 255], "1")
            part.paste(CLEAR, mask=unchanged)
            pending = (part, (box[0], box[1]), duration)
        previous = img
    assert pending is not None
    _write_frame(out, *pending)
    count += 1
    out.write(b";")
    if out.tell() > max_bytes:
        return _TooBig(out.tell(), count, header)
    return out.getvalue()


def _write_frame(out: io.BytesIO, img: Image.Image, offset: tuple[int, int], duration: int) -> None:
    """One frame: drawn over the previous one (disposal 1), its :data:`CLEAR` pixels
    showing what was there. Pillow writes the graphic control block, the image
    descriptor (no local colour table: the global one serves every frame) and the LZW data."""
    for chunk in GifImagePlugin.getdata(img, offset, duration=duration, disposal=1, transparency=CLEAR):
        out.write(chunk)


def _smaller(keep: list[int], scale: float, too_big: _TooBig, max_bytes: int) -> tuple[list[int], float]:
    """The next attempt, from how far the failed one got. First the pictures shrink,
    in one step to :data:`MIN_SCALE` (about the width Discord shows them at; a smaller
    picture packs worse per pixel, so shrinking in small steps gains little); then
    frames go, as many as the bytes per frame just measured say, aiming ``MARGIN``
    below the budget; and only for a freakishly small budget the pictures shrink further."""
    if scale > MIN_SCALE:
        return keep, MIN_SCALE
    per_frame = max(1.0, (too_big.written - too_big.header) / max(1, too_big.frames))
    wanted = max(0.0, max_bytes * MARGIN - too_big.header)
    need = min(0.9, wanted / (per_frame * len(keep)))  # at least a tenth smaller each time
    if len(keep) > 2:
        count = max(2, min(len(keep) - 1, math.floor(len(keep) * need)))
        return [keep[i] for i in spread(len(keep), count)], scale
    if scale > FLOOR_SCALE:
        return keep, max(FLOOR_SCALE, scale * math.sqrt(need))
    raise ValueError(f"Even two frames at {FLOOR_SCALE:.0%} size do not fit in {max_bytes} bytes.")


__all__ = [
    "FIRST_MS",
    "FRAME_MS",
    "LAST_MS",
    "MAX_BYTES",
    "MAX_FRAMES",
    "MAX_MS",
    "MIN_FRAME_MS",
    "MIN_SCALE",
    "Replay",
    "durations",
    "make_replay",
    "most_frames",
    "render_replay",
    "spread",
]
