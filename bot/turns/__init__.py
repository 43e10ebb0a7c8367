"""Playing a turn: ▶ Your move, the chooser's answers, the previews (✅ Confirm / ↩ Back), ``/pyramid play``,
hands, boards and resigning."""
