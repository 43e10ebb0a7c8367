"""``/pyramid`` questions about games: games, rules, status, history, the win leaderboards."""
