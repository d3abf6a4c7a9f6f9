"""Input quoted back in a message at a readable length: the one helper of every message that
repeats what someone typed or what a file holds (a game layer module: the loaders use it, and
it depends on nothing)."""

from __future__ import annotations

#: Characters of someone's input quoted back in a message: enough to recognise it, short
#: enough that a pasted page (or a megabyte in a file) does not become the message.
QUOTE_LIMIT = 60


def shortened(text: str, limit: int = QUOTE_LIMIT) -> str:
    """``text`` cut to ``limit`` characters, saying how long it was.

    >>> shortened("build baths"), shortened("x" * 70_000, 5)
    ('build baths', 'xxxxx... (70,000 characters)')
    """
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text):,} characters)"


def quoted(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``value`` as a message quotes it (``repr``), cut to a readable length: the one helper
    every message that repeats a user's input or a file's value goes through.

    >>> quoted("baths"), quoted("y" * 1_000_000, 3), quoted(10**5000)
    ("'baths'", "'yyy'... (1,000,000 characters)", 'a number of 5,001 digits')
    """
    if isinstance(value, str) and len(value) > limit:
        return f"{value[:limit]!r}... ({len(value):,} characters)"
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**limit:
        # repr() refuses ints of more than 4,300 digits; their digits say nothing here anyway.
        return f"a number of {_digits(abs(value)):,} digits"
    return shortened(repr(value), limit)


def _digits(n: int) -> int:
    """The decimal digits of ``n`` > 0, counted without converting it to text."""
    import math

    digits = int(n.bit_length() * math.log10(2)) + 1
    return digits if n >= 10 ** (digits - 1) else digits - 1
