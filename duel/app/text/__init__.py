"""What the programs say and draw as text: wording, the view model, the table as plain lines or
rich renderables. No textual (``tests/test_layers.py``); the plain modules (no rich) serve the
control as well.

* :mod:`duel.app.text.view_model` - the table as plain data, which every view draws;
* :mod:`duel.app.text.render` - the table drawn: rich renderables and plain lines;
* :mod:`duel.app.text.moves` - what a move did, in words (no rich);
* :mod:`duel.app.text.lines` - a line of play in words, chance steps marked (no rich);
* :mod:`duel.app.text.words` - plurals and display names (no rich);
* :mod:`duel.app.text.typed` - reading what a player types: names, numbers, file names;
* :mod:`duel.app.text.board` - the full-screen board's text at any size;
* :mod:`duel.app.text.analysis` - the live analysis panel;
* :mod:`duel.app.text.review` - a review's move list, graph and summary;
* :mod:`duel.app.text.endgame` - ``duel analyze --exact`` in words, with its progress bar;
* :mod:`duel.app.text.xboard` - an expansion game's table and moves as lines.
"""
