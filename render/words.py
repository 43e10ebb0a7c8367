"""The words drawn on pictures, in the reader's language.

The bot names the reader's language in the view it draws (``view["lang"]``: a code
such as ``"de"``; none means English), so the channel's board speaks the server's
language and a DM'd hand the player's. Drawing code asks :func:`lang` for the view's
:class:`i18n.Lang` and draws ``lang(view).tr("Move {number}", number=n)``; Babel
extracts those calls like any other message. The view is the only input, so the same
view still gives the same bytes (and a picture cache keyed by the view keeps one
picture per language).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from i18n import Lang, shared_texts


def lang(view: Mapping[str, Any]) -> Lang:
    """The language of ``view``'s words (the default, English, when it names none we speak)."""
    return shared_texts().lang(view.get("lang"))


__all__ = ["lang"]
