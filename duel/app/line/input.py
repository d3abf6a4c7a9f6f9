"""Reading typed lines on a terminal without GNU readline.

``input()`` edits the line with GNU readline once the ``readline`` module is imported anywhere,
and readline 8.2 (as Python 3.11 links it) dies with SIGSEGV on some key sequences (issue 23:
``\\x7f\\t\\x08\\t\\x7f\\x1b\\x9b\\x1b\\r`` then ``\\x1b[2J\\r``). A segmentation fault leaves
no chance to save the game, so on a terminal the programs read lines with one of these instead:

* :class:`LineEditor` (``duel play --line``): prompt_toolkit, a line editor written in Python,
  whose worst case on odd bytes is an exception; it gives history (up/down) and Tab completion
  of commands and names.
* :class:`PlainReader` (``--plain``, ``wonders play``, or when prompt_toolkit is missing): the
  terminal's own line discipline (Backspace, Ctrl-U), no redrawing and no escape sequences, so
  a screen reader or a script reads exactly what is printed.

Piped input is not a terminal: it keeps reading with ``input()``, which never calls readline
on a pipe.
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Callable, Iterable

__all__ = ["LineEditor", "PlainReader", "clean_line", "terminal_reader"]


def clean_line(text: str) -> str:
    """``text`` without what a terminal can send but no one means to type: bytes that are not
    UTF-8 (decoded as lone surrogates, which cannot even be printed back) and control
    characters (an escape sequence's remains).

    >>> clean_line("bu\\udc9bild\\x1b 3\\t")
    'build 3 '
    """
    text = text.encode("utf-8", "ignore").decode("utf-8")
    return "".join(" " if ch == "\t" else ch for ch in text if ch == "\t" or ch.isprintable())


def _select_pending() -> bool:
    """Whether a whole line waits on standard input (a terminal in canonical mode delivers
    only whole lines)."""
    import select

    try:
        return bool(select.select([sys.stdin], [], [], 0)[0])
    except (OSError, ValueError):
        return False


class PlainReader:
    """Lines read by the terminal's line discipline: ``input()`` without readline.

    Bytes are decoded here (undecodable ones dropped), so a stray byte is never an error.
    """

    def __call__(self, prompt: str) -> str:
        sys.stdout.write(prompt)
        sys.stdout.flush()
        try:
            data = sys.stdin.buffer.readline()
        except OSError:  # the terminal went away (EIO after a hang-up)
            raise EOFError from None
        if not data:
            raise EOFError
        return clean_line(data.decode("utf-8", "replace").rstrip("\r\n").replace("\ufffd", ""))

    def pending(self) -> bool:
        return _select_pending()


class LineEditor:
    """prompt_toolkit's line editor: history, Tab completion of ``words()``, and no readline.

    Ctrl-C raises KeyboardInterrupt and Ctrl-D on an empty line EOFError, as ``input()`` does.
    """

    def __init__(self, words: Callable[[], Iterable[str]] = tuple) -> None:
        from prompt_toolkit import PromptSession
        from prompt_toolkit.history import InMemoryHistory
        from prompt_toolkit.input import create_input
        from prompt_toolkit.output.vt100 import Vt100_Output

        output = Vt100_Output.from_pty(sys.stdout)
        # No cursor-position requests: a terminal (or a script driving one) that does not
        # answer them would stall the prompt, and an answer arriving late would be read as
        # typed text.
        output.enable_cpr = False
        self.input = create_input(sys.stdin)
        self.session: PromptSession = PromptSession(
            history=InMemoryHistory(),
            completer=_completer(words),
            complete_while_typing=False,  # Tab only: a menu popping up would hide the table
            input=self.input,
            output=output,
            mouse_support=False,
        )

    def __call__(self, prompt: str) -> str:
        previous = self._deliver_signals_through_the_prompt()
        try:
            text = self.session.prompt(prompt)
        except OSError:  # the terminal went away (EIO after a hang-up)
            raise EOFError from None
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)
        return clean_line(text)

    def _deliver_signals_through_the_prompt(self) -> dict:
        """While the prompt runs, an exception raised by a Python signal handler (SIGHUP and
        SIGTERM unwinding to save the game) ends the prompt with that exception, instead of
        falling into prompt_toolkit's event loop, which would print it and wait for Enter."""
        previous = {}
        for sig in (signal.SIGHUP, signal.SIGTERM):
            handler = signal.getsignal(sig)
            if not callable(handler):
                continue

            def relay(signum, frame, handler=handler):
                try:
                    handler(signum, frame)
                except BaseException as error:
                    app = self.session.app
                    if app.loop is None or app.future is None or app.future.done():
                        raise
                    # From the loop, not from inside whatever the signal interrupted.
                    app.loop.call_soon_threadsafe(_exit_with, app, error)

            previous[sig] = signal.signal(sig, relay)
        return previous

    def pending(self) -> bool:
        """Whether a whole line was typed ahead: prompt_toolkit keeps the keys it read past
        the last Enter for the next prompt; the rest may still wait on the terminal."""
        from prompt_toolkit.input.typeahead import get_typeahead, store_typeahead
        from prompt_toolkit.keys import Keys

        keys = get_typeahead(self.input)
        store_typeahead(self.input, keys)  # only a look: the next prompt still gets them
        return any(k.key in (Keys.ControlM, Keys.ControlJ) for k in keys) or _select_pending()


def _exit_with(app, error: BaseException) -> None:
    if app.future is not None and not app.future.done():
        app.exit(exception=error)


def _completer(words: Callable[[], Iterable[str]]):
    """Completes the word being typed, or the words after a command (``build lum`` ->
    ``build Lumber Yard``, ``wonder sphinx with bat`` -> ``... with Baths``), from a list of
    commands and names, case-insensitively ("The" may be left out)."""
    from prompt_toolkit.completion import Completer, Completion

    class NameCompleter(Completer):
        def get_completions(self, document, complete_event):
            before = document.text_before_cursor
            lowered = before.lower()
            if " with " in lowered:
                fragment = before[lowered.rindex(" with ") + 6 :]
            else:
                verb, space, rest = before.partition(" ")
                fragment = rest if space else before
            fragment = fragment.lstrip()
            key = fragment.lower()
            for name in dict.fromkeys(words()):
                name_key = name.lower()
                if name_key.startswith(key) or name_key.removeprefix("the ").startswith(key):
                    yield Completion(name, start_position=-len(fragment))

    return NameCompleter()


def terminal_reader(
    *, plain: bool, words: Callable[[], Iterable[str]] = tuple
) -> PlainReader | LineEditor:
    """The reader for a terminal: the line editor, or plain lines (``plain``, or without
    prompt_toolkit)."""
    if not plain:
        try:
            return LineEditor(words)
        except ImportError:
            pass
    return PlainReader()
