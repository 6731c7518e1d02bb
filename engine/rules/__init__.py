"""The rules, one module per part of the game (RULES.md's sections)."""
