"""Where every word on a picture was drawn, so tests can check that words fit.

A picture is built from sections and sprites pasted into one another, so a word's
place in the finished picture is only known once everything is pasted. While
:func:`recording` is on, the drawing kit (``render.canvas``) notes each text it
draws on an image (:func:`note`: the ink box, the font size, and the box the text
must stay inside: the image itself unless the caller names a smaller one), and each
paste carries the pasted image's words into the target (:func:`carry`). Sprites
(tile faces with their numbers) are cached across pictures, so words drawn while a
sprite is built (:func:`building_sprite`) are always noted: the first picture that
drew the sprite may not have been recorded.

Off (the bot), only sprites keep their few words; nothing else is noted. This module
draws nothing and depends on nothing of ours.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace

from PIL import Image

Box = tuple[float, float, float, float]

_RECORDING: ContextVar[bool] = ContextVar("render_textlog_recording", default=False)
#: Words broken across lines while recording (see :func:`note_broken`).
_BROKEN: ContextVar[list[str] | None] = ContextVar("render_textlog_broken", default=None)
_SPRITE: ContextVar[int] = ContextVar("render_textlog_sprite", default=0)
#: The attribute of an image that holds its words (images are not hashable, and the
#: words must die with their image).
_ATTR = "_render_textlog_words"


@dataclass(frozen=True)
class Word:
    """One drawn text: ``box`` its ink, ``limit`` the box it must stay inside, ``size``
    the font's size in px (the em), all in the coordinates of the image it is on."""

    text: str
    box: Box
    limit: Box
    size: float
    #: Drawn on a piece (a sprite): hidden when another piece is laid over it.
    piece: bool = False

    def moved(self, dx: float, dy: float, bounds: Box) -> Word:
        """The word pasted at (dx, dy), its limit cut to the pasted image's ``bounds``
        (a word outside the image it was drawn on is cut off, whatever its limit)."""
        limit = _intersect(self.limit, bounds)
        return replace(self, box=_shift(self.box, dx, dy), limit=_shift(limit, dx, dy))

    def scaled(self, k: float) -> Word:
        return replace(self, box=_scale(self.box, k), limit=_scale(self.limit, k), size=self.size * k)


@contextmanager
def recording() -> Iterator[None]:
    """Note the words of every picture drawn inside the block (see :func:`words`)."""
    token, broken_token = _RECORDING.set(True), _BROKEN.set([])
    try:
        yield
    finally:
        _RECORDING.reset(token)
        _BROKEN.reset(broken_token)


def note_broken(word: str) -> None:
    """``word`` was too wide for any line and was broken across lines (a last resort: the
    fit checks want none on the pictures they draw)."""
    found = _BROKEN.get()
    if found is not None and _RECORDING.get():
        found.append(word)


def broken() -> list[str]:
    """The words broken across lines so far inside the current :func:`recording` block."""
    return list(_BROKEN.get() or ())


@contextmanager
def building_sprite() -> Iterator[None]:
    """Words drawn inside the block are noted even when not recording (cached sprites)."""
    token = _SPRITE.set(_SPRITE.get() + 1)
    try:
        yield
    finally:
        _SPRITE.reset(token)


def active() -> bool:
    return _RECORDING.get() or _SPRITE.get() > 0


def note(img: Image.Image, text: str, box: Box, size: float, limit: Box | None = None) -> None:
    """``text`` was drawn on ``img`` with its ink in ``box``; it must stay inside
    ``limit`` (and always inside ``img``)."""
    if not active() or not text.strip():
        return
    bounds: Box = (0, 0, img.width, img.height)
    _list(img).append(Word(text, box, _intersect(limit, bounds) if limit else bounds, size, _SPRITE.get() > 0))


def carry(target: Image.Image, source: Image.Image, dx: float, dy: float, covers: bool = False) -> None:
    """``source`` was pasted into ``target`` with its top left at (dx, dy). A piece
    that ``covers`` what is under it hides the words of the pieces it is laid on (a
    tile on a tile); other words under it stay, so the checks still see them."""
    if not active():
        return
    bounds: Box = (0, 0, source.width, source.height)
    if covers:
        over = _shift(bounds, dx, dy)
        kept = [w for w in words(target) if not (w.piece and _meets(w.box, over))]
        setattr(target, _ATTR, kept)
    found = words(source)
    if found:
        _list(target).extend(w.moved(dx, dy, bounds) for w in found)


def transform(target: Image.Image, source: Image.Image, k: float = 1.0) -> None:
    """``target`` is ``source`` scaled by ``k`` (or copied, or faded)."""
    found = words(source)
    if found:
        setattr(target, _ATTR, [w.scaled(k) for w in found] if k != 1.0 else found)


def words(img: Image.Image) -> list[Word]:
    """The words noted on ``img`` (empty unless drawn while recording)."""
    return list(getattr(img, _ATTR, ()))


def _list(img: Image.Image) -> list[Word]:
    found: list[Word] | None = getattr(img, _ATTR, None)
    if found is None:
        found = []
        setattr(img, _ATTR, found)
    return found


def _shift(b: Box, dx: float, dy: float) -> Box:
    return (b[0] + dx, b[1] + dy, b[2] + dx, b[3] + dy)


def _scale(b: Box, k: float) -> Box:
    return (b[0] * k, b[1] * k, b[2] * k, b[3] * k)


def _meets(a: Box, b: Box) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


def _intersect(a: Box, b: Box) -> Box:
    return (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))


__all__ = ["Box", "Word", "active", "broken", "building_sprite", "carry", "note", "note_broken", "recording",
           "transform", "words"]
