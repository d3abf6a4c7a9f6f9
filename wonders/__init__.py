"""The base game of 7 Wonders (2010 first edition), 2-7 players, next to the Duel engine.

Modules: ``cards`` (data), ``trading`` (cheapest purchases, backed by
``duel.payment_model``), ``science``, ``game`` (state and rules), ``bots``; the ``wonders``
command is ``app.cli``.
Nothing heavy is imported here so that ``wonders --help`` stays fast.
"""
