"""Notifications that fit each player (issue #39): the gate every ping passes, its rule, the
settings (``/pyramid notify``), the 🔕 button, and the daily digest."""
