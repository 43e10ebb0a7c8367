"""Which of a game's options players choose when they open a game.

A game's options model is the single description of its options: its fields'
defaults, bounds and descriptions. A front end (the bot's ``/pyramid new``) builds
its parameters from :func:`offered` instead of restating them per game. A field is
offered unless its ``json_schema_extra`` says ``{"lobby": False}``; a field may narrow
its bounds for players (``{"lobby": {"min": 1, "max": 1000}}``) where the model
accepts more for engines and simulations."""

from __future__ import annotations

import dataclasses
import types
from dataclasses import dataclass
from typing import Any, Literal, Union, get_args, get_origin

from pydantic import BaseModel
from pydantic.fields import FieldInfo


@dataclass(frozen=True)
class Offer:
    """One option as a player sees it: a yes/no, a whole number in a range, or a choice."""

    name: str
    kind: Literal["bool", "int", "choice"]
    description: str
    default: Any
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str | int, ...] = ()
    #: Its name as players read it (a msgid: the field's ``title``), never the field's id.
    label: str = ""


def offered(model: type[BaseModel]) -> list[Offer]:
    """The options of ``model`` players may set, in declaration order."""
    offers: list[Offer] = []
    for name, info in model.model_fields.items():
        lobby = _lobby(info)
        if lobby is False:
            continue
        offers.append(_offer(model, name, info, lobby if isinstance(lobby, dict) else {}))
    return offers


def _lobby(info: FieldInfo) -> object:
    extra = info.json_schema_extra
    return extra.get("lobby", True) if isinstance(extra, dict) else True


def _offer(model: type[BaseModel], name: str, info: FieldInfo, lobby: dict[str, Any]) -> Offer:
    description = info.description or name.replace("_", " ")
    return dataclasses.replace(_kind(model, name, info, lobby, description), label=label_of(name, info))


def label_of(name: str, info: FieldInfo) -> str:
    """An option's name as players read it: the field's ``title`` (a msgid), else its id in words."""
    return info.title or name.replace("_", " ").capitalize()


def _kind(model: type[BaseModel], name: str, info: FieldInfo, lobby: dict[str, Any], description: str) -> Offer:
    annotation = _without_none(info.annotation)
    if annotation is bool:
        return Offer(name, "bool", description, info.default)
    if get_origin(annotation) is Literal:
        return Offer(name, "choice", description, info.default, choices=tuple(get_args(annotation)))
    if annotation is int:
        low, high = _bounds(info)
        low = lobby.get("min", low)
        high = lobby.get("max", high)
        return Offer(name, "int", description, info.default, minimum=low, maximum=high)
    raise TypeError(f"{model.__name__}.{name}: only bool, int and Literal options can be offered to players")


def _without_none(annotation: Any) -> Any:
    if get_origin(annotation) in (Union, types.UnionType):
        rest = [a for a in get_args(annotation) if a is not type(None)]
        if len(rest) == 1:
            return rest[0]
    return annotation


def _bounds(info: FieldInfo) -> tuple[int | None, int | None]:
    low: int | None = None
    high: int | None = None
    for item in info.metadata:
        ge = getattr(item, "ge", None)
        le = getattr(item, "le", None)
        if isinstance(ge, int):
            low = ge
        if isinstance(le, int):
            high = le
    return low, high
