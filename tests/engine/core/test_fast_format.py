"""Sentences are filled by ``str.format`` where it can (engine.core.text._format): for every
template, names and arguments, the result is the one ``string.Formatter`` gives, or the same
error. Fields are drawn from what templates write: player fields, named fields (some missing),
auto-numbered fields, attribute and index lookups, conversions, format specs, nested specs,
escaped braces and stray braces."""

from __future__ import annotations

import re
import string
from typing import Any

from hypothesis import example, given, settings
from hypothesis import strategies as st

from engine.core.text import _KEEP_PLAYERS, Phrase, _Fields, _format

NAMES = ("alpha", "beta", "gamma")
FIELDS = st.sampled_from([
    "{0}", "{1}", "{2}", "{5}", "{}", "{colour}", "{tile}", "{missing}", "{0!r}", "{tile!s:>8}",
    "{n:03d}", "{n:{width}}", "{0[1]}", "{0.upper}", "{tile:x}", "{{", "}}", "{", "}", "{0:{", "{:>4}",
])
TEXT = st.text(alphabet="abc ,.:!", max_size=4)
TEMPLATES = st.lists(st.one_of(FIELDS, TEXT), max_size=6).map("".join)
VALUES = st.fixed_dictionaries({}, optional={
    "colour": st.sampled_from(["red", "{0}", ""]), "tile": st.sampled_from(["G60", 7, None]),
    "n": st.integers(-5, 500), "width": st.sampled_from([3, "5", "x"]),
})


def outcome(fill: Any, *args: Any) -> tuple[str, Any]:
    """What a fill gives; an object's address in it (``{0.upper}`` of a name made on the fly: a bound
    method's repr) is no part of the text's meaning, and differs between any two fills."""
    try:
        return "ok", re.sub(r" at 0x[0-9a-f]+", " at 0x…", fill(*args))
    except (IndexError, KeyError, ValueError, AttributeError, TypeError) as exc:
        return "error", type(exc)


@settings(max_examples=600, deadline=None)
@example("{0.upper}", _KEEP_PLAYERS, {})  # found by this test: two addresses of the same bound method
@given(TEMPLATES, st.sampled_from([list(NAMES), list(NAMES[:1]), [], _KEEP_PLAYERS, tuple(NAMES)]), VALUES)
def test_the_fast_fill_gives_what_the_formatter_gives(template: str, names: Any, values: dict[str, Any]) -> None:
    fields = _Fields(values)
    assert outcome(_format, template, names, fields) == outcome(
        string.Formatter().vformat, template, names, fields)


def test_a_missing_argument_stays_as_its_field_and_players_can_be_kept() -> None:
    assert Phrase("{0} plays {tile} on {spot}.", {"tile": "G60"}).fill(["Ann"]) == "Ann plays G60 on {spot}."
    assert Phrase("{0} wins {score}.", {"score": 3}).english() == "{0} wins 3."
