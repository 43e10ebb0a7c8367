"""The ratings players see: each finished game rated as it ends, ``/pyramid stats`` and the rated
leaderboard (the rating maths is :mod:`bot.ratings`)."""
