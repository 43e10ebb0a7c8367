"""The bot's Discord side: the client, its command tree (``/pyramid`` and
``/pyramid-admin``), the components players click, and how interactions are
answered. Handlers get the services and the host (:mod:`bot.play.host`) they
need when they are built; nothing reaches them through the client."""
