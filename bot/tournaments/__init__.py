"""Tournaments (issue #40): pure pairing and standings, the stored tournaments, their rounds and cards."""
