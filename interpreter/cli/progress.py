"""A progress line on standard error for the long commands (simulate, analyze, verify, bench).

It is drawn only where a person watches it: standard error is a terminal, and neither --json
(the output is for a program) nor --quiet asked otherwise. It appears once a run has lasted
FIRST_DRAW seconds (a short run shows nothing), is redrawn at most every INTERVAL seconds, and
is wiped at the end, so that what the command prints afterwards stands alone.

    progress = Progress(1000, "simulating", enabled=wanted(args))
    progress.update(312)    # simulating ███████░░░░░░░░░░░░░░░░░ 312/1000 games · 250/s · 3 s left
    progress.close()

    with Ticking(5.0, "benchmarking", enabled=wanted(args)):   # a time budget: a clock thread
        ...
"""
from __future__ import annotations

import sys
import threading
import time

FIRST_DRAW = 0.5        # seconds before the line first appears
INTERVAL = 0.2          # seconds between two redraws
BAR = 24                # characters of the bar


def wanted(args, stream=None) -> bool:
    """Whether a command run with `args` shows a progress line on `stream` (stderr)."""
    stream = stream or sys.stderr
    if getattr(args, "json", False) or getattr(args, "quiet", False):
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):      # a closed or unusual stream
        return False


def amount(value) -> str:
    return f"{value:.1f}" if isinstance(value, float) else str(value)


def progress_text(label, done, total, unit, elapsed) -> str:
    """'simulating ███░░░ 312/1000 games · 250/s · 3 s left' (the rate and time left once known)."""
    fraction = min(1.0, done / total) if total else 1.0
    filled = round(BAR * fraction)
    parts = [f"{label} {'█' * filled}{'░' * (BAR - filled)} {amount(done)}/{amount(total)} {unit}"]
    if unit != "s" and done and elapsed > 0:
        rate = done / elapsed
        parts.append(f"{rate:.0f}/s" if rate >= 10 else f"{rate:.1f}/s")
        parts.append(f"{max(0, round((total - done) / rate))} s left")
    return " · ".join(parts)


class Progress:
    """A progress line for `total` things (games, seconds) of one command."""

    def __init__(self, total, label, unit="games", enabled=True, stream=None, clock=time.perf_counter):
        self.total, self.label, self.unit = total, label, unit
        self.enabled = enabled
        self.stream = stream or sys.stderr
        self.clock = clock
        self.started = clock()
        self.last = None        # when the line was last drawn
        self.width = 0          # of the line drawn, to wipe it
        self.lock = threading.Lock()

    def update(self, done):
        if not self.enabled:
            return
        now = self.clock()
        if now - self.started < FIRST_DRAW or (self.last is not None and now - self.last < INTERVAL):
            return
        self.last = now
        text = progress_text(self.label, done, self.total, self.unit, now - self.started)
        with self.lock:
            # padded over a longer line drawn before it
            self.stream.write("\r" + text.ljust(self.width))
            self.stream.flush()
            self.width = max(self.width, len(text))

    def close(self):
        with self.lock:
            if self.enabled and self.width:
                self.stream.write("\r" + " " * self.width + "\r")
                self.stream.flush()
            self.width = 0
            self.enabled = False      # nothing more once closed (a late update, a second close)


class Ticking(Progress):
    """The progress of a time budget of `seconds`, kept by a clock thread: for a command that
    waits on its workers (bench) and has nothing to count meanwhile."""

    def __init__(self, seconds, label, enabled=True, stream=None, clock=time.perf_counter):
        super().__init__(seconds, label, unit="s", enabled=enabled, stream=stream, clock=clock)
        self.stopped = threading.Event()
        self.thread = None

    def __enter__(self):
        if self.enabled:
            self.thread = threading.Thread(target=self.tick, name="referee-progress", daemon=True)
            self.thread.start()
        return self

    def tick(self):
        while not self.stopped.wait(max(0.01, INTERVAL / 2)):
            self.update(min(self.total, self.clock() - self.started))

    def __exit__(self, *exc):
        self.stopped.set()
        if self.thread is not None:
            self.thread.join()
        self.close()
        return False
