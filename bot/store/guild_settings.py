"""A server's settings (``/pyramid-admin settings``), read and saved."""

from __future__ import annotations

from bot.store.records import GuildSettings
from bot.store.rows import Rows, _model


class GuildSettingsRows(Rows):
    """A server's settings."""

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        row = await self.db.rows.get("guild_settings", guild_id, lambda: self.db.read_one(
            "SELECT * FROM guild_settings WHERE guild_id = ?", (guild_id,)))
        return _model(GuildSettings, row, f"settings of server {guild_id}") if row else GuildSettings(
            guild_id=guild_id
        )

    async def save_guild_settings(self, settings: GuildSettings) -> None:
        """Write a server's settings, validated again here: a model built without
        validation (``model_construct``) must not slip unbounded values past the
        store. Raises ``ValidationError`` (a ValueError) and writes nothing then."""
        settings = GuildSettings.model_validate(settings.model_dump())
        async with self.db.transaction() as conn:
            await conn.execute(
                "INSERT INTO guild_settings (guild_id, use_threads, reminder_hours, timeout_hours, timeout_action,"
                " max_open_games, language, away_days, away_window_days, increment_hours)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT(guild_id) DO UPDATE SET"
                " use_threads = excluded.use_threads, reminder_hours = excluded.reminder_hours,"
                " timeout_hours = excluded.timeout_hours, timeout_action = excluded.timeout_action,"
                " max_open_games = excluded.max_open_games, language = excluded.language,"
                " away_days = excluded.away_days, away_window_days = excluded.away_window_days,"
                " increment_hours = excluded.increment_hours",
                (settings.guild_id, int(settings.use_threads), settings.reminder_hours, settings.timeout_hours,
                 settings.timeout_action, settings.max_open_games, settings.language, settings.away_days,
                 settings.away_window_days, settings.increment_hours),
            )
