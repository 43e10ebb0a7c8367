"""The base every clickable component is built on: the dynamic item matching its custom ids
(:meth:`bot.cards.custom_ids.CustomId.template`), what a click carries (``arguments``) and the
catch-all for unknown ids. Each feature holds its own items; :func:`bot.client.binding.bound_items`
binds them to one client's handlers."""
