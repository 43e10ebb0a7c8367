"""What every feature's commands and components share: replies, access and finding a game,
surfaces, command input checks, failures, the translator, permission checks, the command sync, the
``Host`` features are handed, and the dynamic-item base (``items``)."""
