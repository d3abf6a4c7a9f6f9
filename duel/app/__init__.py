"""The programs of 7 Wonders Duel: the ``duel`` command and what it draws.

They build on the game (:mod:`duel`) and the solvers; nothing else imports them but the other
programs (:mod:`duel.net`, :mod:`wonders.app`). A subpackage per role, the expansions' modules
(``x...``) beside their base twins:

* :mod:`duel.app.cli` - the ``duel`` command (typer) and nothing else: it parses options,
  decides which program runs and reports bad input in one line;
* :mod:`duel.app.control` - what a game decides without input or output (dealing, turns, AI
  moves, undo, saving, replay, live analysis); no rich, textual or typer;
* :mod:`duel.app.text` - what the programs say: wording, the view model, the tables drawn as
  text or rich renderables; no textual;
* :mod:`duel.app.line` - ``duel play`` in line mode, reading typed lines; no textual;
* :mod:`duel.app.screen` - the full-screen Textual app;
* :mod:`duel.app.i18n` and ``locale/`` - the message catalog every layer above translates with.

``tests/test_layers.py`` holds these rules. Nothing heavy is imported here, so that
``duel --help`` stays fast.
"""
