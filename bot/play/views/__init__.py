"""What players see of a game: cards, boards, the chooser, buttons, previews, and what
changed since their turn."""
