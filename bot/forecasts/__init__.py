"""Fewer days lost to misclicks and obvious turns (issue #41): taking a move back
(:mod:`bot.forecasts.undo`, its command :mod:`bot.forecasts.commands`)."""
