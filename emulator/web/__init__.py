"""A Discord client in the browser, for the emulator: what a person sees and clicks in Discord's app.

``WebClient(emulator)`` serves, on loopback only, a page that shows the emulated server (channels, threads,
DMs with the bot) to one of its users at a time and lets them act as Discord's client lets them: slash commands
with their options, choices and autocomplete, button clicks, select menus, modals, plain messages. Every action
goes through the emulator's own interaction path (``interactions.py``) with the checks Discord's client makes,
so the page can send nothing a Discord client could not. Like the rest of the emulator it knows nothing of the
bot it talks to.
"""

from .server import WebClient

__all__ = ["WebClient"]
