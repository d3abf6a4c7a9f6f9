"""The signals after which a game in the terminal is saved (the terminal closed, a kill): raised
as :class:`Signalled` in the line mode, routed to the event loop in the full screen."""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager


# --- signals that end a game in the terminal -----------------------------------------------------
class Signalled(BaseException):
    """SIGHUP or SIGTERM arrived: save the game and leave (BaseException: no handler eats it)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


#: The signals after which a game in the terminal is saved: the terminal closed, a kill.
SAVE_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGHUP", "SIGTERM") if hasattr(signal, name)
)


def _raise_signal(signum: int, frame: object) -> None:
    raise Signalled(signum)


def route_signals_to_loop(
    signals: Iterable[int], handler: Callable[[int], object], *, install: bool
) -> None:
    """Install (or remove) ``handler(signum)`` for ``signals`` in the running asyncio loop: a
    full-screen app then answers a signal between two redraws, never in the middle of one.
    Not the main thread (no loop signals there): nothing is done."""
    import asyncio

    loop = asyncio.get_running_loop()
    for sig in signals:
        try:
            if install:
                loop.add_signal_handler(sig, handler, sig)
            else:
                loop.remove_signal_handler(sig)
        except (NotImplementedError, RuntimeError, ValueError):
            pass


@contextmanager
def signals_save_the_game() -> Iterator[None]:
    """While a game runs, SIGHUP and SIGTERM raise :class:`Signalled`, for the program to save
    the game and leave with 128 + the signal."""
    previous = {}
    for sig in SAVE_SIGNALS:
        with contextlib.suppress(ValueError, OSError):  # not the main thread: leave them
            previous[sig] = signal.signal(sig, _raise_signal)
    try:
        yield
    finally:
        for sig, handler in previous.items():
            with contextlib.suppress(ValueError, OSError):
                signal.signal(sig, handler)

