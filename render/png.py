"""PNG files of palette images, written here rather than by Pillow.

Pillow deflates with the zlib the system lends it (Debian's 1.2.13 on our machines),
and that deflate was half of a render worker's time: about 2 ms of a picture's 6.
Intel's ISA-L (``isal``) deflates the same rows eight times as fast at the same size
(a 900×930 board: 2.8 ms → 0.35 ms, 46 KB either way). A palette PNG is a small,
fixed format (PNG specification, sections 5 and 11: signature, IHDR, PLTE, IDAT,
IEND), so writing it is a few lines; Pillow still reads every file we write (the
tests decode them and compare the pixels).

Every row uses filter type 0 (none), as Pillow does for palette images: a palette
index is not a quantity, so the predictive filters only cost time. The bytes depend
on the image and ISA-L's version alone (no timestamp), so equal pictures are equal
files.
"""

from __future__ import annotations

import struct
import zlib

from isal import isal_zlib
from PIL import Image

SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: ISA-L's levels are 0-3; 2 gave the smallest files of our boards at no extra time (measured: 0.33 ms, 46 KB
#: for a 900×930 board, against level 1's 0.37 ms, 46 KB and level 0's 0.33 ms, 53 KB).
LEVEL = 2


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


def palette_png(indexed: Image.Image) -> bytes:
    """The PNG file of a "P" image: 8 bits an index, its palette's colours, no transparency."""
    if indexed.mode != "P":
        raise ValueError(f"palette_png needs a palette image, not mode {indexed.mode}")
    width, height = indexed.size
    # Each row is its filter byte (0) and then its indices: the image one column wider, pasted one column
    # in, is exactly that, and Pillow gives its bytes in one call.
    rows = Image.new("P", (width + 1, height), 0)
    rows.paste(indexed, (1, 0))
    colours = indexed.getpalette("RGB") or [0, 0, 0]
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8-bit indices, colour type 3 (palette)
    return b"".join((
        SIGNATURE,
        _chunk(b"IHDR", header),
        _chunk(b"PLTE", bytes(colours[: 3 * 256])),
        _chunk(b"IDAT", isal_zlib.compress(rows.tobytes(), LEVEL)),
        _chunk(b"IEND", b""),
    ))


__all__ = ["palette_png"]
