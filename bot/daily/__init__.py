"""The daily deal: its command and buttons, the deal and its results board, its streaks and
store queries."""
