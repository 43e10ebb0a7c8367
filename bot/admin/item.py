"""The server settings' form button, under ``/pyramid-admin settings``."""

from __future__ import annotations

from typing import ClassVar

from bot.admin.form import open_settings_form
from bot.core.services import Services
from bot.interactions.items.base import Component, Interaction


class SettingsFormButton(Component, actions=("setform",)):
    """✏️ Change in a form, under ``/pyramid-admin settings``."""

    services: ClassVar[Services]

    async def handle(self, interaction: Interaction) -> None:
        await open_settings_form(self.services, interaction)
