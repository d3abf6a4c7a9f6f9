"""The ``duel`` command (typer): its subcommands and their shared options and errors."""
