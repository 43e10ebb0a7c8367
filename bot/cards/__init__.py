"""What players see of a game, as message cards: cards, boards, the chooser, buttons, previews,
what changed since their turn, the fair-deal texts, and the component ids (``custom_ids``)."""
