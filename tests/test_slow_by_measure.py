"""Each test the slow list names exists: a renamed or moved test would otherwise come back into the
default suite unnoticed (``tests/slow_by_measure.py``)."""

from __future__ import annotations

from tests.paths import REPO
from tests.slow_by_measure import SLOW_BY_MEASURE


def test_every_listed_test_is_a_test_of_that_file() -> None:
    for nodeid in SLOW_BY_MEASURE:
        path, name = nodeid.split("::")
        source = (REPO / path).read_text(encoding="utf-8")
        function = name.split("[", 1)[0]
        assert f"def {function}(" in source or f"import {function}" in source or f"    {function},\n" in source, nodeid
