"""``/pyramid new``'s game options, read from the games' options models.

Each game's model says which options players choose and how
(:func:`engine.core.options.offered`); the command offers the union over the
catalogue: an option name shared by several games is one option, described with
their titles ("Flaming Pyramids: play with the curse"), bounded by Discord with the
widest of their bounds. Discord's min/max and choices are a convenience, not a
guard (a forged interaction skips them), so :func:`refusal` checks a chosen game's
options against that game's own offers.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from discord import app_commands
from discord.app_commands import locale_str

from bot.games.catalogue import Catalogue
from bot.interactions.translator import composed
from engine.core.options import Offer, offered
from i18n import Lang

#: Discord's longest option description.
MAX_DESCRIPTION = 100


@dataclass(frozen=True)
class LobbyOption:
    """One option of ``/pyramid new``: the offers of that name, from one game or more."""

    name: str
    kind: Literal["bool", "int", "choice"]
    titles: tuple[str, ...]
    offers: tuple[Offer, ...]

    @property
    def description(self) -> str:
        """"Flaming Pyramids: play with the curse" (English)."""
        return self.describe(lambda text: text)

    @property
    def locale_description(self) -> locale_str:
        """The description as the command declares it: the translator builds it in another
        language from the titles and the model's description (a message the engine marks
        for translation)."""
        return composed(self.description, self.describe)

    def describe(self, gettext: Callable[[str], str]) -> str:
        text = f"{', '.join(gettext(t) for t in self.titles)}: {gettext(self.offers[0].description)}"
        return text if len(text) <= MAX_DESCRIPTION else text[: MAX_DESCRIPTION - 1] + "…"

    @property
    def minimum(self) -> int | None:
        lows = [o.minimum for o in self.offers]
        return None if None in lows else min(low for low in lows if low is not None)

    @property
    def maximum(self) -> int | None:
        highs = [o.maximum for o in self.offers]
        return None if None in highs else max(high for high in highs if high is not None)

    @property
    def choices(self) -> tuple[str | int, ...]:
        return tuple(dict.fromkeys(c for o in self.offers for c in o.choices))

    @property
    def annotation(self) -> Any:
        """The parameter's type as discord.py reads it (always optional: an option
        left out takes the game's default)."""
        if self.kind == "bool":
            return bool | None
        if self.kind == "choice":
            return Literal[self.choices] | None
        low, high = self.minimum, self.maximum
        if low is None and high is None:
            return int | None
        return app_commands.Range[int, low, high] | None


def lobby_options(catalogue: Catalogue) -> list[LobbyOption]:
    """The union of the catalogue's offers, in the order the games declare them."""
    found: dict[str, LobbyOption] = {}
    for presenter in catalogue:
        for offer in offered(presenter.game.options_model):
            known = found.get(offer.name)
            if known is None:
                found[offer.name] = LobbyOption(offer.name, offer.kind, (presenter.title,), (offer,))
                continue
            mixed = len({type(c) for c in (*known.choices, *offer.choices)}) > 1
            if known.kind != offer.kind or mixed:
                raise TypeError(f"Option {offer.name!r} of {presenter.title} differs in kind from "
                                f"{', '.join(known.titles)}'s: one option name, one kind of value.")
            found[offer.name] = LobbyOption(offer.name, offer.kind, (*known.titles, presenter.title),
                                            (*known.offers, offer))
    return list(found.values())


def refusal(offers: Sequence[Offer], given: Mapping[str, Any], lang: Lang | None = None) -> str | None:
    """Why a value given for one of ``offers`` (a game's) is refused, or None (in ``lang``,
    default English)."""
    lang = lang or Lang("en")
    for offer in offers:
        value = given.get(offer.name)
        if value is None:
            continue
        if offer.kind == "int":
            low = offer.minimum if offer.minimum is not None else value
            high = offer.maximum if offer.maximum is not None else value
            if not low <= value <= high:
                return lang.tr("{name} must be from {low} to {high}.",
                               name=lang.gettext(offer.label or offer.name), low=low,
                               high=high)
        elif offer.kind == "choice" and value not in offer.choices:
            return lang.tr("{name} must be one of {choices}.", name=lang.gettext(offer.label or offer.name),
                           choices=", ".join(str(c) for c in offer.choices))
    return None


def signature(leading: Sequence[inspect.Parameter], options: Sequence[LobbyOption],
              trailing: Sequence[inspect.Parameter]) -> inspect.Signature:
    """A callback signature with a keyword parameter per option (default None)
    between ``leading`` and ``trailing`` ones: discord.py reads a command's options
    from its callback's signature."""
    params = [inspect.Parameter(o.name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=o.annotation)
              for o in options]
    return inspect.Signature([*leading, *params, *trailing])
