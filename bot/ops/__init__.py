"""Operating the bot: backups and restores, the start-up lock, health and metrics.

Nothing here knows the games; it deals with files, processes and numbers, so the
operator's commands (``pyramid-bot backup``, ``restore``, ``health``) can run
without a Discord token."""
