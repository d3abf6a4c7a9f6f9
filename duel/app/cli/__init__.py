"""The ``duel`` command (typer): it reads options, decides which program runs (the line mode,
the full screen, a batch job) and says bad input in one line.

* :mod:`duel.app.cli.main` - the command and ``play``, ``show``, ``price``, ``selfplay``; it
  chooses the line mode or the full screen for ``duel play``;
* :mod:`duel.app.cli.analysis` - ``hint``, ``analyze`` and ``match``: the solvers on the
  command line;
* :mod:`duel.app.cli.replay` - ``replay``, ``export`` and ``show --at/--moves`` on records;
* :mod:`duel.app.cli.review` - ``review``: a whole game analysed on every core;
* :mod:`duel.app.cli.xfiles` - ``show`` and ``hint`` on an expansion game's file;
* :mod:`duel.app.cli.support` - what every command shares: errors, help in the user's
  language, reading a position, the options of batch commands.
"""
