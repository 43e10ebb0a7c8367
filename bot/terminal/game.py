"""``pyramid-bot play GAME``: a game in the terminal, against AI seats, with no Discord.

Moves are typed in the rules' notation, or with the letters the board picture draws
on its spots ("play R4 A"); ``help`` teaches the notation on the position at hand.
After every move the board is told on screen in words (the pictures' alt text, the
hand too when it is the player's turn) and drawn into a folder an image viewer can
watch. Every move is told as the game narrates it, never as its command. Rules,
legality and the AI are the engine's; words and pictures are the bot's presenters'
and the renderer's. ``--help`` shows :data:`DESCRIPTION`, plain text for a terminal.
"""

from __future__ import annotations

import argparse
import os
import secrets
import sys
import textwrap
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TextIO

from bot.games.catalogue import Catalogue
from bot.games.presenter import Presenter, typing_steps
from bot.terminal.console import Console
from bot.terminal.pictures import Pictures
from bot.terminal.reading import lettered, read_move, shown
from bot.terminal.table import HUMAN, Table, TableError, table
from bot.terminal.words import (
    COMMANDS,
    choices_line,
    every_game_options,
    help_text,
    move_lines,
    moves_line,
    options_text,
    plain,
)
from engine.ai import LEVELS, choose_move
from engine.core import EngineError, Event, derive_seed
from engine.core.options import Offer, offered
from engine.core.undo import NOT_YOURS, ONCE, REFUSED, revealed, take_back, turn_began
from i18n import N_, SUPPORTED, Lang, shared_texts
from render.describe import describe_board, describe_hand

#: Descriptions in the terminal are not alt text: no length limit worth the name.
NO_LIMIT = 100_000
#: ``--option list`` (or help, ?) lists the game's options instead of starting it.
LIST_WORDS = {"list", "help", "?"}
#: The exit status after Ctrl-C, as shells expect from a program stopped by SIGINT.
INTERRUPTED = 130
#: Before each line of the board shown after a move: it stands apart from the move's story.
BOARD_MARGIN = "  │ "
#: What ``pyramid-bot play --help`` says first: plain text, as a terminal shows it.
DESCRIPTION = N_("Play a game in the terminal, against AI seats, with no Discord.\n\n"
                 "Type moves as the rules write them, or with the letters the board picture draws on its spots "
                 "(play R4 A); at the prompt, help teaches how on the position at hand. After every move the "
                 "board is shown in words, and drawn as a picture into a folder an image viewer can watch.")


def language(choice: str | None) -> Lang:
    """``--lang``, else the terminal's locale (``LC_ALL``, ``LC_MESSAGES``, ``LANG``), else English."""
    texts = shared_texts()
    if choice:
        return texts.lang(choice)
    return texts.lang(*(os.environ.get(name, "") for name in ("LC_ALL", "LC_MESSAGES", "LANG")))


def parser_for(catalogue: Catalogue, lang: Lang) -> argparse.ArgumentParser:
    levels = ", ".join(f"ai:{level}" for level in LEVELS)
    parser = argparse.ArgumentParser(
        prog="pyramid-bot play", description=wrapped(lang.gettext(DESCRIPTION)),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Options of each game (--option NAME=VALUE):\n" + every_game_options(list(catalogue), lang))
    parser.add_argument("game", choices=catalogue.kinds)
    parser.add_argument("--seats", help=f"comma-separated: you, {levels} (default: you and ai:normal where the "
                                        "game takes two, else you alone; Pyramido is then played competitively)")
    parser.add_argument("--seed", type=int, default=None, help="the deal (default: a random one, shown at the start)")
    parser.add_argument("--out", type=Path, default=None,
                        help="the folder for the pictures: board.png (always the latest board), hand.png and "
                             "move-NNNN.png for every position (default: a new folder in the temporary directory, "
                             "named at the start)")
    parser.add_argument("--no-pictures", action="store_true", help="draw no pictures")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", nargs="?", const="list",
                        help="a game option; --option alone (or --option list) lists the game's options")
    parser.add_argument("--lang", choices=SUPPORTED, default=None,
                        help="the language of the game (default: the terminal's, else English)")
    return parser


