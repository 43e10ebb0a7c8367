"""Checks every game's position loader makes, with messages a player can read.

A position comes from a stored game, a scenario or a hand-written set-up, so each
number, key and option is checked at the boundary and refused with a
:class:`BadPosition` that names what is wrong; the games' loaders share these
instead of each writing its own.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from engine.core.errors import BadPosition
from engine.core.text import N_, Listing, Phrase, Word

M = TypeVar("M", bound=BaseModel)


def whole(value: Any, what: str, low: int | None = None, high: int | None = None) -> int:
    """``value`` if it is a whole number (never a bool) within ``low``..``high``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadPosition(f"{what} must be a whole number, not {value!r}.")
    if (low is not None and value < low) or (high is not None and value > high):
        raise BadPosition(f"{what} must be {_span(low, high)}, not {value}.")
    return value


def whole_at(position: Mapping[str, Any], key: str, default: int, low: int | None = None,
             high: int | None = None) -> int:
    """:func:`whole` for an optional key of a position, named ``'key'`` in messages."""
    return whole(position.get(key, default), f"'{key}'", low, high)


def _span(low: int | None, high: int | None) -> str:
    if low is not None and high is not None:
        return f"{low} to {high}"
    if low is not None:
        return f"a whole number of at least {low}"
    return f"a whole number of at most {high}"


def only_keys(position: Mapping[str, Any], known: Iterable[str]) -> None:
    """Refuse keys the game does not know: a typo must not be silently ignored."""
    unknown = sorted(set(position) - set(known))
    if unknown:
        raise BadPosition(f"Unknown position key(s): {', '.join(map(repr, unknown))}.")


def position_object(position: Any, title: str, known: Iterable[str], players: int | None = None) -> Mapping[str, Any]:
    """``position`` once it is a JSON object of keys the game ``title`` knows, and, for a
    game with one seat count, of that many ``players`` (the key may be left out)."""
    if not isinstance(position, Mapping):
        raise BadPosition(f"A {title} position must be a JSON object.")
    only_keys(position, known)
    if players is not None and position.get("players", players) != players:
        raise BadPosition(f"{title} is for exactly {players} player{'s' if players != 1 else ''}.")
    return position


def problems(exc: ValidationError) -> str:
    """A pydantic error as one line: ``field: message; field: message``."""
    return "; ".join(
        f"{'.'.join(str(p) for p in err['loc']) or 'options'}: {err['msg']}" for err in exc.errors()
    )


def problem_list(exc: ValidationError) -> Listing:
    """:func:`problems` as translatable text: a model's own refusals (a validator's
    ``ValueError`` whose message is marked with ``N_``) are translated; pydantic's
    generic messages stay English."""
    parts: list[object] = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err["loc"]) or "options"
        cause = (err.get("ctx") or {}).get("error")
        if err["type"] == "value_error" and isinstance(cause, ValueError) and err["msg"] == f"Value error, {cause}":
            message: object = Phrase(N_("Value error, {reason}"), {"reason": Word(str(cause))})
        else:
            message = err["msg"]
        parts.append(Phrase("{where}: {message}", {"where": where, "message": message}))
    return Listing(tuple(parts), "; ")


def options_in(position: Mapping[str, Any], model: type[M]) -> M:
    """The position's ``options`` (absent or null: the defaults) validated by ``model``."""
    raw = position.get("options") or {}
    if not isinstance(raw, Mapping):
        raise BadPosition("'options' must be an object.")
    try:
        return model.model_validate(dict(raw))
    except ValidationError as exc:
        raise BadPosition(f"The position's options are not valid ({problems(exc)}).") from exc
