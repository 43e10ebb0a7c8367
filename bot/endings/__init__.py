"""What follows a game's end and what a final card offers: the final card of a game ended
without a move, 🔁 Rematch and 🔐 Fair deal."""
