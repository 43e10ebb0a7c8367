"""Opening a Continuous Pyramid challenge (``/pyramid new ... challenge:true``) and
entering one (its ▶ Play this deal button).

Each player gets their own game of the same deal (same seed and options), in a
private thread of their own, so nobody sees another's boards (whose refills tell the
face-down stock) until the challenge has closed and every game of it is over
(:mod:`bot.core.shared_deals`). A private thread, rather than the board sent
privately: it keeps the game where the challenge is, with its reminders, its
commands and Discord's notifications, for as long as a correspondence game lasts (a
private reply expires with its interaction after 15 minutes), and Discord itself
keeps rivals out. The leaderboard message in the channel
(:mod:`bot.leaderboards.leaderboards`) shows scores only, edited as results come in. A
challenge takes entries for :data:`bot.core.shared_deals.CHALLENGE_DAYS` days.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.cards.cards import note
from bot.core.services import Services
from bot.core.shared_deals import closes_at, is_closed
from bot.interactions.access import ELSEWHERE, at_place
from bot.interactions.host import Host
from bot.interactions.replies import defer_private, explain, reader, tell
from bot.leaderboards.leaderboards import CHALLENGE_KIND, challenge_view
from bot.lobbies.handlers import Lobbies
from bot.store import LobbyError
from bot.store.lobbies import AlreadyEntered
from i18n import Lang

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]


class Challenges:
    def __init__(self, services: Services, host: Host, lobbies: Lobbies) -> None:
        self.services = services
        self.host = host
        self.lobbies = lobbies

    async def open(self, interaction: Interaction, options: dict[str, Any], lang: Lang | None = None) -> None:
        """Post a new challenge of a deal with ``options``, with its (empty) leaderboard."""
        services = self.services
        parsed = services.catalogue.game(CHALLENGE_KIND).parse_options(options)
        if interaction.channel_id is None:
            lang = lang or await reader(interaction, services.languages)
            await tell(interaction, lang.tr("Start a challenge in a server channel."))
            return
        challenge_id = await services.store.create_challenge(
            guild_id=interaction.guild_id, channel_id=interaction.channel_id, seed=services.new_seed(),
            options=parsed.model_dump(mode="json"), created_by=interaction.user.id,
        )
        words = await services.languages.for_guild(interaction.guild_id)  # the channel reads it
        text = await self.host.leaderboards.challenge_text(challenge_id, words)
        sent = await interaction.response.send_message(view=note(text, controls=challenge_view(challenge_id,
                                                                                                 words).children),
                                                       allowed_mentions=discord.AllowedMentions.none())
        assert sent.message_id is not None  # the callback's answer names the message: no GET of @original
        await services.store.set_challenge_message(challenge_id, sent.message_id)

    async def play(self, interaction: Interaction, challenge_id: int) -> None:
        """▶ Play this deal: the clicker's own game of it, started at once."""
        services = self.services
        lang = await reader(interaction, services.languages)
        challenge = await services.store.get_challenge(challenge_id)
        if challenge is None:
            await tell(interaction, lang.tr("That challenge no longer exists."))
            return
        if not at_place(interaction, challenge.guild_id, {challenge.channel_id}):  # custom ids can be forged
            await tell(interaction, f"❌ {lang.gettext(ELSEWHERE)}")
            return
        if is_closed(challenge, services.db.clock()):
            await tell(interaction, lang.tr("Challenge #{number} is closed: it took entries until {when}.",
                                            number=challenge.id, when=f"<t:{int(closes_at(challenge).timestamp())}>"))
            return
        try:  # check and create in one write: a double click makes one game
            game_id = await services.store.open_game(
                CHALLENGE_KIND, guild_id=challenge.guild_id, channel_id=challenge.channel_id,
                options=challenge.options, seed=challenge.seed, created_by=interaction.user.id,
                name=interaction.user.display_name, challenge_id=challenge.id,
            )
        except AlreadyEntered as exc:
            existing = await services.store.game_record(exc.game_id)
            if existing is not None:
                text = lang.tr("You already have a game of this deal (#{game}) in {channel}.", game=exc.game_id,
                               channel=f"<#{existing.play_channel_id}>")
            else:
                text = lang.tr("You already have a game of this deal (#{game}).", game=exc.game_id)
            await tell(interaction, text)
            return
        except LobbyError as exc:
            await tell(interaction, f"❌ {explain(exc, lang)}")
            return
        await defer_private(interaction)
        record = await services.store.game_record(game_id)
        assert record is not None
        await self.lobbies.start_game(interaction, record, solo=True, lang=lang, private=True)
        await self.host.leaderboards.refresh(challenge.id)
