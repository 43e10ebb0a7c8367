"""Win leaderboards: a server's and a challenge's, kept current as games end."""
