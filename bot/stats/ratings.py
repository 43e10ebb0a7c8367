"""Ratings as games end, and the numbers ``/pyramid stats`` and the rating
leaderboard show.

:class:`Ratings` follows every game's end (a ``GameEnd``, run from the game's finish
row, so at least once): it works out how the game counts from the state its move log
rebuilds and its seats (``bot.ratings.count_game``) and applies it; the store counts a
game once however often this runs. Cancelled games never reach a finish row, and
``count_game`` would refuse them anyway.
"""

from __future__ import annotations

import logging

from bot.core.session import Session
from bot.games.catalogue import Catalogue
from bot.ratings import EVERYWHERE, GameOutcome, count_game
from bot.ratings.store import RatingStore
from bot.ratings.texts import leaderboard_text, stats_text
from bot.store import CorruptRecord, GameStore
from bot.store.departures import departures_of
from i18n import N_, Lang

log = logging.getLogger(__name__)

#: The leaderboard lists players with at least this many rated games unless asked otherwise.
DEFAULT_MIN_GAMES = 3


class Ratings:
    def __init__(self, store: GameStore, ratings: RatingStore, catalogue: Catalogue) -> None:
        self.store = store
        self.ratings = ratings
        self.catalogue = catalogue

    async def game_finished(self, session: Session) -> None:
        """Count the finished game (once, whatever retries). A damaged move log can't
        be counted, now or by a rebuild: it is logged, and the game's end goes on."""
        try:
            outcome = await self.outcome(session)
        except CorruptRecord as exc:
            log.error("game %s not counted for ratings: %s", session.record.id, exc)
            return
        if outcome is None:
            return
        if await self.ratings.apply(outcome):
            log.info("game %s counted for %s", outcome.game_id, "ratings" if outcome.rated else "records")

    async def outcome(self, session: Session) -> GameOutcome | None:
        record = session.record
        if record.status != "finished":
            return None
        moves = await self.store.moves(record.id)
        outcome = count_game(session.game, session.state, record, session.seats, moves,
                             departures=await departures_of(self.store.db, record.id), catalogue=self.catalogue)
        if outcome is None and any(s.user_id is not None for s in session.seats):
            log.warning("game %s is finished but its log explains no end; it is not counted", record.id)
        return outcome

    async def stats_text(self, user_id: int, guild_id: int | None, *, who: str, game: str | None = None,
                         lang: Lang | None = None) -> str:
        """A player's ratings and records: in this server and across servers (only the
        latter outside a server), in ``lang`` (the reader's)."""
        scopes = [(guild_id, N_("In this server"))] if guild_id is not None else []
        scopes.append((EVERYWHERE, N_("Across servers")))
        standings = await self.ratings.standings_of(user_id, [s for s, _ in scopes])
        records = await self.ratings.records_of(user_id, [s for s, _ in scopes])
        sections = [(heading, [s for s in standings if s.scope == scope], [r for r in records if r.scope == scope])
                    for scope, heading in scopes]
        return stats_text(self.catalogue, who, sections, game=game, lang=lang)

    async def leaderboard_text(self, guild_id: int, kind: str, *, min_games: int = DEFAULT_MIN_GAMES,
                               lang: Lang | None = None) -> str:
        board = await self.ratings.leaderboard(guild_id, kind, min_games=min_games)
        return leaderboard_text(self.catalogue, kind, board, min_games=min_games, lang=lang)
