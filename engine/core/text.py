"""The words players read, kept translatable while the engine stays pure.

The engine writes every sentence in English as a constant *template* marked with
:func:`N_` (Babel extracts it into the catalogues) and hands the variable parts over
as named arguments: ``phrase(N_("{0} placed {colour} at {cell}."), colour="R",
cell="1:0,0")``. Whoever shows the sentence fills it in (:meth:`Phrase.fill`), and
passes a ``gettext`` (``Callable[[str], str]``, e.g. ``i18n``'s ``Lang.gettext``) to
have it in the reader's language. Positional fields (``{0}``, ``{1}``) name players,
as events and results always have; the engine never knows their names.

An argument may itself be words to translate: a :class:`Word` (a colour, a side, a
material), a nested :class:`Phrase` (a clause, "Coal Y1"), or a :class:`Listing` of
such (joined by a separator that is the same in every language we speak). Without a
``gettext`` everything comes out exactly as the English the engine always wrote.
"""

from __future__ import annotations

import string
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

#: A translation function: the msgid in, the reader's language out (the msgid itself
#: when there is no translation).
Gettext = Callable[[str], str]


def N_(msgid: str) -> str:
    """Mark ``msgid`` for extraction; it is translated where it is shown."""
    return msgid


class Word(str):
    """An argument that is itself a message (``Word(N_("straw"))``): translated before
    it fills its placeholder. In English it is the plain string."""

    __slots__ = ()


@dataclass(frozen=True)
class Listing:
    """Arguments shown one after another, joined by ``sep`` (a separator no language
    of ours translates, such as ``", "``)."""

    items: tuple[object, ...]
    sep: str = ", "


@dataclass(frozen=True)
class Phrase:
    """A template (a msgid) and its named arguments; positional fields are players.

    ``players``, when given, says which of the names handed to :meth:`fill` the
    positional fields mean (``{0}`` is ``names[players[0]]``), so a sentence written
    for an event's players can also serve a result, whose fields are seats."""

    template: str
    args: Mapping[str, object] = field(default_factory=dict)
    players: tuple[int, ...] | None = None

    def fill(self, names: Sequence[str], gettext: Gettext | None = None) -> str:
        """The sentence with ``names`` in the player fields, translated by ``gettext``
        when given. A translation whose fields don't fit falls back to the English, so
        a slip in a catalogue never costs a player the sentence; a named argument that
        is missing (a template stored without its arguments) is shown as its field."""
        if self.players is not None:
            names = [names[p] for p in self.players]
        values = self._values(names, gettext)
        if gettext is not None:
            translated = gettext(self.template)
            if translated != self.template:
                try:
                    return _format(translated, names, values)
                except (IndexError, KeyError, ValueError, AttributeError):
                    pass
        return _format(self.template, names, values)

    def english(self) -> str:
        """The English with the named arguments filled in and the player fields kept
        (``"{0} wins 100 to 80."``): the form results store."""
        return self.fill(_KEEP_PLAYERS)

    def _values(self, names: Sequence[str], gettext: Gettext | None) -> dict[str, object]:
        return _Fields({key: _value(v, names, gettext) for key, v in self.args.items()})

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"template": self.template, "args": {k: _to_json(v) for k, v in self.args.items()}}
        if self.players is not None:
            data["players"] = list(self.players)
        return data

    @classmethod
    def from_json(cls, data: Any) -> Phrase:
        """Read :meth:`to_json`; raises ValueError when ``data`` is not one."""
        if not isinstance(data, Mapping) or not isinstance(data.get("template"), str):
            raise ValueError("a phrase is an object with a 'template' text and 'args'")
        args = data.get("args") or {}
        if not isinstance(args, Mapping):
            raise ValueError("a phrase's 'args' must be an object")
        players = data.get("players")
        if players is not None and not (isinstance(players, list) and all(
                isinstance(p, int) and not isinstance(p, bool) and p >= 0 for p in players)):
            raise ValueError("a phrase's 'players' must be a list of seats")
        return cls(data["template"], {str(k): _from_json(v) for k, v in args.items()},
                   None if players is None else tuple(players))


