"""``/pyramid settings``: a player's own language and previews."""
