"""Rows as pydantic models: the store's boundary. A row that doesn't validate is a
corrupt record, reported as such instead of crashing whatever read it."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

GameStatus = Literal["lobby", "active", "finished", "cancelled"]
GameSurface = Literal["channel", "interactions"]
AiLevel = Literal["easy", "normal", "hard"]
TimeoutAction = Literal["ai", "forfeit"]


class CorruptRecord(Exception):
    """A stored row cannot be read; the message says which one."""


class _Row(BaseModel):
    model_config = ConfigDict(frozen=True)


class GameRecord(_Row):
    id: int
    kind: str
    guild_id: int | None
    channel_id: int
    thread_id: int | None
    options: dict[str, Any]
    status: GameStatus
    seed: int
    created_by: int | None
    challenge_id: int | None
    result: dict[str, Any] | None
    created_at: str
    updated_at: str
    #: Bumped by every change to the game (see ``GameStore.revision``).
    revision: int = 0
    #: Random text hashed with the seed into the deal's seal (``bot.records.fairness``);
    #: None for games created before deals were sealed.
    salt: str | None = None
    #: Where the game lives: "channel" (the bot posts there itself) or "interactions" (only a
    #: user install reaches it: the game lives in the card its players' clicks update, see
    #: ``bot.posting.in_place``).
    surface: GameSurface = "channel"
    #: False: its ratings never see it (a game of a tournament its admin made unrated; migration 0018).
    #: Read only by ``bot.ratings.outcome``, the one place a game's outcome is worked out.
    rated: bool = True
    #: Moves taken back so far (migration 0019): posts after an undo carry it in their nonce.
    undos: int = 0
    #: Played in each seat's DM with the bot (a cross-server match, migration 0021): every board and
    #: notice goes to every seat's DM (``bot.posting.seat_dms``); ``channel_id`` is the first seat's.
    seat_dms: bool = False

    @property
    def in_place(self) -> bool:
        """The bot user is not where the game is played: it may only answer interactions there."""
        return self.surface == "interactions"

    @property
    def play_channel_id(self) -> int:
        """Where the game is played: its thread, or the channel in channel mode."""
        return self.thread_id or self.channel_id


class SeatRecord(_Row):
    game_id: int
    seat: int
    user_id: int | None
    ai_level: AiLevel | None
    name: str = ""
    resigned: bool = False
    joined_at: str

    @property
    def is_ai(self) -> bool:
        """The bot plays this seat: an AI from the start, or a human's seat handed over."""
        return self.ai_level is not None

    @property
    def display(self) -> str:
        """How the seat is named in narration: a mention for people (pings are
        controlled separately), the level for AIs."""
        if self.user_id is None:
            return f"🤖 {self.plain_name}"
        return f"<@{self.user_id}>"

    @property
    def plain_name(self) -> str:
        """A name for pictures, where mentions don't render."""
        if self.user_id is None:
            return f"{(self.ai_level or 'AI').title()} AI"
        return self.name or f"Player {self.seat + 1}"


class MoveRecord(_Row):
    game_id: int
    seq: int
    seat: int
    move: str
    actor_id: int | None
    created_at: str


class MessageRef(_Row):
    game_id: int
    role: str
    seat: int
    channel_id: int
    message_id: int
    version: int


#: Bounds of the server settings (also Discord's min/max on ``/pyramid-admin settings``).
#: An unbounded period once stopped every reminder (``timeout_hours=1e308``), so the
#: model refuses what the command would, whoever writes it.
REMINDER_HOURS = (1.0, 720.0)
TIMEOUT_HOURS = (1.0, 2160.0)
#: What a move adds to the seat's time bank (at most the bank itself, timeout_hours).
INCREMENT_HOURS = (0.0, 720.0)
MAX_OPEN_GAMES = (1, 25)
#: Bounds of the away budget: days away, and the window they are counted in.
AWAY_DAYS = (0, 60)
AWAY_WINDOW_DAYS = (7, 365)
DEFAULT_MAX_OPEN_GAMES = 3


class GuildSettings(_Row):
    """A server's overrides; ``None`` periods fall back to the bot's own settings.
    ``max_open_games`` caps the lobbies and running games one member may have opened
    in the server at once (each can open a thread)."""

    guild_id: int
    use_threads: bool = True
    reminder_hours: float | None = Field(default=None, ge=REMINDER_HOURS[0], le=REMINDER_HOURS[1],
                                         allow_inf_nan=False)
    timeout_hours: float | None = Field(default=None, ge=TIMEOUT_HOURS[0], le=TIMEOUT_HOURS[1],
                                        allow_inf_nan=False)
    timeout_action: TimeoutAction = "ai"
    #: The clock: ``timeout_hours`` is the full time bank, ``reminder_hours`` how much of a
    #: full bank a turn uses before the reminder, and a move that passes the turn on adds
    #: ``increment_hours`` (None: the bot's own, ``PYRAMID_INCREMENT_HOURS``).
    increment_hours: float | None = Field(default=None, ge=INCREMENT_HOURS[0], le=INCREMENT_HOURS[1],
                                          allow_inf_nan=False)
    max_open_games: int = Field(default=DEFAULT_MAX_OPEN_GAMES, ge=MAX_OPEN_GAMES[0], le=MAX_OPEN_GAMES[1])
    #: The language of what the channel reads (boards, lobbies); None: English.
    language: Literal["en", "de"] | None = None
    #: /pyramid away: at most ``away_days`` away within any ``away_window_days``.
    away_days: int = Field(default=14, ge=AWAY_DAYS[0], le=AWAY_DAYS[1])
    away_window_days: int = Field(default=90, ge=AWAY_WINDOW_DAYS[0], le=AWAY_WINDOW_DAYS[1])

    @model_validator(mode="after")
    def _reminder_before_timeout(self) -> GuildSettings:
        if (self.reminder_hours is not None and self.timeout_hours is not None
                and self.timeout_hours <= self.reminder_hours):
            raise ValueError("the timeout must come after the reminder")
        return self


class ChallengeRecord(_Row):
    id: int
    guild_id: int | None
    channel_id: int
    seed: int
    options: dict[str, Any]
    created_by: int | None
    message_id: int | None = None
    created_at: str
    closes_at: str | None
