"""What the programs say and draw as text (rich at most, no textual)."""
