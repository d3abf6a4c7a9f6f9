"""The bounds of a player's level: the longest time budget anything may name, and the default
level as this machine can play it."""

from __future__ import annotations

#: The longest time budget an option, a level or a save may name, in seconds (a day): the same
#: bound as the levels' (``duel.solvers.players.MAX_SECONDS``, which this module does not import
#: for the sake of ``--help``'s speed; a test keeps the two equal).
MAX_SECONDS = 86_400.0


def default_player(level: str) -> str:
    """A default level as this machine can play it: ``cmcts`` needs the compiled MCTS (else
    the search, or random without the solvers). ``duel play``'s opponent and ``duel review``'s
    engine by default."""
    if level != "cmcts":
        return level
    try:
        from duel.solvers.hint import cmcts_available
    except ImportError:
        return "random"
    return level if cmcts_available() else "search"

