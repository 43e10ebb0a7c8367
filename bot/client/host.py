"""The host runs the games between clicks: it announces moves, plays AI turns, sends
reminders, takes resignations and keeps challenge leaderboards. It is built once per
client from the services and the Discord connection, and handed to the command
groups and the components, which call into it; nothing in here answers an
interaction."""

from __future__ import annotations

from dataclasses import dataclass

import discord

from bot.core.services import Services
from bot.core.tasks import Tasks
from bot.daily.deals import DailyDeals
from bot.endings.final_cards import FinalCards
from bot.forecasts.wiring import wire_turn_helpers
from bot.leaderboards.leaderboards import Leaderboards
from bot.posting.announcer import Announcer
from bot.posting.channels import Channels
from bot.posting.delivery import Delivery
from bot.posting.notices import BlockedNotices
from bot.posting.pings import Pings
from bot.posting.rescue import ThreadRescue
from bot.ratings.store import RatingStore
from bot.reminders.reminders import Reminders
from bot.replays.gifs import Replays
from bot.resignations.resignations import Resignations
from bot.stats.ratings import Ratings


@dataclass(frozen=True)
class Host:
    channels: Channels
    leaderboards: Leaderboards
    announcer: Announcer
    delivery: Delivery
    resignations: Resignations
    reminders: Reminders
    ratings: Ratings
    daily: DailyDeals

    @classmethod
    def build(cls, services: Services, client: discord.Client, tasks: Tasks, pings: Pings) -> Host:
        """``client`` is the connection the host posts through; ``tasks`` holds what it starts; ``pings``
        is the notification gate (``bot.notifications.gate``), which every message that may buzz asks."""
        channels = Channels(client)
        leaderboards = Leaderboards(services.store, services.catalogue, client, services.languages)
        ratings = Ratings(services.store, RatingStore(services.db), services.catalogue)
        daily = DailyDeals(services, client, channels)
        final_cards, replays = FinalCards(services, client, channels), Replays(services, client, channels)
        announcer = Announcer(services, client, channels,
                              game_ends=[leaderboards, ratings, final_cards, replays, daily], pings=pings)
        final_cards.seat_dms = replays.seat_dms = announcer.seat_dms  # games in DMs: each seat's DM gets them
        delivery = Delivery(services, announcer, BlockedNotices(services.store, client, pings, services.languages),
                            ThreadRescue(services, client, pings), tasks)
        resignations = Resignations(services, client, channels, delivery)
        reminders = Reminders(services, client, channels, resignations, delivery, pings)
        services.sessions.clocks = reminders.clocks  # each move keeps its mover's time bank
        services.sessions.timeouts = reminders.run_out  # a move after the bank ran out times the seat out
        wire_turn_helpers(services, delivery, reminders)  # forecasts and forced moves (issue #41)
        return cls(channels, leaderboards, announcer, delivery, resignations, reminders, ratings=ratings, daily=daily)
