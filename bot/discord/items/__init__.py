"""The components players click, one dynamic item per kind, each matching the custom
ids of its own actions (:meth:`bot.custom_ids.CustomId.template`), and a catch-all
for every other id. :func:`bot.discord.items.binding.bound_items` makes the classes
one client registers, bound to that client's handlers."""
