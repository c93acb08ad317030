"""Signals and errors of a running game."""


class RulesRuntimeError(Exception):
    """The rules did something that cannot be done (a rules bug found while playing): `message`
    says what, `span` where in the rules (or None); its text is '<span>: runtime error: <message>'."""

    def __init__(self, message, span=None):
        self.message = message
        self.span = span
        where = f"{span}: " if span is not None else ""
        super().__init__(f"{where}runtime error: {message}")


class UnlocatedRulesError(RulesRuntimeError, ValueError):
    """Raised by library code that does not know the rules line it runs for (a standard
    function given none): caught with the Python errors, and located at the rules line."""


class DeclarationError(RulesRuntimeError):
    """A declaration found wrong when the game is loaded, once its params are known (a range
    that holds no value): load_game reports it as a diagnostic with its code and hint."""

    def __init__(self, code, message, span, hint=None):
        super().__init__(message, span)
        self.code, self.hint = code, hint


class DeadEnd(RulesRuntimeError):
    """A player must move but has no legal move."""


class SameNamedMoves(RulesRuntimeError):
    """Two different moves (or options of a choice) would have the same name: a player could not
    tell them apart, and listing one would silently drop the other."""


class IllegalMove(Exception):
    """A move that is not legal now; `reason` says why, for the player."""

    def __init__(self, reason):
        self.reason = reason
        super().__init__(reason)


class NeedChoice(Exception):
    """Raised inside an effect that reaches a choice not yet made; the engine asks the player."""

    def __init__(self, options, names, chooser, prompt, public_names=None, weights=None, item_labeler=None,
                 created=None):
        self.options = options
        # how the adapters number options that are no label of the rules: lists item by item
        # (labelled so), components created in play (of the type named `created`) by position
        self.numbering = (item_labeler, created) if item_labeler is not None or created is not None else None
        self.weights = weights              # a chance node's: how likely each option is (relative)
        self.names = names
        self.public_names = public_names    # the names as the other players see them
        self.chooser = chooser
        self.prompt = prompt


class Finished(Exception):
    """Raised by 'finish' to stop the effects that follow it."""
