"""The game record: what ``/pyramid history`` hands out as a file, documented in
docs/game-record.md.

A record is a game told in full: its kind, options and players, the seal over its
deal (and, once it may be shown, the seed and salt under the seal), every move with
the story the board told for it, and the result. ``pyramid-bot verify`` re-plays it
from scratch and ``pyramid-bot replay`` draws it again, so it is a document people
keep: the shape is versioned. Readers accept version 1; a change old readers could
misread (a field renamed, removed or given another meaning) bumps the version, while
a new optional field does not (readers ignore fields they do not know).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bot.records.limits import TooLarge, load_json

#: The ``format`` every record carries, so a file is known for what it is.
FORMAT: Final = "pyramid-bot/game-record"
#: The version this code writes and reads.
VERSION: Final = 1

AiLevel = Literal["easy", "normal", "hard"]


class RecordProblem(Exception):
    """The first thing wrong with a record, as one sentence a player can read."""


class _Part(BaseModel):
    #: Unknown fields are ignored: adding an optional field keeps version 1 readable.
    model_config = ConfigDict(frozen=True, extra="ignore")


class Player(_Part):
    seat: int = Field(ge=0)
    #: The name the pictures and the stories use (not a Discord mention).
    name: str
    #: The AI level when the bot played this seat from the start; None for a person.
    ai: AiLevel | None = None
    #: The person left the game (resigned or timed out). A two-player or solo game
    #: ended there; in a bigger game an easy AI played the seat on.
    resigned: bool = False
    #: How the person left: "resigned", "timed out", or None (stayed; an AI seat).
    left: Literal["resigned", "timed out"] | None = None
    #: The moves made when they left (0: before the first); None when they stayed, or
    #: left before the bot noted when (games before format 1's ``left`` fields).
    left_after: int | None = Field(default=None, ge=0)
    #: The AI that played the seat from then on (None: the game ended there, or nobody left).
    then_ai: AiLevel | None = None


class Move(_Part):
    #: 1, 2, 3 …: the move's number, as on the board ("move 3").
    seq: int = Field(ge=1)
    seat: int = Field(ge=0)
    #: In the notation of the game's rules file (what ``/pyramid play`` takes).
    move: str
    #: When it was made: ISO-8601, UTC.
    at: str
    #: What the board said the move did: the public events' narration, one line
    #: each, with the players' names from ``players``.
    story: list[str] = Field(default_factory=list)
    #: The bot's AI made this move (an AI seat, or a seat after its person left).
    ai: bool = False
    #: The bot made this move for its person: "auto" (their only legal move, ``/pyramid
    #: autoplay``) or "forecast" (a line of their ``/pyramid forecast`` matched). Absent: they made it.
    made: Literal["auto", "forecast"] | None = None


class Record(_Part):
    format: Literal["pyramid-bot/game-record"] = FORMAT
    version: Literal[1] = VERSION
    #: The game's kind (its engine id), e.g. ``flaming-pyramids``.
    game: str
    #: The game's number (``#12``).
    number: int
    status: Literal["active", "finished"]
    #: The challenge whose deal this game plays (its seed stays secret), or None.
    challenge: int | None = None
    options: dict[str, Any] = Field(default_factory=dict)
    players: list[Player]
    #: ``sha256:<hex>`` over the kind, seed and salt (``bot.records.fairness``), as the
    #: game's first board showed it; None for games dealt before deals were sealed.
    commitment: str | None = None
    #: None while the deal is secret: the game still runs, or it is a challenge's.
    seed: int | None = None
    #: None while the deal is secret, or for games dealt before deals were sealed.
    salt: str | None = None
    moves: list[Move] = Field(default_factory=list)
    #: ``engine.core.Result.to_json()`` as stored; None while the game runs.
    result: dict[str, Any] | None = None


def read_record(text: str | bytes) -> Record:
    """A record from a file's text. Raises :class:`RecordProblem` naming what is
    wrong: not JSON, not a game record, a version this code does not read, or a
    field that does not fit version 1."""
    try:
        data = load_json(text)
    except TooLarge as exc:
        raise RecordProblem(str(exc)) from exc
    except UnicodeDecodeError as exc:
        raise RecordProblem(f"The record is not text (UTF-8): {exc.reason} at byte {exc.start}.") from exc
    except json.JSONDecodeError as exc:
        raise RecordProblem(f"The record is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}.") \
            from exc
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordProblem(f"This is not a pyramid-bot game record: its \"format\" is not \"{FORMAT}\" "
                            "(files from before format version 1 cannot be checked).")
    version = data.get("version")
    if version != VERSION or isinstance(version, bool):
        raise RecordProblem(f"This record is in format version {json.dumps(version)}, which this pyramid-bot "
                            f"does not know: it reads version {VERSION}. A newer pyramid-bot may read it.")
    try:
        return Record.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "the record"
        raise RecordProblem(f"The record does not fit format version {VERSION}: {where}: {first['msg']}.") from exc


def read_record_file(path: Path) -> Record:
    """:func:`read_record` of a file; a file that cannot be read is a problem too."""
    try:
        text = path.read_bytes()
    except OSError as exc:
        raise RecordProblem(f"The record {path} cannot be read: {exc.strerror or exc}.") from exc
    return read_record(text)
