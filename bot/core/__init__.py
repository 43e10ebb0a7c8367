"""The game sessions and what every part of the bot shares: a game in memory and its moves under a
per-game lock (``session``, ``session_service``), the announcement plan written with each move, errors
in words, background tasks, who reads which language, the visibility rule (who may see which game),
shared deals, the command links, and ``Services``, the dependency bag built once. No discord.py here but
``languages`` (``Languages.for_interaction`` reads an interaction's locale)."""
