"""The `referee` command line (the entry point `run` is in main.py)."""