def phrase(template: str, /, **args: object) -> Phrase:
    """``Phrase(template, args)``, written like a call to ``str.format``."""
    return Phrase(template, args)


def name_of(index: int) -> Phrase:
    """Player field ``index`` as an argument (``{2}``): for sentences that name a seat
    chosen at run time, such as a result's winner."""
    return Phrase(f"{{{index}}}")


def and_list(items: Iterable[object], *, commas: bool = True) -> object:
    """``"A, B and C"`` (or ``"A and B and C"`` with ``commas=False``), translatable;
    a single item is itself, no item an empty text."""
    return _joined(N_("{items} and {last}"), tuple(items), commas)


def or_list(items: Iterable[object], *, commas: bool = True) -> object:
    """``"A, B or C"`` (or ``"A or B or C"`` with ``commas=False``), translatable."""
    return _joined(N_("{items} or {last}"), tuple(items), commas)


def _joined(template: str, found: tuple[object, ...], commas: bool) -> object:
    if len(found) <= 1:
        return found[0] if found else ""
    rest: object = Listing(found[:-1]) if commas else _joined(template, found[:-1], commas)
    return Phrase(template, {"items": rest, "last": found[-1]})


def plural(count: int, one: str, many: str) -> str:
    """The template for ``count``: ``one`` for exactly 1, else ``many``. German counts
    like English (one, and everything else), so a pair of msgids chosen here is all a
    translation needs."""
    return one if count == 1 else many


class _Players:
    """The player fields left as they are: ``{0}`` stays ``{0}``."""

    def __getitem__(self, index: int) -> str:
        return f"{{{index}}}"

    def __len__(self) -> int:
        return 0


class _Fields(dict[str, object]):
    """Named arguments; one that is missing stays as its field (``{colour}``)."""

    def __missing__(self, key: str) -> str:
        return f"{{{key}}}"


_KEEP_PLAYERS: Any = _Players()
_FORMATTER = string.Formatter()


def _format(template: str, names: Sequence[str], values: Mapping[str, object]) -> str:
    """``string.Formatter().vformat(template, names, values)``, by ``str.format`` when that can
    give it: the same field syntax and the same result, five times as fast (sentences are filled
    about 30 times a move). What ``str.format`` cannot fill as the formatter would (a missing
    named field, which stays as its field; :data:`_KEEP_PLAYERS`, which keeps every player
    field) goes to the formatter, which answers (or fails) exactly as before."""
    if type(names) is list or type(names) is tuple:
        try:
            return template.format(*names, **values)
        except (IndexError, KeyError, ValueError, AttributeError, TypeError):
            pass
    return _FORMATTER.vformat(template, names, values)


def _value(value: object, names: Sequence[str], gettext: Gettext | None) -> object:
    if isinstance(value, Word):
        return str(value) if gettext is None else gettext(value)
    if isinstance(value, Phrase):
        return value.fill(names, gettext)
    if isinstance(value, Listing):
        return value.sep.join(str(_value(item, names, gettext)) for item in value.items)
    return value


def _to_json(value: object) -> Any:
    if isinstance(value, Word):
        return {"word": str(value)}
    if isinstance(value, Phrase):
        return value.to_json()
    if isinstance(value, Listing):
        return {"list": [_to_json(v) for v in value.items], "sep": value.sep}
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


def _from_json(value: Any) -> object:
    if isinstance(value, Mapping):
        if isinstance(value.get("word"), str):
            return Word(value["word"])
        if isinstance(value.get("list"), list):
            return Listing(tuple(_from_json(v) for v in value["list"]), str(value.get("sep", ", ")))
        return Phrase.from_json(value)
    return value
