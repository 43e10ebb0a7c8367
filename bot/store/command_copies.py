"""Which server holds the copy of the slash commands made for development.

With ``PYRAMID_DEV_GUILD_ID`` set, the bot copies its commands to that one server,
where Discord shows them at once. Discord keeps that copy after the setting is
unset, and the server's members then see every command twice (the copy and the
global one). So the bot remembers the server it copied to, in the database every
process shares, and clears the copy at the first start without the setting.

It is kept in ``bot_secrets``, the bot's own table of named values (the daily deal's
key lives there too); a server id is no secret, but it is the same kind of value:
one per bot, written by whichever process gets there first.
"""

from __future__ import annotations

from bot.store.database import Database

#: The row's name in ``bot_secrets``.
KEY = "dev_guild_commands"


class CommandCopies:
    def __init__(self, db: Database) -> None:
        self.db = db

    async def remembered(self) -> int | None:
        """The server whose copy of the commands has not been cleared, if any."""
        row = await self.db.read_one("SELECT value FROM bot_secrets WHERE name = ?", (KEY,))
        if row is None:
            return None
        try:
            return int(str(row[0]))
        except ValueError:  # not ours to guess: forget it rather than clear the wrong server
            return None

    async def remember(self, guild_id: int) -> None:
        async with self.db.transaction() as conn:
            await conn.execute(
                "INSERT INTO bot_secrets (name, value, created_at) VALUES (?, ?, ?) "
                "ON CONFLICT(name) DO UPDATE SET value = excluded.value, created_at = excluded.created_at",
                (KEY, str(guild_id), self.db.now()),
            )

    async def forget(self, guild_id: int) -> None:
        """Forget ``guild_id`` (and only it: another process may have remembered a new one)."""
        async with self.db.transaction() as conn:
            await conn.execute("DELETE FROM bot_secrets WHERE name = ? AND value = ?", (KEY, str(guild_id)))
