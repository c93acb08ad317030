"""The commands of `referee`, one module per command or small family; arguments.py's table
names each one's function."""
