"""Game options (validated at the boundary by the contract's ``parse_options``)."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.core.text import N_


class CPOptions(BaseModel):
    """``undo`` is on by default (CP-6). ``winnable_only`` makes set-up skip deal numbers
    until the solver proves one winnable within a fixed node budget, so the chosen deal
    still depends on the seed alone."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    undo: bool = Field(default=True, title=N_("Undo"), description=N_("allow taking plays back (default on)"))
    winnable_only: bool = Field(default=False, title=N_("Winnable deals only"),
                                description=N_("deal only deals the solver proved winnable"))
    #: Not a player's choice: games stored before the second edition of the rulings
    #: are marked 1 by a migration and keep the first edition's CP-2 geometry (the top
    #: cell on ``3:1,1``), so their move logs replay exactly as they were played.
    edition: Literal[1, 2] = Field(default=2, description="Rules edition the game is played under (CP-2).",
                                   json_schema_extra={"lobby": False})