def wrapped(text: str, width: int = 88) -> str:
    """Paragraphs wrapped for a terminal (the raw formatter keeps the epilog's lines as written)."""
    return "\n\n".join(textwrap.fill(paragraph, width) for paragraph in text.split("\n\n"))


def play(argv: Sequence[str], stdin: TextIO = sys.stdin, stdout: TextIO = sys.stdout,
         clock: Callable[[], float] = time.perf_counter, catalogue: Catalogue | None = None) -> int:
    catalogue = catalogue if catalogue is not None else Catalogue.default()
    lang = language(_lang_argument(argv))
    args = parser_for(catalogue, lang).parse_args(list(argv))
    console = Console(stdin, stdout)
    presenter = catalogue.presenter(args.game)
    if any(pair.strip().lower() in LIST_WORDS for pair in args.option):
        for line in options_text(presenter, lang):
            console.say(line)
        return 0
    try:
        seated = table(presenter, args.seats, args.option, lang)
    except TableError as exc:
        console.say(lang.tr("error: {reason}", reason=exc))
        return 2
    seed = args.seed if args.seed is not None else secrets.randbits(32)
    pictures = None if args.no_pictures else Pictures(presenter, args.out)
    game = TerminalGame(presenter, seated, seed, pictures, console, lang, clock)
    try:
        return game.run()
    except KeyboardInterrupt:  # Ctrl-C, at the prompt or while an AI thinks
        console.say()
        console.say(lang.gettext("Bye."))
        return INTERRUPTED


def _lang_argument(argv: Sequence[str]) -> str | None:
    """``--lang`` before argparse runs, so its own messages (the options in --help) are in it too."""
    for i, arg in enumerate(argv):
        if arg.startswith("--lang="):
            return arg.split("=", 1)[1]
        if arg == "--lang" and i + 1 < len(argv):
            return argv[i + 1]
    return None


#: What ``ask`` returns when the player took their move back: the turn is asked again.
TAKEN_BACK = "\x00back"


