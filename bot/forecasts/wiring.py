"""Where forecasts, forced moves and undo hook into the games between clicks (``Host.build``
calls :func:`wire_turn_helpers` once per client): as a person's move is written
(``SessionService.undoable``) whether its hand card offers ↩ Take back; after every move
(``SessionService.follower``) a forecast whose turn came is played; the sweep
(``Reminders.autoplay``, before it asks the clock) catches up on forecasts a crash left unplayed
and plays forced moves whose grace is over."""

from __future__ import annotations

from datetime import datetime

from bot.core.services import Services
from bot.forecasts.autoplay import Announces, AutoPlayer
from bot.forecasts.lines import Forecaster
from bot.forecasts.undo import Undos
from bot.reminders.reminders import Reminders
from bot.store import GameRecord


def wire_turn_helpers(services: Services, delivery: Announces, reminders: Reminders) -> None:
    forecaster = Forecaster(services.store, services.sessions)
    forecaster.delivery = delivery
    autoplayer = AutoPlayer(services.store, services.sessions, delivery)
    services.sessions.follower = forecaster.after_move
    services.sessions.undoable = Undos(services.store, services.sessions).offered

    async def before_the_clock(record: GameRecord, now: datetime) -> bool:
        return await forecaster.look(record.id) or await autoplayer.play_if_forced(record, now)

    reminders.autoplay = before_the_clock
