"""Players' own preferences, one row per Discord user across servers: the locale their
Discord client sends, the language they chose, and whether they preview moves."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from bot.store.database import Database
from bot.store.records import CorruptRecord
from bot.store.rows import _model

Language = Literal["en", "de"]


class PlayerPrefs(BaseModel):
    model_config = ConfigDict(frozen=True)

    user_id: int
    #: What their Discord client last said (``"de"``, ``"en-US"``…), any locale.
    discord_locale: str | None = None
    #: Their own choice, which beats Discord's locale; None: follow Discord.
    language: Language | None = None
    preview: bool = False


class PlayerStore:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def prefs(self, user_id: int) -> PlayerPrefs:
        row = await self.db.rows.get("players", user_id, lambda: self.db.read_one(
            "SELECT user_id, discord_locale, language, preview FROM players WHERE user_id = ?", (user_id,)))
        if row is None:
            return PlayerPrefs(user_id=user_id)
        return _model(PlayerPrefs, row, f"preferences of player {user_id}")

    async def note_locale(self, user_id: int, locale: str) -> None:
        """Remember the locale a player's Discord client sends (kept short: Discord's
        locales are a few letters; anything longer is not one)."""
        locale = locale[:16]
        try:  # nearly every click: a read (from memory on SQLite) rather than a write transaction
            if (await self.prefs(user_id)).discord_locale == locale:
                return
        except CorruptRecord:
            pass  # a damaged row: written over as before
        async with self.db.transaction() as conn:
            await conn.execute(
                "INSERT INTO players (user_id, discord_locale, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT(user_id) DO UPDATE SET discord_locale = excluded.discord_locale,"
                " updated_at = excluded.updated_at"
                " WHERE players.discord_locale IS DISTINCT FROM excluded.discord_locale",
                (user_id, locale, self.db.now()),
            )

    async def choose(self, user_id: int, *, language: Language | Literal["keep"] | None = "keep",
                     preview: bool | None = None) -> PlayerPrefs:
        """Store a player's choices (``language=None`` goes back to Discord's locale;
        ``"keep"``/``None`` leave a field as it is) and return them."""
        current = await self.prefs(user_id)
        updated = current.model_copy(update={
            **({} if language == "keep" else {"language": language}),
            **({} if preview is None else {"preview": preview}),
        })
        updated = PlayerPrefs.model_validate(updated.model_dump())
        async with self.db.transaction() as conn:
            await conn.execute(
                "INSERT INTO players (user_id, discord_locale, language, preview, updated_at) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT(user_id) DO UPDATE SET language = excluded.language, preview = excluded.preview,"
                " updated_at = excluded.updated_at",
                (user_id, updated.discord_locale, updated.language, int(updated.preview), self.db.now()),
            )
        return updated
