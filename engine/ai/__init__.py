"""AI players. An AI decides from what its seat may know: before looking at a state
it re-deals everything hidden from that seat (``Game.determinize``), so the true
hidden hands never influence its choice."""

from engine.ai.choose import LEVELS, choose_move

__all__ = ["LEVELS", "choose_move"]
