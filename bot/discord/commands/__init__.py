"""The slash commands, one module per area: ``lobby`` (``/pyramid new``), ``play``
(moves, hands, boards, resigning), ``info`` (games, rules, history, leaderboards)
and ``admin`` (``/pyramid-admin``); ``pyramid`` gathers the first three under
``/pyramid``, and ``game_options`` builds ``/pyramid new``'s options from the games'."""
