"""Nudging idle players; an empty bank hands the seat to an AI or forfeits it."""
