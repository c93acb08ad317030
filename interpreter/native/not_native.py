"""What a native kernel refuses: the construct and where the rules say it (the fallback note)."""


class NotNative(Exception):
    """A construct the kernel renderer does not handle: what, and where the rules say it."""

    def __init__(self, what: str, span=None):
        super().__init__(what)
        self.what, self.span = what, span

    def note(self) -> str:
        where = f"{self.span.file}:{self.span.line}: " if self.span is not None else ""
        return f"{where}{self.what}"
