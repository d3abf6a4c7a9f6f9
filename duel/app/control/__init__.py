"""What a game decides without input or output (no rich, textual or typer)."""
