"""Announcing what happened: the durable outbox's worker (``delivery``) and the ``announcer``, cards
edited in place, posts through an interaction, what to do when Discord refuses a post (failures,
notices, rescue), the channels, permissions, the global rate limit, AI turns, and ``away``: who may be
pinged now, and the away notices. Game-end followers are handed in, never imported."""
