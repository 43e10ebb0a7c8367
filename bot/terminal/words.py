"""What the terminal game says: the moves on offer, the help that teaches the notation
from the position on the table, a game's options, and the result, all in the
player's language. Board and hand descriptions are ``render.describe``'s (the alt text
of the pictures), so the terminal says what the pictures show."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from bot.games.presenter import Presenter, typing_steps
from bot.terminal.reading import Steps, lettered, read_move, shown, words_of
from engine.core.options import Offer, offered
from i18n import Lang

#: Up to this many moves are listed one by one; more are grouped by how they begin.
LISTED = 12
#: Up to this many groups are shown; more are summed up by their first word.
GROUPS = 16
#: The words the prompt understands besides moves (English, as typed; the help explains them).
COMMANDS = ("help", "moves", "view", "hand", "rules", "pictures", "back", "quit")


def plain(text: str) -> str:
    """Discord's markdown (**bold**, *italic*) as plain terminal text."""
    return re.sub(r"\*{1,2}([^*]+)\*{1,2}", r"\1", text)


def groups(legal: Sequence[str], labels: Mapping[str, str], steps: Steps = words_of) -> dict[str, list[str]]:
    """The moves by all but their last step, as typed: {"play R4": ["play R4 A", "play R4 B"]}
    (Pyrinoes' builds by their spot counts: "build 4-1"), in the order of the moves."""
    grouped: dict[str, list[str]] = {}
    for move in legal:
        head = " ".join(shown(token, labels) for token in steps(move)[:-1])
        grouped.setdefault(head, []).append(move)
    return grouped


def group_text(head: str, moves: Sequence[str], labels: Mapping[str, str], steps: Steps = words_of) -> str:
    """One group in the one notation the terminal writes moves in: a single move whole
    ("play 5-2 right"), several as their start and the last words ("play R4: A B")."""
    if len(moves) == 1:
        return lettered(moves[0], labels)
    lasts = " ".join(shown(steps(move)[-1], labels) for move in moves)
    return f"{head}: {lasts}" if head else lasts


def move_lines(legal: Sequence[str], labels: Mapping[str, str], steps: Steps = words_of) -> list[str]:
    """Every move now (``moves``), written as the summary writes them: one by one when
    they are few, else one group a line (135 Pyrinoes builds are 27 lines)."""
    if len(legal) <= LISTED:
        return [lettered(move, labels) for move in legal]
    return [group_text(head, moves, labels, steps) for head, moves in groups(legal, labels, steps).items()]


def moves_line(legal: Sequence[str], labels: Mapping[str, str], lang: Lang, steps: Steps = words_of) -> str:
    """The moves on offer, short, in :func:`move_lines`' notation: a group with very many
    moves, and the largest families while there are too many groups, are summed up by
    their start ("build … (135 moves)"), which typed shows how they go on."""
    if len(legal) <= LISTED:
        return lang.tr("Moves: {moves}", moves=" · ".join(lettered(move, labels) for move in legal))
    grouped = groups(legal, labels, steps)
    families: dict[str, list[str]] = {}
    for head in grouped:
        families.setdefault(head.split(" ", 1)[0], []).append(head)
    summed: set[str] = set()
    while sum(1 if first in summed else len(heads) for first, heads in families.items()) > GROUPS:
        summed.add(max((f for f in families if f not in summed), key=lambda f: len(families[f])))
    parts: list[str] = []
    for first, heads in families.items():
        if first in summed:
            n = sum(len(grouped[head]) for head in heads)
            parts.append(lang.trn("{head} … ({n} move)", "{head} … ({n} moves)", n, head=first, n=n))
            continue
        for head in heads:
            moves = grouped[head]
            parts.append(lang.trn("{head} … ({n} move)", "{head} … ({n} moves)", len(moves), head=head, n=len(moves))
                         if len(moves) > LISTED else group_text(head, moves, labels, steps))
    text = " · ".join(parts)
    if any(" … (" in part for part in parts):
        return lang.tr("Moves: {moves}. Type the start of a move to see how it goes on.", moves=text)
    return lang.tr("Moves: {moves}", moves=text)


