"""The turn clock between clicks: each seat's time bank, away and quiet hours, reminders,
and what an empty bank does."""
