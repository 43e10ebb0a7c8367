"""Why a move may not be taken back, in words: the engine's reasons (``engine.core.undo.Revealed``)
as the bot and the terminal game tell them."""

from __future__ import annotations

from engine.core.undo import Revealed
from i18n import N_

REFUSED = {
    Revealed.RANDOM: N_("That move decided something at random, so it cannot be taken back."),
    Revealed.HIDDEN: N_("That move showed something hidden (a tile drawn or turned up), so it cannot be taken "
                        "back."),
    Revealed.NOT_A_MOVE: N_("There is no move to take back."),
}
NOT_YOURS = N_("You can take back only your own last move, before anyone acts after it.")
ONCE = N_("You took this move back once already: one undo per turn.")
