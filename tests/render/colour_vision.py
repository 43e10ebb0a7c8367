"""Colour-vision deficiency simulation (Machado, Oliveira & Fernandes 2009, severity
1.0, applied to linear sRGB) and OKLab distance (Ottosson 2020), for the colour test."""

from __future__ import annotations

import math

RGB = tuple[int, int, int]

MACHADO: dict[str, tuple[tuple[float, float, float], ...]] = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413),
                     (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}


def _linear(c: int) -> float:
    v = c / 255
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def simulate(colour: RGB, kind: str) -> tuple[float, float, float]:
    """``colour`` as seen with ``kind`` (a key of MACHADO, or "normal"), in linear sRGB 0-1."""
    lin = [_linear(c) for c in colour]
    if kind == "normal":
        return (lin[0], lin[1], lin[2])
    m = MACHADO[kind]
    out = [min(1.0, max(0.0, sum(m[i][j] * lin[j] for j in range(3)))) for i in range(3)]
    return (out[0], out[1], out[2])


def oklab(lin: tuple[float, float, float]) -> tuple[float, float, float]:
    r, g, b = lin
    l_ = 0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * b
    m_ = 0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * b
    s_ = 0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * b
    l3, m3, s3 = (math.copysign(abs(v) ** (1 / 3), v) for v in (l_, m_, s_))
    return (0.2104542553 * l3 + 0.7936177850 * m3 - 0.0040720468 * s3,
            1.9779984951 * l3 - 2.4285922050 * m3 + 0.4505937099 * s3,
            0.0259040371 * l3 + 0.7827717662 * m3 - 0.8086757660 * s3)


def distance(a: RGB, b: RGB, kind: str) -> float:
    """OKLab Euclidean distance between ``a`` and ``b`` as seen with ``kind``."""
    pa, pb = oklab(simulate(a, kind)), oklab(simulate(b, kind))
    return math.dist(pa, pb)
