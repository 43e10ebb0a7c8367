"""What follows a game's end: ratings, leaderboards, the fair-deal reveal, the replay GIF,
the daily deal; and who may see a shared deal's games."""