def choices_line(matches: Sequence[str], labels: Mapping[str, str], lang: Lang, steps: Steps = words_of) -> str:
    """What to choose from when the typed words fit several moves, or begin one (as the
    picker's next buttons): the moves, their groups, or the groups' starts."""
    lines = move_lines(matches, labels, steps)
    if len(lines) > GROUPS:
        lines = [line.split(":", 1)[0] + " …" if ":" in line else line for line in lines]
    return lang.trn("That fits {n} move: {moves}. Type more of the move.",
                    "That fits {n} moves: {moves}. Type more of the move.", len(matches), n=len(matches),
                    moves=" · ".join(lines))


def help_text(presenter: Presenter, legal: Sequence[str], labels: Mapping[str, str], lang: Lang) -> list[str]:
    """How to type a move, shown on a move of this very position."""
    steps = typing_steps(presenter)
    title = lang.gettext(presenter.title)
    lines = [lang.gettext("Type a move as the rules write it.")]
    if labels:
        lines.append(lang.gettext("Where the board picture shows a letter on a spot, type the letter instead of the "
                                  "spot's cell."))
    example = next((m for m in legal if any(token in labels for token in m.split())), legal[0] if legal else "")
    if example:
        written = lettered(example, labels)
        if written != example:
            lines.append(lang.tr("For example: {lettered}   (the same as {move})", lettered=written, move=example))
        else:
            lines.append(lang.tr("For example: {move}", move=example))
        words = written.split()
        if len(words) > 1:
            short = " ".join(words[1:])
            if read_move(short, legal, labels, steps).move == example:
                lines.append(lang.tr("Words may be left out while only one move fits: {short}", short=short))
            start = " ".join(words[:-1])
            if len(read_move(start, legal, labels, steps).matches) > 1:
                lines.append(lang.tr("Type the start of a move to see how it can go on: {start}", start=start))
    if presenter.cells:
        lines.append(lang.gettext(presenter.cells))
    verbs = [f"{verb} ({plain(lang.gettext(label))})" for verb, label in presenter.verbs.items()
             if any(m.split()[0] == verb for m in legal)]
    if verbs:
        lines.append(lang.tr("Moves begin with: {verbs}.", verbs=" · ".join(verbs)))
    lines.append(lang.gettext("Other words: moves (every move now), view (the board in words), hand (yours), "
                              "rules, pictures (where they are written), help, quit. Ctrl-D or Ctrl-C quits too; "
                              "the arrow keys edit the line and go back through what you typed."))
    lines.append(lang.gettext("back takes your last move back while nobody acted after it, if it showed nothing "
                              "hidden (once a move)."))
    return [lang.tr("How to play {title} here:", title=title), *("  " + line for line in lines)]


def options_text(presenter: Presenter, lang: Lang) -> list[str]:
    """The game's options, their values and defaults, for ``--option list``."""
    offers = offered(presenter.game.options_model)
    title = lang.gettext(presenter.title)
    if not offers:
        return [lang.tr("{title} has no options.", title=title)]
    lines = [lang.tr("{title} options (--option NAME=VALUE):", title=title)]
    for offer in offers:
        lines.append("  " + lang.tr("{name}: {values}, default {default}. {description}", name=offer.name,
                             values=values(offer, lang), default=default(offer, lang),
                             description=lang.gettext(offer.description)))
    return lines


def values(offer: Offer, lang: Lang) -> str:
    if offer.kind == "bool":
        return lang.gettext("yes or no")
    if offer.kind == "int":
        low = offer.minimum if offer.minimum is not None else "…"
        high = offer.maximum if offer.maximum is not None else "…"
        return lang.tr("a whole number from {low} to {high}", low=low, high=high)
    return lang.tr("one of {choices}", choices=", ".join(str(c) for c in offer.choices))


def default(offer: Offer, lang: Lang) -> str:
    if offer.default is None:
        return lang.gettext("unset")
    if isinstance(offer.default, bool):
        return "yes" if offer.default else "no"  # as typed (--option curse=yes), like the move notation
    return str(offer.default)


def every_game_options(presenters: Sequence[Presenter], lang: Lang) -> str:
    """Each game's options, for ``pyramid-bot play --help``."""
    return "\n".join(line for p in presenters for line in [p.kind + ":", *options_text(p, lang)[1:]])
