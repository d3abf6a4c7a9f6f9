"""Tests of the base game (package ``wonders``)."""
