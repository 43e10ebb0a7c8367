"""Games in play: loading and moving (sessions), announcing what happened (the
outbox, its delivery and the announcer), and the work that happens without a click
(AI turns, reminders, resignations, challenge leaderboards, lost threads, blocked
boards). Nothing here answers an interaction; ``bot.discord`` does that."""
