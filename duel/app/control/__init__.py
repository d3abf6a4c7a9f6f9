"""What a game decides without input or output; every view (the line mode, the full screen,
the network game) drives the same control. No rich, textual or typer here
(``tests/test_layers.py``); words come from :mod:`duel.app.text`'s plain modules.

* :mod:`duel.app.control.game` - the base game's :class:`GameController`: dealing (fair or
  seeded), turns, AI moves, undo, save and load, hints;
* :mod:`duel.app.control.xgame` - the expansions' :class:`XGameControl`: the referee's state,
  each player's view, the sealed save after every move, hints;
* :mod:`duel.app.control.xundo` - the expansions' undo policy;
* :mod:`duel.app.control.xsaves` - an expansion game's files: the sealing keys, reading a save;
* :mod:`duel.app.control.saves` - the data folder and the base game's autosaves;
* :mod:`duel.app.control.signals` - the signals after which a game is saved;
* :mod:`duel.app.control.levels` - the longest time budget and the default level;
* :mod:`duel.app.control.replay` - stepping through a record's positions;
* :mod:`duel.app.control.analysis` - live analysis: one position searched while the player
  thinks;
* :mod:`duel.app.control.values` - A's win chance at each position of a game in play (the graph).
"""
