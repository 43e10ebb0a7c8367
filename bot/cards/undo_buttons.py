"""The buttons of issue #41 on a hand card: ↩ Take back after a move its player may take back
(the hand row's ``{"undo": true}``, ``plan(undoable=…)``), 🔮 Forecast while its player waits.
Their clicks are ``bot.forecasts.items``."""

from __future__ import annotations

from typing import Any

import discord

from bot.cards.components import button
from bot.cards.custom_ids import CustomId
from i18n import Lang


def take_back_button(game_id: int, version: int, lang: Lang) -> discord.ui.Button[Any]:
    """↩ Take back: the click runs ``/pyramid undo``'s checks, for this move only."""
    return button(CustomId("undo", game_id, version), lang.gettext("↩ Take back"))


def forecast_button(game_id: int, version: int, lang: Lang) -> discord.ui.Button[Any]:
    """🔮 Forecast: the player's lines as a form (``bot.forecasts.form``)."""
    return button(CustomId("fcast", game_id, version), lang.gettext("🔮 Forecast"))