class TerminalGame:
    """One game at the terminal, from its deal to its result."""

    def __init__(self, presenter: Presenter, seated: Table, seed: int, pictures: Pictures | None, console: Console,
                 lang: Lang, clock: Callable[[], float]) -> None:
        self.presenter = presenter
        self.game = presenter.game
        self.table = seated
        self.seed = seed
        self.pictures = pictures
        self.console = console
        self.lang = lang
        self.clock = clock
        self.names = seated.names(lang)
        self.state: Any = self.game.setup(len(seated.seats), seated.options, seed)
        self.number = 0
        self.events: list[Event] = []
        self.legal: list[str] = []
        self.labels: dict[str, str] = {}
        #: The board's lines last put on screen (the hand then adds only what they did not say).
        self.shown: list[str] = []
        #: The moves made, and the move numbers each seat took back (``back``: one undo per turn).
        self.log: list[tuple[int, str]] = []
        self.undone: dict[int, set[int]] = {}

    # --- views ---------------------------------------------------------------------------
    def view(self, seat: int | None) -> dict[str, Any]:
        view = dict(self.game.view(self.state, seat))
        view["names"] = list(self.names)
        view["lang"] = self.lang.code
        return view

    def board_words(self) -> list[str]:
        text = describe_board(self.view(None), art=self.presenter.art, lang=self.lang, labels=self.labels,
                              limit=NO_LIMIT)
        return text.splitlines()[1:]

    def hand_words(self, seat: int) -> list[str]:
        text = describe_hand(self.view(seat), art=self.presenter.art, lang=self.lang, limit=NO_LIMIT)
        return text.splitlines()[1:]

    # --- the game --------------------------------------------------------------------------
    def run(self) -> int:
        say, lang = self.console.say, self.lang
        self.introduce()
        # A provisional end (a stuck Continuous Pyramid that can still undo) still has a seat to act.
        while (seat := self.game.waiting_for(self.state)) is not None:
            self.legal = self.game.legal_moves(self.state)
            self.labels = self.presenter.public_labels(self.view(None), self.legal)
            self.draw(seat)
            self.shown = self.board_words()
            for line in self.shown:  # the position after every move, on screen as in the picture
                say(BOARD_MARGIN + line)
            if self.table.seats[seat] != HUMAN:
                move = choose_move(self.game, self.state, seat, self.table.seats[seat][3:],
                                   derive_seed(self.seed, f"ai:{self.number}:{seat}"), self.clock)
                # The move itself is told by the game's story (apply), in words: not its command.
                say(lang.tr("[{number}] {name}'s move:", number=self.number + 1, name=self.names[seat]))
            else:
                chosen = self.ask(seat)
                if chosen is None:
                    say(lang.gettext("Bye."))
                    return 0
                if chosen is TAKEN_BACK:
                    continue
                move = chosen
            self.apply(seat, move)
        self.finish()
        return 0

    def introduce(self) -> None:
        say, lang = self.console.say, self.lang
        seats = " · ".join(lang.tr("{name} (you)", name=name) if who == HUMAN else name
                           for name, who in zip(self.names, self.table.seats, strict=True))
        say(lang.tr("{title}, deal {seed}. At the table: {seats}.", title=lang.gettext(self.presenter.title),
                    seed=self.seed, seats=seats))
        chosen = {k: v for k, v in self.table.options.model_dump().items()
                  if k in {o.name for o in _offers(self.presenter)}}
        if chosen:
            say(lang.tr("Options: {options}.", options=", ".join(f"{k}={_shown(v)}" for k, v in chosen.items())))
        if self.table.implied:
            say(lang.tr("(Played with {options} so that it takes {n} seats; choose with --option.)",
                        options=", ".join(f"{k}={_shown(v)}" for k, v in self.table.implied.items()),
                        n=len(self.table.seats)))
        if self.pictures is not None:
            say(lang.tr("Pictures: {board} is the board after every move (letters on its spots), {hand} your "
                        "hand; every position is kept in {folder} as move-0000.png, move-0001.png, …",
                        board=self.pictures.board, hand=self.pictures.hand, folder=self.pictures.folder)
                if self.presenter.has_hand else
                lang.tr("Pictures: {board} is the board after every move (letters on its spots); every position is "
                        "kept in {folder} as move-0000.png, move-0001.png, …", board=self.pictures.board,
                        folder=self.pictures.folder))
        say(lang.gettext("Type help to learn how to type a move, rules for the rules, quit to stop."))

    def draw(self, seat: int) -> None:
        if self.pictures is None:
            return
        self.pictures.draw(self.number, self.view(None), self.labels, self.events)
        if self.table.seats[seat] == HUMAN:
            self.pictures.draw_hand(self.view(seat))

    def ask(self, seat: int) -> str | None:
        """The move the player at ``seat`` types; None when they quit."""
        say, lang = self.console.say, self.lang
        say()
        say(lang.tr("[{number}] {name}, your move.", number=self.number + 1, name=self.names[seat]))
        for words in self.hand_words(seat):
            if words not in self.shown:
                say("  " + words)
        steps = typing_steps(self.presenter)
        say("  " + moves_line(self.legal, self.labels, lang, steps))
        self.console.words = lambda: [*self.legal, *(lettered(m, self.labels) for m in self.legal),
                                      *(" ".join(shown(t, self.labels) for t in steps(m)) for m in self.legal),
                                      *COMMANDS]
        while True:
            line = self.console.ask("> ")
            if line is None:
                return None
            text = line.strip()
            word = text.lower()
            if not text:
                continue
            if word in ("quit", "exit"):
                return None
            if word == "help":
                for out in help_text(self.presenter, self.legal, self.labels, lang):
                    say(out)
            elif word == "moves":
                for out in move_lines(self.legal, self.labels, steps):
                    say("  " + out)
            elif word == "view":
                for out in self.board_words():
                    say(BOARD_MARGIN + out)
            elif word == "hand":
                for out in self.hand_words(seat):
                    say("  " + out)
            elif word == "rules":
                say(plain(self.presenter.rules_text(lang)))
                if self.presenter.cells:
                    say(lang.gettext(self.presenter.cells))
            elif word == "back":
                if self.take_back(seat):
                    return TAKEN_BACK
            elif word == "pictures":
                say(lang.tr("The board: {board}", board=self.pictures.board) if self.pictures is not None
                    else lang.gettext("No pictures are drawn (--no-pictures)."))
            else:
                understood = self.understood(seat, text)
                if understood is not None:
                    return understood

    def understood(self, seat: int, text: str) -> str | None:
        """The legal move ``text`` names, or None after saying why it names none."""
        reading = read_move(text, self.legal, self.labels, typing_steps(self.presenter))
        if reading.move is not None:
            return reading.move
        if reading.matches:  # several moves, or the start of one: how it goes on
            self.console.say("  " + choices_line(reading.matches, self.labels, self.lang, typing_steps(self.presenter)))
            return None
        try:  # the engine's own reason (or a spelling it accepts that the list writes otherwise)
            self.game.play(self.state, seat, reading.spelled)
        except EngineError as exc:
            self.console.say("  " + self.lang.tr("Not a move now: {reason} Type help to see how moves are written.",
                                                 reason=exc.explain(self.lang.gettext)))
            return None
        return reading.spelled

    def take_back(self, seat: int) -> bool:
        """``back``: the player's own last move taken back, under the bot's rule (``bot.forecasts.undo``):
        nobody acted after it, once per turn, and only if it showed nothing hidden."""
        say = self.console.say
        if not self.log or self.log[-1][0] != seat:
            say("  " + self.lang.gettext(NOT_YOURS))
            return False
        if any(s >= turn_began(self.log) for s in self.undone.get(seat, ())):
            say("  " + self.lang.gettext(ONCE))
            return False
        before = take_back(self.game, len(self.table.seats), self.table.options, self.seed, self.log)
        why = revealed(self.game, before, seat, self.log[-1][1])
        if why is not None:
            say("  " + self.lang.gettext(REFUSED[why]))
            return False
        self.undone.setdefault(seat, set()).add(len(self.log))
        _, move = self.log.pop()
        self.state, self.events = before, []
        self.number -= 1
        say("  " + self.lang.tr("↩ You took back {move}.", move=move))
        return True

    def apply(self, seat: int, move: str) -> None:
        self.state, self.events = self.game.play(self.state, seat, move)
        self.log.append((seat, move))
        humans = self.table.humans
        # Private events (draws, deals) are shown to the human they belong to: the mover
        # if human, else the only human at the table (hot-seat tables see public ones).
        viewer = seat if self.table.seats[seat] == HUMAN else humans[0] if len(humans) == 1 else None
        for event in self.events:
            if event.visible(viewer):
                self.console.say("  " + event.narrate(self.names, self.lang.gettext))
        self.number += 1

    def finish(self) -> None:
        say, lang = self.console.say, self.lang
        self.legal, self.labels = [], {}
        if self.pictures is not None:
            final = self.pictures.draw(self.number, self.view(None), {}, self.events)
            say(lang.tr("Final board: {path}", path=final))
        result = self.game.result(self.state)
        say()
        say(lang.trn("Game over after {n} move.", "Game over after {n} moves.", self.number, n=self.number))
        for line in self.board_words():
            say(BOARD_MARGIN + line)
        humans = self.table.humans
        if result is not None and len(humans) == 1:
            say(lang.gettext("You won!") if humans[0] in result.winners else lang.gettext("You did not win this time."))


def _offers(presenter: Presenter) -> list[Offer]:
    return offered(presenter.game.options_model)


def _shown(value: object) -> str:
    return "yes" if value is True else "no" if value is False else "-" if value is None else str(value)


def main(argv: Sequence[str]) -> int:
    return play(argv)
