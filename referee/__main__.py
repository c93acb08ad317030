"""`python -m referee`: the `referee` command line (interpreter/cli/), as the installed script."""
import sys

from referee.interpreter.cli.main import run

if __name__ == "__main__":
    sys.exit(run())
