"""``/pyramid away``, ``back`` and ``quiet``: a player's time away and quiet hours."""
