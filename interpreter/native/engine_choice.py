"""`--engine python|native|auto`: which engine plays a command's random games. native and
auto play natively when Numba is installed and the game renders natively; otherwise they play
in Python with a one-line note saying why (the construct and its rules line), so that a native
run never gives another game than Python's."""
from __future__ import annotations

ENGINES = ("python", "native", "auto")


def numba_missing() -> str | None:
    try:
        import numba  # noqa: F401
    except ImportError:
        return "Numba is not installed (pip install 'referee[native]')"
    return None


def native_kernel(game, engine: str, why_not_here: str | None = None):
    """(the game's Kernel or None, a note saying why it plays in Python or None). why_not_here:
    what the command asks that the kernel does not do (logs, coverage, other bots)."""
    if engine == "python":
        return None, None
    reason = why_not_here or numba_missing()
    if reason is None:
        from .kernel import NotNative, load_kernel
        try:
            return load_kernel(game), None
        except NotNative as refused:
            reason = refused.note()
    return None, f"referee: playing in Python, not natively: {reason}"
