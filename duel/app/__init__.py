"""The programs of 7 Wonders Duel: the ``duel`` command and what it draws.

They build on the game (:mod:`duel`) and the solvers; nothing else imports them.

* :mod:`duel.app.cli` - the ``duel`` command (typer): ``play``, ``show``, ``price``, ``hint``,
  ``analyse``, ``replay``, ``review``, ``selfplay``, ``match``; its parts are
  :mod:`~duel.app.cli_analysis`, :mod:`~duel.app.cli_replay`, :mod:`~duel.app.cli_review` and
  :mod:`~duel.app.cli_support` (errors, loading files, the options of batch commands);
* :mod:`duel.app.tui` - ``duel play`` in line mode; :mod:`duel.app.fullscreen` - the full-screen
  Textual app;
* :mod:`duel.app.game_control` - what ``duel play`` decides without input or output (dealing,
  undo, saving); :mod:`duel.app.replay` - stepping through a record;
* :mod:`duel.app.view_model`, :mod:`duel.app.render`, :mod:`duel.app.render_review` - drawing;
  :mod:`duel.app.lines`, :mod:`duel.app.words` - wording.

Nothing heavy is imported here, so that ``duel --help`` stays fast.
"""
