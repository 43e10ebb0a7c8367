"""Reading a game record's JSON within limits: a record is an untrusted file (anyone
may hand one to ``pyramid-bot verify`` or ``replay``), and Python's JSON reader fails
with a ``RecursionError`` on deep nesting and a ``ValueError`` on a number of
thousands of digits, or spends its time on a huge file.

A real record is far inside every limit: a few hundred kilobytes for the longest
game, nested six deep, with 20-digit seeds at most.
"""

from __future__ import annotations

import json
import re
from typing import Any

#: The largest record read, in bytes.
MAX_BYTES = 8 * 1024 * 1024
#: The deepest nesting of lists and objects.
MAX_DEPTH = 32
#: The longest number, in characters (a 64-bit seed has 20 digits).
MAX_NUMBER = 40

_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_BRACKETS = re.compile(r"[\[\]{}]")


class TooLarge(ValueError):
    """The file is beyond a limit; the message names which, in one sentence."""


def nesting(text: str) -> int:
    """How deep lists and objects nest in ``text`` (brackets inside strings don't count)."""
    depth = deepest = 0
    for bracket in _BRACKETS.finditer(_STRINGS.sub('""', text)):
        depth += 1 if bracket.group() in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def _number(text: str) -> int | float:
    if len(text) > MAX_NUMBER:
        raise TooLarge(f"The record holds a number of {len(text)} characters; a record's numbers have at most "
                       f"{MAX_NUMBER}.")
    return float(text) if any(c in text for c in ".eE") else int(text)


def _constant(text: str) -> Any:
    raise TooLarge(f"The record holds {text}, which is not a JSON number.")


def load_json(data: str | bytes) -> Any:
    """``json.loads`` within the limits; :class:`TooLarge` names the first one broken
    (and ``UnicodeDecodeError`` / ``JSONDecodeError`` come through as from ``json``)."""
    if len(data) > MAX_BYTES:
        raise TooLarge(f"The record is {len(data):,} bytes; a record is at most {MAX_BYTES:,} bytes.")
    text = data.decode("utf-8") if isinstance(data, bytes) else data
    depth = nesting(text)
    if depth > MAX_DEPTH:
        raise TooLarge(f"The record nests {depth} levels deep; a record nests at most {MAX_DEPTH}.")
    try:
        return json.loads(text, parse_int=_number, parse_float=_number, parse_constant=_constant)
    except RecursionError:  # the nesting count above keeps this from happening; never a traceback all the same
        raise TooLarge(f"The record nests too deep; a record nests at most {MAX_DEPTH}.") from None
