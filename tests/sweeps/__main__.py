"""python -m tests.sweeps [pytest arguments]: the sampled tests over everything (see __init__)."""
import os
import sys

import pytest

from . import SAMPLED_MODULES

if __name__ == "__main__":
    os.environ["REFEREE_SWEEP"] = "1"
    sys.exit(pytest.main(["-q", "-p", "no:cacheprovider", "-n", "2", *SAMPLED_MODULES, *sys.argv[1:]]))
