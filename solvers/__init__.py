"""Solvers for 7 Wonders Duel: exact payment (``payment``), its OR-Tools oracle
(``payment_model``) and expectiminimax search (``search``)."""
