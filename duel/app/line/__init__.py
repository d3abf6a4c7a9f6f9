"""``duel play`` in line mode: prompts, typed moves, the expansions' loop."""
