"""Where the shared rule material lives: ``../shared`` beside the checkout, or
``PYRAMID_SHARED`` when a clone sits elsewhere."""

from __future__ import annotations

import os
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("PYRAMID_SHARED", REPO.parent / "shared"))
SHARED_SCENARIOS = SHARED / "scenarios"
OWN_SCENARIOS = REPO / "tests" / "engine" / "scenarios"
