"""Game options, validated at the boundary so the bot can show a readable reason."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engine.core.text import N_

#: The ``mode`` choices as words players read (marked for translation).
MODE_NAMES = {"solo": N_("solo"), "coop": N_("coop"), "competitive": N_("competitive")}


class PyramidoOptions(BaseModel):
    """``size`` picks the solo/coop pyramid (5, or 4 for the 40-stone small edition);
    the competitive size follows the player count, so it is not an option there.
    ``rounds`` is the competitive multi-round variant (PD-6)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    mode: Literal["solo", "coop", "competitive"] = Field(default="solo", title=N_("Mode"),
                                                         description=N_("solo, co-op or competitive"))
    size: Literal[4, 5] | None = Field(
        default=None, title=N_("Pyramid size"),
        description=N_("solo/co-op: 5 (65 stones) or 4 (small edition, 40 stones)"),
    )
    rounds: int = Field(default=1, title=N_("Rounds"), ge=1, le=20, description=N_("competitive: number of rounds"),
                        json_schema_extra={"lobby": {"min": 1, "max": 10}})

    @model_validator(mode="after")
    def _consistent(self) -> PyramidoOptions:
        if self.mode == "competitive" and self.size is not None:
            raise ValueError(N_("the competitive pyramid size follows the player count (4×4 for 2, 3×3 for 3-4)"))
        if self.mode != "competitive" and self.rounds != 1:
            raise ValueError(N_("several rounds are a competitive option"))
        return self

    def base(self) -> int:
        return 5 if self.size is None else self.size
