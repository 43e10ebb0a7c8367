"""Leaving a game early: by ``/pyramid resign`` or an empty bank."""
