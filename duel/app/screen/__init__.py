"""The full-screen Textual app: the board, start, review and the expansions' screens."""
