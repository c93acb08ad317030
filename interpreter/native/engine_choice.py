"""`--engine python|native|auto`: which engine plays a command's random games. native and
auto play natively when Numba is installed and the game renders natively; otherwise they play
in Python with a one-line note saying why (the construct and its rules line), so that a native
run never gives another game than Python's. The search bots' playouts (native_rollouts) and
verify's games (native_verify) choose the same way."""
from __future__ import annotations

import sys
import time

ENGINES = ("python", "native", "auto")
NUMBA_IMPORT: list = []         # (the wall seconds Numba's import took in this process)


def numba_missing() -> str | None:
    try:
        import_numba()
    except ImportError:
        return "Numba is not installed (pip install 'referee[native]')"
    return None


def import_numba() -> None:
    """Import Numba and the module of its registries that looks for SciPy's BLAS (for np.dot
    and linear algebra, which no kernel calls) by importing scipy.linalg: ~0.2 CPU s of the
    ~1 s a cached kernel's start costs. Here, in a command's process, that import is refused
    once (numba's BLAS then stays off in this process); SciPy itself stays importable, and a
    process that imported scipy.linalg first keeps numba's BLAS."""
    started = time.perf_counter()
    import numba  # noqa: F401
    if "numba.np.arraymath" in sys.modules:
        return
    refused = "scipy.linalg" not in sys.modules
    if refused:
        sys.modules["scipy.linalg"] = None      # (an import of it raises ImportError)
    try:
        import numba.np.arraymath  # noqa: F401
    finally:
        if refused and sys.modules.get("scipy.linalg", False) is None:
            del sys.modules["scipy.linalg"]
    NUMBA_IMPORT.append(time.perf_counter() - started)


def native_kernel(game, engine: str, why_not_here: str | None = None):
    """(the game's Kernel or None, a note saying why it plays in Python or None). why_not_here:
    what the command asks that the kernel does not do (logs, coverage, other bots)."""
    def kernel():
        from .kernel import load_kernel
        return load_kernel(game)
    found, reason = compiled(engine, why_not_here, kernel)
    return found, None if reason is None else f"referee: playing in Python, not natively: {reason}"


def native_rollouts(game, engine: str, why_not_here: str | None = None):
    """(the game's NativeRollouts or None, a note saying why the search bots' playouts run in
    Python or None), as native_kernel chooses."""
    def rollouts():
        from .rollouts import rollouts_of
        return rollouts_of(game)
    found, reason = compiled(engine, why_not_here, rollouts)
    return found, None if reason is None else f"referee: the search bots' playouts run in Python, not natively: {reason}"


def native_verify(game, engine: str, why_not_here: str | None = None):
    """(the game's VerifyKernel or None, a note saying why verify plays in Python or None), as
    native_kernel chooses."""
    def kernel():
        from .verify_games import VerifyKernel
        return VerifyKernel(game)
    found, reason = compiled(engine, why_not_here, kernel)
    return found, None if reason is None else f"referee: verifying in Python, not natively: {reason}"


def compiled(engine: str, why_not_here: str | None, load):
    """(load()'s kernel, compiled, or None, why not or None); the kernel's start_seconds: the
    wall seconds of Numba's import, the kernel's source and module, and its compile or load."""
    if engine == "python":
        return None, None
    reason = why_not_here or numba_missing()
    if reason is None:
        from .not_native import NotNative
        try:
            started = time.perf_counter()
            kernel = load()
            kernel.compile()            # (here, so that a kernel that does not build falls back)
            kernel.start_seconds = sum(NUMBA_IMPORT) + time.perf_counter() - started
            return kernel, None
        except NotNative as refused:
            reason = refused.note()
        except OSError as error:
            reason = f"the kernel cache cannot be written ({error})"
        except Exception as error:      # a kernel Numba refuses: a gap of the renderer, said
            first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
            reason = f"the kernel did not compile ({type(error).__name__}: {first})"
    return None, reason
