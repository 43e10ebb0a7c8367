"""Who sits at a terminal game and with which options, from the command line.

``--seats you,ai:hard`` and ``--option NAME=VALUE`` are read against the game's own
description of its options (:func:`engine.core.options.offered`: names, kinds, bounds,
defaults), so a mistake gets a sentence naming what the game takes instead of
pydantic's report. Without ``--seats`` a game is played against one normal AI when it
can be (Pyramido, solo by default, is then played competitively: the presenter's
``versus`` options), else alone.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError

from bot.games.presenter import Presenter
from engine.ai import LEVELS
from engine.core import BadOptions
from engine.core.options import Offer, offered
from i18n import N_, Lang

HUMAN = "you"
#: The AI levels as players read them (the bot's lobby says the same).
AI_NAMES = {"easy": N_("Easy AI"), "normal": N_("Normal AI"), "hard": N_("Hard AI")}
TRUE = {"true", "yes", "on", "1", "ja", "an"}
FALSE = {"false", "no", "off", "0", "nein", "aus"}


class TableError(Exception):
    """Seats or options the game cannot be played with; the message says why, for the player."""


@dataclass(frozen=True)
class Table:
    seats: tuple[str, ...]
    options: BaseModel
    #: The options the player did not choose but the table needed (Pyramido's mode).
    implied: Mapping[str, Any]

    @property
    def humans(self) -> list[int]:
        return [seat for seat, who in enumerate(self.seats) if who == HUMAN]

    def names(self, lang: Lang) -> list[str]:
        """'Player 1' for a person, 'Normal AI' for an AI (with its seat when two share a level)."""
        names = [lang.tr("Player {number}", number=seat + 1) if who == HUMAN else lang.gettext(AI_NAMES[who[3:]])
                 for seat, who in enumerate(self.seats)]
        return [f"{name} ({seat + 1})" if names.count(name) > 1 and self.seats[seat] != HUMAN else name
                for seat, name in enumerate(names)]


def seat_list(text: str, lang: Lang) -> list[str]:
    seats = [s.strip().lower() for s in text.split(",") if s.strip()]
    for seat in seats:
        if seat != HUMAN and not (seat.startswith("ai:") and seat[3:] in LEVELS):
            raise TableError(lang.tr("{seat!r} is not a seat: write you, or ai: and a level ({levels}), for example "
                                     "--seats you,ai:hard.", seat=seat, levels=", ".join(LEVELS)))
    if not seats:
        raise TableError(lang.gettext("Name at least one seat, for example --seats you,ai:normal."))
    return seats


def given_options(presenter: Presenter, pairs: Sequence[str], lang: Lang) -> dict[str, Any]:
    """``NAME=VALUE`` pairs read as the game's options: each name one the game has, each
    value of the option's kind and within its bounds."""
    offers = {offer.name: offer for offer in offered(presenter.game.options_model)}
    options: dict[str, Any] = {}
    for pair in pairs:
        name, sep, value = (part.strip() for part in pair.partition("="))
        if not sep or not name:
            raise TableError(lang.tr("Write an option as NAME=VALUE, like {example}; {pair!r} is not.",
                                     example=example(list(offers.values())), pair=pair))
        offer = offers.get(name.lower())
        if offer is None:
            known = ", ".join(offers) or lang.gettext("none")
            raise TableError(lang.tr("{title} has no option {name!r}. Its options: {known} (--option list shows "
                                     "their values).", title=lang.gettext(presenter.title), name=name, known=known))
        options[offer.name] = option_value(offer, value, lang)
    return options


def option_value(offer: Offer, text: str, lang: Lang) -> Any:
    if offer.kind == "bool":
        if text.lower() in TRUE | FALSE:
            return text.lower() in TRUE
        raise TableError(lang.tr("{name} is yes or no, not {value!r}.", name=offer.name, value=text))
    if offer.kind == "int":
        try:
            number = int(text)
        except ValueError:
            number = None
        low, high = offer.minimum, offer.maximum
        if number is None or (low is not None and number < low) or (high is not None and number > high):
            raise TableError(lang.tr("{name} is a whole number from {low} to {high}, not {value!r}.", name=offer.name,
                                     low=low if low is not None else "…", high=high if high is not None else "…",
                                     value=text))
        return number
    for choice in offer.choices:
        if str(choice).lower() == text.lower():
            return choice
    raise TableError(lang.tr("{name} is one of {choices}, not {value!r}.", name=offer.name,
                             choices=", ".join(str(c) for c in offer.choices), value=text))


def example(offers: Sequence[Offer]) -> str:
    if not offers:
        return "name=value"
    offer = offers[0]
    value = (offer.choices[-1] if offer.kind == "choice" else "yes" if offer.kind == "bool"
             else offer.maximum if offer.maximum is not None else 1)
    return f"{offer.name}={value}"


def table(presenter: Presenter, seats_text: str | None, pairs: Sequence[str], lang: Lang) -> Table:
    """The seats and options to play with. Without ``--seats``: you and a normal AI if the
    game (with the player's options, else with its ``versus`` options) takes two seats,
    else you alone. With several seats and none of the ``versus`` options chosen, those
    options are added when the defaults would not take that many seats."""
    game = presenter.game
    chosen = given_options(presenter, pairs, lang)
    versus = {k: v for k, v in presenter.versus.items() if k not in chosen} if not (
        set(presenter.versus) & set(chosen)) else {}

    def takes(count: int, options: Mapping[str, Any]) -> bool:
        try:
            low, high = game.player_range(game.parse_options(options))
        except BadOptions:
            return False
        return low <= count <= high

    if seats_text is None:
        two = takes(2, chosen) or (bool(versus) and takes(2, {**versus, **chosen}))
        seats = [HUMAN, "ai:normal"] if two else [HUMAN]
    else:
        seats = seat_list(seats_text, lang)
    implied = versus if versus and not takes(len(seats), chosen) and takes(len(seats), {**versus, **chosen}) else {}
    options = parsed(presenter, {**implied, **chosen}, lang)
    low, high = game.player_range(options)
    if not low <= len(seats) <= high and versus and not implied and len(seats) > 1:
        with contextlib.suppress(BadOptions):  # too many even so: name the range of a game for several
            low, high = game.player_range(game.parse_options({**versus, **chosen}))
    if not low <= len(seats) <= high:
        title = lang.gettext(presenter.title)
        if low == high:
            raise TableError(lang.trn("{title} takes {n} seat, not {given}.", "{title} takes {n} seats, not {given}.",
                                      low, title=title, n=low, given=len(seats)))
        raise TableError(lang.tr("{title} takes {low} to {high} seats, not {given}.", title=title, low=low, high=high,
                                 given=len(seats)))
    return Table(tuple(seats), options, implied)


def parsed(presenter: Presenter, options: Mapping[str, Any], lang: Lang) -> BaseModel:
    """The game's options model; options that do not go together are named with the
    model's own reasons (translated), not pydantic's report."""
    try:
        return presenter.game.parse_options(options)
    except BadOptions as exc:
        cause = exc.__cause__
        if not isinstance(cause, ValidationError):
            raise TableError(exc.explain(lang.gettext)) from exc
        reasons = []
        for error in cause.errors():
            reason = (error.get("ctx") or {}).get("error")
            reasons.append(lang.gettext(str(reason)) if isinstance(reason, ValueError) else str(error["msg"]))
        raise TableError(lang.tr("These {title} options do not go together: {reasons}.",
                                 title=lang.gettext(presenter.title), reasons="; ".join(reasons))) from exc
