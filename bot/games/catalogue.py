"""The games the bot offers, found by kind (the engine's game id).

A :class:`Catalogue` is a value: the bot's services carry one, and everything in
the bot gets games, pictures and presenters through it. ``Catalogue.default()``
holds the four games; a test adds a game of its own with ``with_games`` and hands
the result to the bot it starts, and that game then appears wherever games do
(``/pyramid new``'s choices and options, ``/pyramid rules``, the worker pools)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from importlib import import_module
from typing import Any

from bot.games.presenter import Presenter
from engine.core import Game, UnknownGame, game_ids
from engine.core.registry import package_of
from render import Art


@dataclass(frozen=True)
class Catalogue:
    presenters: tuple[Presenter, ...]

    def __post_init__(self) -> None:
        kinds = [p.kind for p in self.presenters]
        repeated = sorted({k for k in kinds if kinds.count(k) > 1})
        if repeated:
            raise ValueError(f"A catalogue holds each game once; given twice: {', '.join(repeated)}.")

    @classmethod
    def default(cls) -> Catalogue:
        """The games the bot ships with, in the order players see them: every game of
        the engine's registry, presented by ``bot.games.<name>`` beside its engine's name."""
        return cls(tuple(_shipped(kind) for kind in game_ids()))

    def with_games(self, *presenters: Presenter) -> Catalogue:
        """This catalogue and ``presenters`` (a kind already held is refused)."""
        return Catalogue((*self.presenters, *presenters))

    @property
    def kinds(self) -> tuple[str, ...]:
        return tuple(p.kind for p in self.presenters)

    def presenter(self, kind: str) -> Presenter:
        """The game ``kind``; :class:`engine.core.UnknownGame` (a message a player can
        read) when the catalogue has none: a record or a forged option may name any."""
        for presenter in self.presenters:
            if presenter.kind == kind:
                return presenter
        raise UnknownGame(f"There is no game called {kind!r}; the games are {', '.join(self.kinds)}.")

    def game(self, kind: str) -> Game[Any]:
        return self.presenter(kind).game

    def art(self, kind: str) -> Art:
        return self.presenter(kind).art

    def __iter__(self) -> Iterator[Presenter]:
        return iter(self.presenters)

    def __len__(self) -> int:
        return len(self.presenters)

    def __contains__(self, kind: object) -> bool:
        return kind in self.kinds


def _shipped(kind: str) -> Presenter:
    module = f"bot.games.{package_of(kind)}"
    presenter = import_module(module).PRESENTER
    if not isinstance(presenter, Presenter) or presenter.kind != kind:
        raise TypeError(f"{module}.PRESENTER must be the Presenter of {kind!r}, not {presenter!r}.")
    return presenter
