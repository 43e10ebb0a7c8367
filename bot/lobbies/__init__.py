"""Opening a game: ``/pyramid new`` (a lobby, a solo game, or a challenge), the lobby and its
buttons, its options and their form, and challenges (a deal many play, each alone)."""
