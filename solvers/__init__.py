"""Solvers for 7 Wonders Duel: exact payment (``payment``; its OR-Tools oracle is the engine's
``duel.payment_model``), expectiminimax search (``search``) and the MCTS players."""
