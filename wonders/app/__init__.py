"""The ``wonders`` command (:mod:`wonders.app.cli`): the base game in the terminal.

It builds on the game (:mod:`wonders`) and the Duel programs' shared helpers; nothing else
imports it.
"""
