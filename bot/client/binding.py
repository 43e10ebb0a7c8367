"""The component classes one client registers (``Client.add_dynamic_items``).

discord.py builds a dynamic item from its class when a click arrives, so what a
handler needs cannot be passed to a constructor: each client gets subclasses of its
own with its handlers as class attributes. Two clients in one process (tests) never
share them."""

from __future__ import annotations

import types
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from bot.admin.item import SettingsFormButton
from bot.cards.custom_ids import none_of
from bot.endings.handlers import Endings
from bot.endings.item import FairDealButton, RematchButton
from bot.forecasts.commands import UndoCommands
from bot.forecasts.items import ForecastButton, TakeBackButton
from bot.interactions.items.base import Component
from bot.interactions.items.unknown import UnknownComponent
from bot.lobbies.challenge_item import PlayDealButton
from bot.lobbies.challenges import Challenges
from bot.lobbies.command import LobbyCommands
from bot.lobbies.handlers import Lobbies
from bot.lobbies.item import (
    AddAiSelect,
    CancelButton,
    JoinButton,
    LeaveButton,
    OptionsButton,
    StartButton,
)
from bot.notifications.button import NoMorePingsButton
from bot.notifications.form import NotifyFormButton
from bot.notifications.gate import NotificationGate
from bot.replays.handlers import ReplayViewer
from bot.replays.item import ReplayStepButton
from bot.tournaments.item import JoinTournamentButton, LeaveTournamentButton
from bot.tournaments.runner import Tournaments
from bot.turns.handlers import Turns
from bot.turns.item import (
    ChoiceButton,
    ChoiceSelect,
    HandButton,
    LatestBoardButton,
    MoveButton,
    PageButton,
    YourMoveButton,
)
from bot.turns.preview_item import PreviewButton

C = TypeVar("C", bound=Component)


def bind(kind: type[C], attributes: Mapping[str, Any], **options: Any) -> type[C]:
    """A subclass of ``kind`` carrying ``attributes`` (``options``: its class keywords)."""
    return cast("type[C]", types.new_class(kind.__name__, (kind,), options, lambda ns: ns.update(attributes)))


def bound_items(lobbies: Lobbies, turns: Turns, challenges: Challenges, gate: NotificationGate,
                tournaments: Tournaments) -> list[type[Component]]:
    """Every kind of component, bound to these handlers, and the catch-all for the rest."""
    # 🔁 Rematch opens its lobby through /pyramid new's own handler, with every check it makes
    endings = Endings(turns.services, LobbyCommands(turns.services, lobbies, challenges).new)
    kinds: list[type[Component]] = [
        *(bind(k, {"lobbies": lobbies}) for k in (JoinButton, LeaveButton, StartButton, CancelButton, AddAiSelect,
                                                          OptionsButton)),
        *(bind(k, {"turns": turns}) for k in (YourMoveButton, ChoiceButton, ChoiceSelect, PageButton, MoveButton,
                                              HandButton, LatestBoardButton)),
        bind(PlayDealButton, {"challenges": challenges}),
        bind(ReplayStepButton, {"viewer": ReplayViewer(turns.services)}),
        bind(PreviewButton, {"previews": turns.previews}),
        bind(SettingsFormButton, {"services": turns.services}),
        *(bind(k, {"endings": endings}) for k in (FairDealButton, RematchButton)),
        *(bind(k, {"undo": UndoCommands(turns.services, turns.host)}) for k in (TakeBackButton, ForecastButton)),
        bind(NoMorePingsButton, {"gate": gate}),
        bind(NotifyFormButton, {"gate": gate}),
        *(bind(k, {"tournaments": tournaments}) for k in (JoinTournamentButton, LeaveTournamentButton)),
    ]
    unknown = bind(UnknownComponent, {}, template=none_of(a for k in kinds for a in k.actions))
    for kind in (*kinds, unknown):  # each a subclass of this client's own: who reads which language
        kind.languages = turns.services.languages
    return [*kinds, unknown]
