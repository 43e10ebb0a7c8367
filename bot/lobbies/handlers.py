"""Lobbies: gathering players (and AIs) before a game starts, and starting it.

The lobby message is the game's public face until Start: its card lists the seats
and options, and its buttons carry the game id, so they work across restarts.
Starting a game gives it a thread of its own (per the server's setting) and
announces its first board.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Final

import discord
from pydantic import BaseModel

from bot.cards.cards import NEUTRAL, card
from bot.cards.components import button
from bot.cards.custom_ids import CustomId
from bot.core.errors import PlayError
from bot.core.services import Services
from bot.games.presenter import Presenter
from bot.interactions.access import check_at_game, is_server_admin
from bot.interactions.host import Host
from bot.interactions.move_replies import move_reply
from bot.interactions.replies import explain, reader, say_public, tell
from bot.interactions.surfaces import surface_of
from bot.lobbies.form import LobbyOptionsForm
from bot.lobbies.options import refusal
from bot.ratings.texts import unrated_note
from bot.store import GameRecord, LobbyError, SeatRecord
from bot.store.records import AiLevel
from engine.core import EngineError
from engine.core.options import label_of, offered
from i18n import N_, Lang

log = logging.getLogger(__name__)
Interaction = discord.Interaction[Any]
AI_LEVELS: tuple[AiLevel, ...] = ("easy", "normal", "hard")
#: The AI levels as the lobby's menu names them.
AI_NAMES: dict[str, str] = {"easy": N_("Easy AI"), "normal": N_("Normal AI"), "hard": N_("Hard AI")}
#: ... and as its notes name them ("Ana added an AI (normal).").
AI_WORDS: dict[str, str] = {"easy": N_("easy"), "normal": N_("normal"), "hard": N_("hard")}
STATUSES: dict[str, str] = {"lobby": N_("Waiting for players"), "active": N_("Started"), "finished": N_("Finished"),
                            "cancelled": N_("Cancelled")}
#: Threads of games archive after a week without messages (Discord's longest).
ARCHIVE_MINUTES: Final = 10080
#: A lobby shows the server's language; tests and callers without one get English.
ENGLISH = Lang("en")


def describe_options(options: BaseModel, lang: Lang = ENGLISH) -> str:
    """The options as players read them: each by its label ("Turn limit", never ``turn_limit``);
    one left unset (None: the game decides, e.g. by the player count) is not listed."""
    parts = []
    fields = type(options).model_fields
    for name, value in options.model_dump().items():
        if value is None:
            continue
        if value is True:
            shown = lang.tr("on")
        elif value is False:
            shown = lang.tr("off")
        else:
            shown = lang.gettext(value) if isinstance(value, str) else str(value)
        label = label_of(name, fields[name]) if name in fields else name
        parts.append(f"{lang.gettext(label)}: **{shown}**")
    return " · ".join(parts) or lang.tr("standard rules")


def lobby_card(record: GameRecord, seats: list[SeatRecord], presenter: Presenter, *, note: str = "",
               lang: Lang = ENGLISH) -> discord.ui.LayoutView:
    """The lobby as a card (the bot's one look, :mod:`bot.cards.cards`): the game, its
    state, the players, the options and the latest news (``note``), with the lobby's
    buttons while it gathers players."""
    game = presenter.game
    options = game.parse_options(record.options)
    low, high = game.player_range(options)
    title = lang.tr("{emoji} {title} — game #{game}", emoji=presenter.emoji, title=lang.gettext(presenter.title),
                    game=record.id)
    players = "\n".join(f"{s.seat + 1}. {s.display}" for s in seats) or lang.tr("nobody yet")
    heading = (lang.tr("Players ({n}; {low}–{high} needed)", n=len(seats), low=low, high=high) if low != high
               else lang.tr("Players ({n}/{high})", n=len(seats), high=high))
    unrated = unrated_note(presenter.rating, record.options, lang)
    option_text = describe_options(options, lang) + ("\n" + unrated if unrated else "")
    texts = [f"### {title}", lang.gettext(STATUSES[record.status]), f"**{heading}**\n{players}",
             f"**{lang.tr('Options')}**\n{option_text}", note]
    has_options = bool(offered(game.options_model))
    return card(texts, accent=NEUTRAL, controls=lobby_view(record, lang, has_options=has_options,
                                                           full=len(seats) >= high).children)


def lobby_view(record: GameRecord, lang: Lang = ENGLISH, *, has_options: bool = False,
               full: bool = False) -> discord.ui.View:
    """Lobby buttons while it gathers players (⚙️ Options when the game has some to
    set); none once it started or closed. A ``full`` lobby's Join and AI menu are off: a
    seat to take is what they offer."""
    view = discord.ui.View(timeout=None)
    if record.status != "lobby":
        return view
    gid = record.id
    view.add_item(button(CustomId("join", gid, 0), lang.tr("Join"), discord.ButtonStyle.success, row=0,
                         disabled=full))
    view.add_item(button(CustomId("leave", gid, 0), lang.tr("Leave"), row=0))
    view.add_item(button(CustomId("start", gid, 0), lang.tr("Start"), discord.ButtonStyle.primary, row=0))
    view.add_item(button(CustomId("cancel", gid, 0), lang.tr("Cancel"), discord.ButtonStyle.danger, row=0))
    if has_options:
        view.add_item(button(CustomId("lopts", gid, 0), lang.tr("⚙️ Options"), row=0))
    select: discord.ui.Select[Any] = discord.ui.Select(
        custom_id=CustomId("addai", gid, 0).encode(), placeholder=lang.tr("🤖 Add an AI player…"), row=1,
        options=[discord.SelectOption(label=lang.gettext(AI_NAMES[level]), value=level) for level in AI_LEVELS],
        disabled=full,
    )
    view.add_item(select)
    return view


@dataclass(frozen=True)
class Lobby:
    """A lobby as a click finds it: still gathering players, here. ``words`` is the
    server's language, which the lobby message speaks; ``lang`` the clicker's."""

    record: GameRecord
    presenter: Presenter
    low: int
    high: int
    words: Lang
    lang: Lang


LobbyAction = Callable[[Interaction, Lobby], Awaitable[None]]


@dataclass(frozen=True)
class Rematch:
    """What a new lobby carries over from the finished game it is a rematch of (🔁 Rematch): its
    people, invited (each still clicks Join), and its AI seats, seated at once."""

    of: int
    invited: tuple[int, ...] = ()
    ais: tuple[AiLevel, ...] = ()


class Lobbies:
    def __init__(self, services: Services, host: Host) -> None:
        self.services = services
        self.host = host

    # --- /pyramid new ---------------------------------------------------------------
    async def open(self, interaction: Interaction, presenter: Presenter, raw_options: dict[str, Any],
                   lang: Lang | None = None, rematch: Rematch | None = None) -> None:
        """Validate options, create the game, post the lobby (or start a solo game at once).
        Refusals are in ``lang`` (the opener's); the lobby speaks the server's language.
        ``rematch``: the lobby seats the finished game's AIs and invites its people by name."""
        services = self.services
        lang = lang or await reader(interaction, services.languages)
        game = presenter.game
        try:
            options = game.parse_options(raw_options)
        except EngineError as exc:
            await tell(interaction, f"❌ {explain(exc, lang)}")
            return
        _, high = game.player_range(options)
        channel_id = interaction.channel_id
        if channel_id is None:
            await tell(interaction, lang.tr("Start games in a server channel."))
            return
        try:  # one write: the opener's cap on open games, the game and its first seat
            game_id = await services.store.open_game(
                presenter.kind, guild_id=interaction.guild_id, channel_id=channel_id,
                options=options.model_dump(mode="json"), seed=services.new_seed(), created_by=interaction.user.id,
                name=interaction.user.display_name, surface=surface_of(interaction),
            )
        except LobbyError as exc:
            await tell(interaction, f"❌ {explain(exc, lang)}")
            return
        record = await services.store.game_record(game_id)
        assert record is not None
        seats = await services.store.seats(game_id)
        if high == 1:
            await interaction.response.defer(thinking=True)
            await self.start_game(interaction, record, solo=True, lang=lang)
            return
        words = await services.languages.for_guild(record.guild_id)
        invited: list[int] = []
        note = ""
        if rematch is not None:
            for level in rematch.ais:
                await services.store.add_seat(game_id, ai_level=level, limit=high)
            seats = await services.store.seats(game_id)
            invited = [u for u in rematch.invited if u != interaction.user.id]
            note = words.tr("🔁 A rematch of game #{game}.", game=rematch.of)
            if invited:
                note += " " + words.tr("{players}: click **Join** to play again.",
                                       players=", ".join(f"<@{u}>" for u in invited))
        sent = await interaction.response.send_message(
            view=lobby_card(record, seats, presenter, note=note, lang=words),
            allowed_mentions=discord.AllowedMentions(users=[discord.Object(u) for u in invited], roles=False,
                                                     everyone=False))
        # The callback's answer names the message it created: no second request for @original.
        assert sent.message_id is not None
        await services.store.set_message(game_id, "lobby", channel_id, sent.message_id)

    # --- the lobby's buttons --------------------------------------------------------
    async def join(self, interaction: Interaction, game_id: int) -> None:
        await self._act(interaction, game_id, self._join)

    async def leave(self, interaction: Interaction, game_id: int) -> None:
        await self._act(interaction, game_id, self._leave)

    async def add_ai(self, interaction: Interaction, game_id: int, level: str) -> None:
        chosen: AiLevel = next((a for a in AI_LEVELS if a == level), "normal")

        async def add(interaction: Interaction, lobby: Lobby) -> None:
            await self._add_ai(interaction, lobby, chosen)

        await self._act(interaction, game_id, add)

    async def start(self, interaction: Interaction, game_id: int) -> None:
        await self._act(interaction, game_id, self._start)

    async def cancel(self, interaction: Interaction, game_id: int) -> None:
        await self._act(interaction, game_id, self._cancel)

    async def options_form(self, interaction: Interaction, game_id: int) -> None:
        """⚙️ Options: the lobby's options as a form, for the player who opened it."""
        async def show(interaction: Interaction, lobby: Lobby) -> None:
            if lobby.record.created_by != interaction.user.id:
                await tell(interaction, "❌ " + lobby.lang.tr("Only the player who opened this lobby can change "
                                                              "its options."))
                return

            async def submit(submitted: Interaction, chosen: dict[str, Any]) -> None:
                await self._set_options(submitted, game_id, chosen)

            await interaction.response.send_modal(
                LobbyOptionsForm(lobby.presenter, dict(lobby.record.options), lobby.lang, submit))

        await self._act(interaction, game_id, show)

    async def _set_options(self, interaction: Interaction, game_id: int, chosen: dict[str, Any]) -> None:
        """The form's options, checked as ``/pyramid new`` checks them, saved while the
        lobby is open and its players fit; the lobby card shows them."""
        async def change(interaction: Interaction, lobby: Lobby) -> None:
            game, lang = lobby.presenter.game, lobby.lang
            if lobby.record.created_by != interaction.user.id:
                raise PlayError(N_("Only the player who opened this lobby can change its options."))
            refused = refusal(offered(game.options_model), chosen, lang)
            if refused is not None:
                await tell(interaction, f"❌ {refused}")
                return
            try:
                options = game.parse_options({**lobby.record.options, **chosen})
            except EngineError as exc:
                await tell(interaction, f"❌ {explain(exc, lang)}")
                return
            _, high = game.player_range(options)
            await self.services.store.set_lobby_options(game_id, options.model_dump(mode="json"), max_players=high)
            record = await self.services.store.game_record(game_id)
            assert record is not None
            seats = await self.services.store.seats(game_id)
            note = lobby.words.tr("{name} changed the options.", name=interaction.user.display_name)
            await interaction.response.edit_message(view=lobby_card(record, seats, lobby.presenter, note=note,
                                                                    lang=lobby.words))

        await self._act(interaction, game_id, change)

    async def _act(self, interaction: Interaction, game_id: int, action: LobbyAction) -> None:
        """Run a lobby button's ``action`` if the lobby is open and the click comes
        from its channel; every refusal is told to the clicker, in their language."""
        lang = await reader(interaction, self.services.languages)
        lobby = await self._lobby(interaction, game_id, lang)
        if lobby is None:
            return
        try:
            await action(interaction, lobby)
        except (LobbyError, PlayError) as exc:
            await tell(interaction, f"❌ {explain(exc, lang)}")

    async def _lobby(self, interaction: Interaction, game_id: int, lang: Lang) -> Lobby | None:
        record = await self.services.store.game_record(game_id)
        if record is None:
            await tell(interaction, lang.tr("That game no longer exists."))
            return None
        try:  # a forged custom id can name this lobby from anywhere
            check_at_game(interaction, record)
        except PlayError as exc:
            await tell(interaction, f"❌ {explain(exc, lang)}")
            return None
        if record.status != "lobby":
            await tell(interaction, lang.tr("This lobby is closed: the game has started or was cancelled."))
            return None
        presenter = self.services.catalogue.presenter(record.kind)
        low, high = presenter.game.player_range(presenter.game.parse_options(record.options))
        words = await self.services.languages.for_guild(record.guild_id)
        return Lobby(record, presenter, low, high, words, lang)

    async def _join(self, interaction: Interaction, lobby: Lobby) -> None:
        user = interaction.user
        await self.services.store.add_seat(lobby.record.id, user_id=user.id, limit=lobby.high, name=user.display_name)
        await self.refresh(interaction, lobby.record.id, lobby.words.tr("{name} joined.", name=user.display_name),
                           lang=lobby.words)

    async def _leave(self, interaction: Interaction, lobby: Lobby) -> None:
        store, user, game_id, words = self.services.store, interaction.user, lobby.record.id, lobby.words
        seats = await store.seats(game_id)
        mine = next((s for s in seats if s.user_id == user.id), None)
        if mine is None:
            raise LobbyError(lobby.lang.tr("You are not in this lobby."))
        await store.remove_seat(game_id, mine.seat)
        if not [s for s in seats if s.user_id is not None and s.user_id != user.id]:
            await store.set_status(game_id, "cancelled", expect="lobby")
            await self.refresh(interaction, game_id, words.tr("Everyone left; the lobby is closed."), lang=words)
        else:
            await self.refresh(interaction, game_id, words.tr("{name} left.", name=user.display_name), lang=words)

    async def _add_ai(self, interaction: Interaction, lobby: Lobby, level: AiLevel) -> None:
        seats = await self.services.store.seats(lobby.record.id)
        if not any(s.user_id == interaction.user.id for s in seats):
            raise LobbyError(lobby.lang.tr("Join the lobby before adding AI players."))
        await self.services.store.add_seat(lobby.record.id, ai_level=level, limit=lobby.high)
        words = lobby.words
        note = words.tr("{name} added an AI ({level}).", name=interaction.user.display_name,
                        level=words.gettext(AI_WORDS[level]))
        await self.refresh(interaction, lobby.record.id, note, lang=words)

    async def _start(self, interaction: Interaction, lobby: Lobby) -> None:
        seats = await self.services.store.seats(lobby.record.id)
        lang = lobby.lang
        if not any(s.user_id == interaction.user.id for s in seats):
            raise LobbyError(lang.tr("Only players in the lobby can start the game."))
        if len(seats) < lobby.low:
            raise LobbyError(lang.tr("{title} needs at least {low} players; {n} joined so far. Invite someone or "
                                     "add an AI.", title=lang.gettext(lobby.presenter.title), low=lobby.low,
                                     n=len(seats)))
        await interaction.response.defer()
        await self.start_game(interaction, lobby.record, lang=lang)

    async def _cancel(self, interaction: Interaction, lobby: Lobby) -> None:
        record, user = lobby.record, interaction.user
        if user.id != record.created_by and not is_server_admin(interaction, record.guild_id):
            raise LobbyError(lobby.lang.tr("Only the player who opened the lobby (or a server admin) can cancel it."))
        await self.services.store.set_status(record.id, "cancelled", expect="lobby")
        await self.refresh(interaction, record.id, lobby.words.tr("Cancelled by {name}.", name=user.display_name),
                           lang=lobby.words)

    async def refresh(self, interaction: Interaction, game_id: int, note: str = "", *,
                      lang: Lang | None = None) -> None:
        """Show the lobby as it stands now on the message that was clicked (in ``lang``,
        the server's language)."""
        services = self.services
        record = await services.store.game_record(game_id)
        if record is None:
            private = await reader(interaction, services.languages)
            await tell(interaction, private.tr("That game no longer exists."))
            return
        words = lang or await services.languages.for_guild(record.guild_id)
        seats = await services.store.seats(game_id)
        presenter = services.catalogue.presenter(record.kind)
        await interaction.response.edit_message(view=lobby_card(record, seats, presenter, note=note, lang=words))

    # --- starting -----------------------------------------------------------------------
    async def start_game(self, interaction: Interaction, record: GameRecord, *, solo: bool = False,
                         lang: Lang | None = None, private: bool = False) -> None:
        """Set the game up, give it a thread (per the server's setting) and post the first board.
        The starter's private notes are in ``lang``; what the channel reads, in the server's.
        ``private``: a shared deal's game (``bot.core.shared_deals``): a private thread of the
        clicker's whatever the server's setting, and no game at all if none can be opened."""
        services = self.services
        lang = lang or await reader(interaction, services.languages)
        try:
            session = await services.sessions.start(record.id)
        except PlayError as exc:
            await tell(interaction, f"❌ {explain(exc, lang)}")
            return
        presenter = session.presenter
        words = await services.languages.for_guild(record.guild_id)
        if session.record.in_place:
            await self._start_in_place(interaction, session.record.id)
            return
        if private:
            thread_id = await self._private_space(interaction, session.record, presenter, lang=words)
            if thread_id is None:
                await services.store.set_status(record.id, "cancelled")
                services.sessions.forget(record.id)
                await tell(interaction, "❌ " + lang.tr(
                    "I could not open a private thread for your game of this deal here, and a challenge's games "
                    "are never played where others can watch. An admin can give me **Create Private Threads** in "
                    "this channel."))
                return
        else:
            thread_id = await self._play_space(interaction, session.record, presenter, solo=solo, lang=words)
        if thread_id is not None:
            await services.store.set_thread(record.id, thread_id)
            services.sessions.forget(record.id)
        seats = await services.store.seats(record.id)
        fresh = await services.store.game_record(record.id)
        assert fresh is not None
        unproven = session.game.view(session.state, None).get("proven_winnable") is False

        def where(in_lang: Lang) -> str:
            return f"<#{thread_id}>" if thread_id else in_lang.tr("this channel")

        def notice(in_lang: Lang) -> str:
            if not unproven:
                return ""
            return " " + in_lang.tr("This deal is **not proven winnable**: the solver could not prove any deal "
                                    "winnable within its search budget, so this one may have no solution.")

        if private:  # nobody else is told: the game is the entrant's alone until the deal is settled
            await tell(interaction, lang.tr("✅ Your game #{game} started in {where}.", game=record.id,
                                            where=where(lang)) + notice(lang))
        elif solo:
            # Public even after a private defer (a challenge's ▶ Play): the clicker's loading message gets a note.
            await say_public(interaction, words.tr("{emoji} Game #{game} started in {where}.", emoji=presenter.emoji,
                                                   game=record.id, where=where(words)) + notice(words),
                             private_note=lang.tr("✅ Your game #{game} started in {where}.", game=record.id,
                                                  where=where(lang)))
        else:
            note = words.tr("Playing in {where}.", where=where(words)) + notice(words)
            await interaction.edit_original_response(view=lobby_card(fresh, seats, presenter, note=note, lang=words))
        await self.host.delivery.announce(record.id)

    async def _start_in_place(self, interaction: Interaction, game_id: int) -> None:
        """Where only a user install reaches (:mod:`bot.posting.in_place`): the lobby the Start click
        was on (or a solo game's "thinking" answer) becomes the game card, in place, through this
        interaction's own response; AI seats to act first move at once, and the first player is told."""
        in_place = self.host.announcer.in_place
        in_place.handles.keep(game_id, interaction.edit_original_response,
                              interaction.message.id if interaction.message is not None else None)
        await self.host.delivery.announce(game_id, move_reply(interaction, 0))

    async def _private_space(self, interaction: Interaction, record: GameRecord, presenter: Presenter, *,
                             lang: Lang = ENGLISH) -> int | None:
        """A private thread (no invites) with the clicker in it, or None when Discord refuses one."""
        channel = interaction.channel
        if record.guild_id is None or not isinstance(channel, discord.TextChannel):
            return None
        name = f"{lang.gettext(presenter.title)} #{record.id} – {interaction.user.display_name}"
        try:
            thread = await channel.create_thread(name=name[:100], type=discord.ChannelType.private_thread,
                                                 invitable=False, auto_archive_duration=ARCHIVE_MINUTES)
            await thread.add_user(interaction.user)
        except discord.HTTPException as exc:
            log.warning("could not open a private thread for game %s (%s)", record.id, exc)
            return None
        return thread.id

    async def _play_space(self, interaction: Interaction, record: GameRecord, presenter: Presenter, *,
                          solo: bool, lang: Lang = ENGLISH) -> int | None:
        """A thread for the game (named in the server's ``lang``), unless the server plays
        in channels; None means 'play right here'."""
        if record.guild_id is None or record.in_place:
            return None
        settings = await self.services.store.guild_settings(record.guild_id)
        if not settings.use_threads:
            return None
        name = f"{lang.gettext(presenter.title)} #{record.id}"
        if solo:
            name += f" – {interaction.user.display_name}"
        channel = interaction.channel
        try:
            if not solo and interaction.message is not None and isinstance(channel, discord.TextChannel):
                thread = await interaction.message.create_thread(name=name[:100], auto_archive_duration=ARCHIVE_MINUTES)
            elif isinstance(channel, discord.TextChannel):
                thread = await channel.create_thread(
                    name=name[:100], type=discord.ChannelType.public_thread, auto_archive_duration=ARCHIVE_MINUTES
                )
            else:
                return None
        except discord.HTTPException as exc:
            log.warning("could not open a thread for game %s (%s); playing in the channel", record.id, exc)
            return None
        return thread.id
