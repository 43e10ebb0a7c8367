"""Work too slow for the event loop, in pools of worker processes (or threads in
tests): AI moves, set-ups and replays (:mod:`bot.workers.cpu`), pictures
(:mod:`bot.workers.rendering`), and the process machinery both share
(:mod:`bot.workers.processes`)."""
