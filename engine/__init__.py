"""Pure, deterministic rules for the games Pyramid Bot hosts.

Nothing in this package touches Discord, files, the network or the clock, so a game
is replayable from (seed, options, moves) alone.
"""
