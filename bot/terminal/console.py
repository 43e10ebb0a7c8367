"""Reading lines from the player: with line editing and history on a terminal.

On a terminal, Python's ``input`` edits the line with the arrow keys and goes back
through earlier lines once :mod:`readline` is loaded; without it, the arrow keys
type ``^[[D``. Tab completes the words the prompt takes (moves and commands).
Typed input that is not a terminal (a pipe, a test) is read line by line as it is.
End of input (Ctrl-D) answers None; Ctrl-C is left to the game, which says goodbye.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Sequence
from typing import TextIO


class Console:
    def __init__(self, stdin: TextIO, stdout: TextIO) -> None:
        self.stdin = stdin
        self.stdout = stdout
        self.words: Callable[[], Sequence[str]] = tuple
        self.interactive = stdin is sys.stdin and stdout is sys.stdout and _isatty(stdin) and _isatty(stdout)
        if self.interactive:
            self._editing()

    def say(self, text: str = "") -> None:
        print(text, file=self.stdout, flush=True)

    def ask(self, prompt: str) -> str | None:
        """One line (None at the end of input)."""
        if self.interactive:
            try:
                return input(prompt)
            except EOFError:
                self.say()
                return None
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            self.say()
            return None
        line = line.rstrip("\n")
        self.say(line)  # the typed line, so what was read reads like a terminal session
        return line

    def _editing(self) -> None:
        """Line editing, history and completion where the platform has readline."""
        try:
            import readline
        except ImportError:  # Windows without pyreadline: plain input still works
            return
        with contextlib.suppress(Exception):  # libedit and readline differ in what they accept
            readline.set_completer_delims(" ")
            readline.parse_and_bind("tab: complete")
            readline.set_completer(self._complete)

    def _complete(self, text: str, state: int) -> str | None:
        import readline

        line = readline.get_line_buffer()
        start = line[: readline.get_begidx()]
        options = sorted({w[len(start):].split(" ", 1)[0] for w in self.words()
                          if w.casefold().startswith((start + text).casefold())} - {""})
        return options[state] if state < len(options) else None


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
