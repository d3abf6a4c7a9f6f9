"""``duel play`` in line mode: the table printed, typed lines read. No textual
(``tests/test_layers.py``); whether a game runs here or full screen is
:mod:`duel.app.cli.main`'s choice.

* :mod:`duel.app.line.play` - the base game's line mode (:class:`Session`);
* :mod:`duel.app.line.xplay` - the expansions' line mode, with the hand-over between two people;
* :mod:`duel.app.line.input` - reading lines on a terminal without GNU readline.
"""
