"""What the terminal game says: the moves on offer, the help that teaches the notation
from the position on the table, a game's options, and the result, all in the
player's language. Board and hand descriptions are ``render.describe``'s (the alt text
of the pictures), so the terminal says what the pictures show."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from bot.games.presenter import Presenter
from bot.terminal.reading import lettered, read_move
from engine.core.options import Offer, offered
from i18n import Lang

#: Up to this many moves are listed one by one; more are grouped by how they begin.
LISTED = 12
#: Up to this many groups are shown; more are summed up by their first word.
GROUPS = 16
#: The words the prompt understands besides moves (English, as typed; the help explains them).
COMMANDS = ("help", "moves", "view", "hand", "rules", "pictures", "quit")


def plain(text: str) -> str:
    """Discord's markdown (**bold**, *italic*) as plain terminal text."""
    return re.sub(r"\*{1,2}([^*]+)\*{1,2}", r"\1", text)


def moves_line(legal: Sequence[str], labels: Mapping[str, str], lang: Lang) -> str:
    """The moves on offer, short: each one with letters for cells; many grouped by all
    but their last word ("play R4: A B"); very many by their first ("build: 135 moves")."""
    shown = [lettered(move, labels) for move in legal]
    if len(shown) <= LISTED:
        return lang.tr("Moves: {moves}", moves=" · ".join(shown))
    groups: dict[str, list[str]] = {}
    for move in shown:
        head, _, last = move.rpartition(" ")
        groups.setdefault(head, []).append(last)
    if len(groups) <= GROUPS:
        parts = [lang.trn("{head} … ({n} move)", "{head} … ({n} moves)", len(lasts), head=head, n=len(lasts))
                 if len(lasts) > LISTED else f"{head}: {' '.join(lasts)}" if head else " ".join(lasts)
                 for head, lasts in groups.items()]
        text = " · ".join(parts)
        if any(len(lasts) > LISTED for lasts in groups.values()):
            return lang.tr("Moves: {moves}. Type the start of a move to see how it goes on.", moves=text)
        return lang.tr("Moves: {moves}", moves=text)
    firsts: dict[str, int] = {}
    for move in shown:
        first = move.split()[0]
        firsts[first] = firsts.get(first, 0) + 1
    parts = [first if n == 1 else lang.trn("{word} ({n} move)", "{word} ({n} moves)", n, word=first, n=n)
             for first, n in firsts.items()]
    return lang.tr("Moves: {moves}. Type the start of a move to see how it goes on.", moves=" · ".join(parts))


def choices_line(matches: Sequence[str], labels: Mapping[str, str], lang: Lang) -> str:
    """What to choose from when the typed words fit several moves (as the picker's next buttons)."""
    shown = " · ".join(lettered(m, labels) for m in matches[:LISTED]) + (" …" if len(matches) > LISTED else "")
    return lang.trn("That fits {n} move: {moves}. Type more of the move.",
                    "That fits {n} moves: {moves}. Type more of the move.", len(matches), n=len(matches), moves=shown)


def help_text(presenter: Presenter, legal: Sequence[str], labels: Mapping[str, str], lang: Lang) -> list[str]:
    """How to type a move, shown on a move of this very position."""
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
            if read_move(short, legal, labels).move == example:
                lines.append(lang.tr("Words may be left out while only one move fits: {short}", short=short))
            start = " ".join(words[:-1])
            if len(read_move(start, legal, labels).matches) > 1:
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
