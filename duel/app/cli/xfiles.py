"""``duel show`` and ``duel hint`` on an expansion game's file (a position, a record or the save
of a game in progress): one-line errors, as every command's."""

from __future__ import annotations

import json
from pathlib import Path

from duel.app.control.xgame import (
    HUMAN,
    MAX_ITERATIONS,
    hint_lines,
)
from duel.app.control.xsaves import (
    read_save,
)
from duel.app.i18n import tr, tr_error
from duel.app.text.xboard import board_lines
from duel.expansions.position import XPositionError, is_xposition, load_position
from duel.expansions.record import XRecord, XRecordError
from duel.files import read_json_file
from duel.moves import PLAYER_NAMES


def show_expansion_file(path: Path, at: int | None) -> int:
    """``duel show FILE`` for a game with expansions: a position, or a finished record's table
    after move ``at`` (default: the end). A save in progress shows only what its readable part
    shows, so it is refused (``duel play --load`` continues it)."""
    from duel.app.cli.support import fail

    try:
        data = read_json_file(path, XPositionError)
        if is_xposition(data):
            state = load_position(path)
        else:
            states = XRecord.load(path).states()
            index = len(states) - 1 if at is None or at == -1 else at
            if not 0 <= index < len(states):
                fail(tr("--at: the record has {n} moves", n=len(states) - 1))
            state = states[index]
    except (XRecordError, XPositionError) as error:
        fail(tr_error(error))
    print("\n".join(board_lines(state)))
    print(state.describe())
    return 0


def hint_record(
    path: Path,
    seconds: float | None,
    top: int,
    seed: int,
    as_json: bool,
    nodes: int | None = None,
) -> int:
    """``duel hint FILE`` for a game with expansions (a record, the save of a game in progress,
    or a position): the moves of the player to move at its end, searched on that player's view
    for ``nodes`` iterations or ``seconds`` (default 2). A save's AI seat gets no hint (its view
    holds cards the human may not see), nor a save of a game between two people (the command
    cannot tell which of them asks: hints are given in the game, at the asker's turn), nor a
    position that is the other player's view."""
    from duel.app.cli.support import check_finite, fail

    check_finite("--time", seconds, positive=True)
    if nodes is not None and not 1 <= nodes <= MAX_ITERATIONS:
        fail(
            tr(
                "{option} must be between 1 and {top}, not {value}",
                option="--nodes",
                top=f"{MAX_ITERATIONS:,}",
                value=nodes,
            )
        )
    try:
        if is_xposition(read_json_file(path, XPositionError)):
            state, players = load_position(path), None
        else:
            record, key = read_save(path)
            state = record.final_state()
            players = record.metadata.get("players") if key is not None else None
    except (XRecordError, XPositionError) as error:
        fail(tr_error(error))
    if state.is_terminal() or state.is_chance():
        fail(
            tr(
                "{path}: no decision to hint at ({position})",
                path=path,
                position=state.describe(),
            ),
            1,
        )
    if (
        not state.is_terminal()
        and isinstance(players, list)
        and len(players) == 2
        and players[state.to_move] != HUMAN
    ):
        fail(
            tr(
                "{path}: {player} to move is an AI ({level}); hints are for a human's decisions",
                path=path,
                player=PLAYER_NAMES[state.to_move],
                level=players[state.to_move],
            ),
            1,
        )
    if isinstance(players, list) and players.count(HUMAN) == 2:
        fail(
            tr(
                "{path}: a game between two people, each with face-down cards the other may "
                "not see; ask for a hint in the game, at your turn (hint, or F2)",
                path=path,
            ),
            1,
        )
    if state.observer not in (None, state.to_move):
        fail(
            tr(
                "{path}: the position is {observer}'s view and {player} is to move; a hint "
                "reads the mover's own view",
                path=path,
                observer=PLAYER_NAMES[state.observer],
                player=PLAYER_NAMES[state.to_move],
            ),
            1,
        )
    view = state if state.observer is not None else state.view(state.to_move)
    lines, data = hint_lines(
        view, seconds if seconds is not None else 2.0, max(1, top), seed, nodes=nodes
    )
    if as_json:
        print(json.dumps(data, indent=1))
    else:
        print("\n".join(board_lines(view)))
        print("\n".join(lines))
    return 0

