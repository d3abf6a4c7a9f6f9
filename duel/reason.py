"""Sentences the engine says (why a move is illegal, what is wrong in a position file), in
English, keeping their message template and values so that the programs can say them in the
player's language. The engine imports no UI: the programs' catalogs hold the templates'
translations (``duel/app/locale``, see docs/i18n.md), and ``duel.app.i18n.tr_reason`` applies
them.

>>> r = Reason("{field}: expected {expected}, got {got}", field="age", expected=3, got="'x'")
>>> print(r)
age: expected 3, got 'x'
>>> r.template
'{field}: expected {expected}, got {got}'
"""

from __future__ import annotations

from collections.abc import Callable


class Reason(str):
    """A sentence in English that keeps its ``template`` and ``values`` for translation.

    A value is a number, a component's English name or a move (a ``str``), another
    :class:`Reason`, or a tuple of these (a list, said with commas in English).

    >>> r = Reason("{name} is not in the discard pile", name="Baths")
    >>> r, r.template, r.values
    ('Baths is not in the discard pile', '{name} is not in the discard pile', {'name': 'Baths'})
    """

    template: str
    values: dict[str, object]

    def __new__(cls, template: str, /, **values: object) -> Reason:
        english = {k: ", ".join(v) if isinstance(v, tuple) else v for k, v in values.items()}
        self = super().__new__(cls, template.format(**english))
        self.template = template
        self.values = values
        return self

    def __reduce__(self) -> tuple[Callable[..., Reason], tuple[str, dict[str, object]]]:
        # pickles as the template and values (not as a plain str)
        return _rebuild_reason, (self.template, self.values)


def _rebuild_reason(template: str, values: dict[str, object]) -> Reason:
    return Reason(template, **values)


def reason_of(error: BaseException) -> str:
    """The :class:`Reason` an exception was raised with, else its text (for a message that
    wraps another: ``Reason("{field}: {error}", error=reason_of(error))``)."""
    arg = error.args[0] if len(error.args) == 1 else None
    return arg if isinstance(arg, Reason) else str(error)


def template(msgid: str, /) -> str:
    """Mark ``msgid`` as a reason's template where it is not written inside ``Reason(...)``
    (so that the catalog tool finds it); returns it unchanged."""
    return msgid
