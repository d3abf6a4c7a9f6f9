"""The full-screen app (Textual): a screen per decision, widgets that draw the view model and
fit the terminal (clear at 80x24).

* :mod:`duel.app.screen.app` - the base game's app (:class:`DuelApp`) and its dialogs;
* :mod:`duel.app.screen.start` - the start screen: a new game, a saved one, a review;
* :mod:`duel.app.screen.board` - the board's widgets (a card, the pyramid) and the layout;
* :mod:`duel.app.screen.review` - stepping through a reviewed game on its board;
* :mod:`duel.app.screen.xapp` - the expansions' app, driving :mod:`duel.app.control.xgame`;
* :mod:`duel.app.screen.xreview` - stepping through an expansion game's record.
"""
