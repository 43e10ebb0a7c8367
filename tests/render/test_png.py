"""The PNG writer: every palette image comes back from Pillow's reader as the same
indices on the same colours, and equal images give equal files."""

from __future__ import annotations

import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from render.png import palette_png


@st.composite
def palette_images(draw: st.DrawFn) -> Image.Image:
    width, height = draw(st.integers(1, 40)), draw(st.integers(1, 40))
    colours = draw(st.integers(1, 256))
    palette = draw(st.lists(st.integers(0, 255), min_size=3 * colours, max_size=3 * colours))
    pixels = draw(st.lists(st.integers(0, colours - 1), min_size=width * height, max_size=width * height))
    image = Image.frombytes("P", (width, height), bytes(pixels))
    image.putpalette(palette)
    return image


@settings(max_examples=150, deadline=None)
@given(palette_images())
def test_pillow_reads_back_the_same_picture(image: Image.Image) -> None:
    data = palette_png(image)
    back = Image.open(io.BytesIO(data))
    back.load()
    assert back.format == "PNG" and back.mode == "P" and back.size == image.size
    assert back.tobytes() == image.tobytes()  # the same indices
    assert back.convert("RGB").tobytes() == image.convert("RGB").tobytes()
    assert palette_png(image.copy()) == data


def test_a_picture_not_on_a_palette_is_refused() -> None:
    with pytest.raises(ValueError, match="palette image"):
        palette_png(Image.new("RGB", (4, 4)))
