"""Logging in to Discord's gateway past one process (issue #42): the bot's processes take turns on Discord's
IDENTIFY limit through their shared database, refuse to start when the day's session starts are nearly spent,
slow down a process that keeps restarting, resolve ``PYRAMID_SHARD_COUNT=auto`` from Discord's recommendation,
and warn about a shard with more guilds than Discord allows.

``policy.py`` holds the rules (pure), ``logins.py`` applies them to a client, ``crowding.py`` counts guilds per
shard. The SQL is in ``bot.store.identifies``.
"""
