"""Which language each reader gets.

A channel reads the server's language (``/pyramid-admin settings language:``), since
everyone there reads the same board. A player reads their own: the language they
chose (``/pyramid settings language:``), else the locale their Discord client sends,
else the server's, else English. The client's locale arrives only with interactions,
so it is remembered for the DMs and pings sent later from background work.
"""

from __future__ import annotations

from collections import OrderedDict

import discord

from bot.store import CorruptRecord, GameRecord, GameStore
from bot.store.players import PlayerStore
from i18n import Lang, Texts, language_of

#: How many players' last-seen locales are remembered in memory (to skip rewriting them).
SEEN_CACHE = 4096


class Languages:
    def __init__(self, store: GameStore, players: PlayerStore, texts: Texts) -> None:
        self.store = store
        self.players = players
        self.texts = texts
        self._seen: OrderedDict[int, str] = OrderedDict()

    async def server_language(self, guild_id: int | None) -> str | None:
        """The server's chosen language; None when it chose none, or when its settings
        are damaged (a message must not fail over its language: it goes out in the
        default one, as the bot's own periods apply then)."""
        if guild_id is None:
            return None
        try:
            return (await self.store.guild_settings(guild_id)).language
        except CorruptRecord:
            return None

    async def for_guild(self, guild_id: int | None) -> Lang:
        return self.texts.lang(await self.server_language(guild_id))

    async def for_game(self, record: GameRecord) -> Lang:
        """What a game's own channel reads: the server's language, or for a game played
        in someone's DMs (the daily deal), that player's."""
        if record.guild_id is None and record.created_by is not None:
            return await self.for_user(record.created_by)
        return await self.for_guild(record.guild_id)

    async def for_user(self, user_id: int | None, guild_id: int | None = None) -> Lang:
        if user_id is None:
            return await self.for_guild(guild_id)
        prefs = await self.players.prefs(user_id)
        return self.texts.lang(prefs.language, prefs.discord_locale, await self.server_language(guild_id))

    async def for_interaction(self, interaction: discord.Interaction) -> Lang:
        """The clicking player's language; their client's locale is noted on the way."""
        user_id, locale = interaction.user.id, str(interaction.locale.value)
        await self.note(user_id, locale)
        prefs = await self.players.prefs(user_id)
        server = await self.server_language(interaction.guild_id)
        return self.texts.lang(prefs.language, locale, server)

    async def note(self, user_id: int, locale: str) -> None:
        if self._seen.get(user_id) == locale:
            self._seen.move_to_end(user_id)
            return
        await self.players.note_locale(user_id, locale)
        self._seen[user_id] = locale
        while len(self._seen) > SEEN_CACHE:
            self._seen.popitem(last=False)

    def choice_name(self, code: str) -> str:
        """A language's own name, for menus."""
        return {"en": "English", "de": "Deutsch"}.get(language_of(code), code)
