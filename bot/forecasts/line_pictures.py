"""The pictures of a forecast's lines (issue #41: "a preview of each line's position while setting
it"): the board after each line's moves and its answer, drawn in the render workers from the public
view ``bot.forecasts.line_preview`` worked out on re-deals of what the player cannot see.

They go as attachments of the one private answer to ``/pyramid forecast`` or the 🔮 form: at most
ten lines, so at most ten pictures, within Discord's ten files per message, and one REST call (the
deferred answer's edit) whatever the number of lines. A select to page through them would cost an
interaction and an edit per line looked at, and the player sees every line at once. A line with no
picture (it can't happen, its answer isn't certainly legal, or its board depends on hidden tiles)
keeps its words only. Each picture's alt text tells its line in words (the moves as the board's
story tells them, not their notation), then the board in words, within Discord's 1024 characters.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.core.session import Session
from bot.forecasts.line_preview import LinePreview
from bot.workers.rendering import Renderer
from engine.core.forecast import Line
from i18n import Lang
from render.describe import MAX_DESCRIPTION, describe_board


def line_told(session: Session, number: int, line: Line, lang: Lang) -> str:
    """Line ``number`` in words: "Line 2: after X, then Y, your answer Z." (no spot letters: those of
    today's board would name other spots once the line's moves are made)."""
    words = session.presenter.move_words
    others = lang.gettext(", then ").join(words(m, {}, lang) for m in line.others)
    return lang.tr("Line {line}: after {moves}, your answer {answer}.", line=number, moves=others,
                   answer=words(line.answer, {}, lang))


def line_description(session: Session, number: int, line: Line, view: Mapping[str, Any], lang: Lang) -> str:
    """A line's picture's alt text: the line in words, then the board after it (``view``) in words."""
    lead = line_told(session, number, line, lang) + " " + lang.gettext("The board then:")
    return lead + "\n" + describe_board(view, art=session.presenter.art, lang=lang,
                                        limit=max(1, MAX_DESCRIPTION - len(lead) - 1))


async def line_pictures(renderer: Renderer, session: Session, lines: Sequence[Line],
                        previews: Sequence[LinePreview], lang: Lang) -> list[discord.File]:
    """One picture per line that has one, in the lines' order, each named after its line."""
    files: list[discord.File] = []
    for number, (line, preview) in enumerate(zip(lines, previews, strict=True), start=1):
        if preview.view is None:
            continue
        file = await renderer.board(preview.view, art=session.presenter.art, labels={}, events=list(preview.events),
                                    description=line_description(session, number, line, preview.view, lang), lang=lang)
        file.filename = f"line{number}.png"
        files.append(file)
    return files
