"""The games as Discord shows them: one presenter per game (names, rules blurbs, how
its moves become clicks) and the catalogue the bot finds them in. No rules live
here; legality always comes from the engine's legal moves."""
