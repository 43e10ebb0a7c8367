"""The host runs the games between clicks: it announces moves, plays AI turns, sends
reminders, takes resignations and keeps challenge leaderboards. It is built once per
client from the services and the Discord connection, and handed to the command
groups and the components, which call into it; nothing in here answers an
interaction."""

from __future__ import annotations

from dataclasses import dataclass

import discord

from bot.play.endings.daily import DailyDeals
from bot.play.endings.final_cards import FinalCards
from bot.play.endings.leaderboards import Leaderboards
from bot.play.endings.ratings import Ratings
from bot.play.endings.replays import Replays
from bot.play.endings.resignations import Resignations
from bot.play.posting.announcer import Announcer
from bot.play.posting.channels import Channels
from bot.play.posting.delivery import Delivery
from bot.play.posting.notices import BlockedNotices
from bot.play.posting.pings import Pings
from bot.play.posting.rescue import ThreadRescue
from bot.play.tasks import Tasks
from bot.play.timekeeping.reminders import Reminders
from bot.services import Services
from bot.store.ratings import RatingStore


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
        announcer = Announcer(services, client, channels,
                              game_ends=[leaderboards, ratings, FinalCards(services, client, channels),
                                         Replays(services, client, channels), daily], pings=pings)
        delivery = Delivery(services, announcer, BlockedNotices(services.store, client, pings, services.languages),
                            ThreadRescue(services, client, pings), tasks)
        resignations = Resignations(services, client, channels, delivery)
        reminders = Reminders(services, client, channels, resignations, delivery, pings)
        services.sessions.clocks = reminders.clocks  # each move keeps its mover's time bank
        services.sessions.timeouts = reminders.run_out  # a move after the bank ran out times the seat out
        return cls(channels, leaderboards, announcer, delivery, resignations, reminders, ratings=ratings, daily=daily)
