"""The store's shared reading: a row's JSON and model checked (a damaged row is a
:class:`~bot.store.records.CorruptRecord`, never a crash), and games read by a fixed
condition; :class:`Rows`, the base every concern's store of ``bot/store`` builds on."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from bot.store.database import Database, Row
from bot.store.records import CorruptRecord, GameRecord

M = TypeVar("M", bound=BaseModel)


def _loads(raw: Any, what: str) -> Any:
    if raw is None:
        return None
    try:
        return json.loads(raw)
    except (TypeError, json.JSONDecodeError) as exc:
        raise CorruptRecord(f"The stored {what} is damaged and cannot be read.") from exc


def _model(model: type[M], row: Mapping[str, Any] | Row, what: str) -> M:
    try:
        return model.model_validate(dict(row))
    except ValidationError as exc:
        raise CorruptRecord(f"The stored {what} is damaged and cannot be read.") from exc


def _game(row: Row) -> GameRecord:
    data = dict(row)
    data["options"] = _loads(data["options"], f"options of game {data.get('id')}")
    data["result"] = _loads(data["result"], f"result of game {data.get('id')}")
    return _model(GameRecord, data, f"game {data.get('id')}")


class Rows:
    """What every concern's store holds: the database; and the one way game rows are listed."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def _games_where(self, where: str, params: Iterable[Any] = (), *, newest: int | None = None
                           ) -> list[GameRecord]:
        """Games matching a fixed SQL condition, oldest first; with ``newest``, only that
        many of the newest (a listing reads a bounded number of rows, however long the
        history). Rows that fail to load are skipped, so one damaged game never hides the
        others from a listing."""
        if newest is None:
            rows = await self.db.read_all(f"SELECT * FROM games WHERE {where} ORDER BY id", tuple(params))
        else:
            rows = list(reversed(await self.db.read_all(f"SELECT * FROM games WHERE {where} ORDER BY id DESC LIMIT ?",
                                                        (*params, newest))))
        games: list[GameRecord] = []
        for row in rows:
            try:
                games.append(_game(row))
            except CorruptRecord:
                continue
        return games
