"""Every rules file of games/ and games/variants/ at every player count it allows, taken to
arrays and back along random playouts (tests/test_native_layout.py, whose suite run plays a
sample: each file once, each player count once). Extra arguments go to pytest, e.g. -n 2:

    python -m tests.sweeps.native_layout -n 2
"""
import os
import sys

import pytest

from tests.sweeps import SWEEP_ENV


def main(argv) -> int:
    os.environ[SWEEP_ENV] = "1"
    return pytest.main(["-q", "-p", "no:cacheprovider", "tests/test_native_layout.py", *argv])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
