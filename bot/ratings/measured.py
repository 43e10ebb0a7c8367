"""What the AI levels did against each other: the data the AI seats' ratings are made of.

Written by ``python -m tools.ai_ratings`` (its ``pairings`` and ``turns``; the README's
"Ratings" section has the command and the figures). ``bot.ratings.model`` fits the
ratings from :data:`PAIRINGS` at import, and ``bot.ratings.rules`` takes the shortest
rated Flaming Pyramids ``turn_limit`` from :data:`FLAMING_PYRAMIDS_TURNS`, so a new
measurement is pasted here and nothing else changes.
"""

from __future__ import annotations

from collections.abc import Mapping

#: Per rated game: (first level, second level, wins of the first, games), two seats,
#: every deal played once in each seat order.
PAIRINGS: Mapping[str, tuple[tuple[str, str, float, int], ...]] = {}

#: Flaming Pyramids games between the normal and hard AIs played to their natural end:
#: the turns each took.
FLAMING_PYRAMIDS_TURNS: tuple[int, ...] = ()
