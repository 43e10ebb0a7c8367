"""The jobs the render workers run, in a module of their own that imports no discord.py.

A worker process imports the module of each function it is handed (pickled by
reference). With the jobs in :mod:`bot.workers.rendering`, next to the Discord side,
every worker imported discord.py (about a second of CPU each) on its first job,
mid-load; here it needs only the engine and the renderer, which its warm-up loaded.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.core import Event, Game
from render import Art, render_board, render_hand
from render.describe import MAX_DESCRIPTION, describe_board, header, lang_of
from render.replay import Replay, make_replay

log = logging.getLogger(__name__)


def _board(view: dict[str, Any], labels: dict[str, str], events: list[Event], art: Art) -> bytes:
    return render_board(view, labels=labels, events=events, art=art)


def _hand(view: dict[str, Any], art: Art) -> bytes:
    return render_hand(view, art=art)


@dataclass(frozen=True)
class GameLog:
    """What rebuilds every public position of a game: its rule book, set-up and
    move log (``(seat, move)``, oldest first), and the names and number its
    pictures show (as on its boards), and ``lang``, the language of their words
    (a code such as ``"de"``; None: the default)."""

    game: Game[Any]
    players: int
    options: dict[str, Any]
    seed: int
    moves: tuple[tuple[int, str], ...]
    names: tuple[str, ...]
    number: int
    lang: str | None = None
    #: The stored result of a game that ended outside a move (a resignation, a timeout's forfeit): its
    #: engine state has none, so the last position carries this one and says how the game ended, not
    #: whose turn it was (as its final card does, ``bot.cards.boards.ended_view``).
    ended: dict[str, Any] | None = None

    def positions(self, until: int | None = None) -> tuple[list[dict[str, Any]], list[list[Event]]]:
        """The public view after each of the first ``until`` moves (all by default),
        the deal first, and the public events of the move that led to each (none
        for the deal)."""
        game = self.game
        state = game.setup(self.players, self.options, self.seed)
        views: list[dict[str, Any]] = [self._view(state)]
        events: list[list[Event]] = [[]]
        for seat, move in self.moves[:until]:
            state, happened = game.play(state, seat, move)
            views.append(self._view(state))
            events.append([e for e in happened if e.visible(None)])
        if self.ended is not None and (until is None or until >= len(self.moves)) and game.result(state) is None:
            views[-1]["result"] = dict(self.ended)
        return views, events

    def _view(self, state: Any) -> dict[str, Any]:
        view = dict(self.game.view(state, None))
        view["names"] = list(self.names)
        view["game_number"] = self.number
        if self.lang is not None:
            view["lang"] = self.lang
        return view


@dataclass(frozen=True)
class ReplayBoard:
    """The board after one move of a replay, what that move did (for its caption), and
    the board in words (its alt text)."""

    png: bytes
    events: list[Event]
    description: str = ""


def _replay(log: GameLog, art: Art, max_bytes: int) -> Replay:
    views, events = log.positions()
    return make_replay(views, art=art, events=events, max_bytes=max_bytes)


def _replay_board(log: GameLog, move: int, art: Art) -> ReplayBoard:
    views, events = log.positions(move)
    return ReplayBoard(render_board(views[-1], events=events[-1], art=art), events[-1],
                       alt_text(describe_board, views[-1], art=art))


def alt_text(words: Callable[..., str], view: Mapping[str, Any], **kwargs: Any) -> str:
    """``words(view, **kwargs)`` (``render.describe``'s ``describe_board`` or
    ``describe_hand``), or, should a game's words fail, the picture's header alone (a
    bug in them must not hold a board back): alt text is never empty."""
    try:
        text = str(words(view, **kwargs))
    except Exception:
        log.exception("could not describe a %s picture", view.get("game"))
        text = ""
    if not text.strip():
        text = header(view, lang_of(view, kwargs.get("lang")))
    return text[:MAX_DESCRIPTION]
