"""Imported by multiprocessing's fork server as it starts, and never anywhere else.

multiprocessing offers no hook to run code in the fork server except its preload
list (see ``bot.workers.processes.worker_context``); importing this module there makes the
fork server die with the bot, even when the bot is SIGKILLed."""

from bot.workers.processes import guard_fork_server

guard_fork_server()
