"""Python errors raised while the rules run, as RulesRuntimeErrors located at the rules line."""
from ..runtime.errors import RulesRuntimeError

PYTHON_ERRORS = (TypeError, AttributeError, KeyError, IndexError, ValueError, ZeroDivisionError,
                 RecursionError)


def located(s, error, doing) -> RulesRuntimeError:
    """A Python error raised while evaluating the rules (a 'none' where a number was needed,
    say) as a located RulesRuntimeError: a rules bug, never a traceback."""
    flow = s.game.flow
    span = flow[s.pc].span if 0 <= s.pc < len(flow) else None
    # the rules line of the innermost generated function the error went through
    trace = error.__traceback__
    while trace is not None:
        spans = s.game.line_spans.get(trace.tb_frame.f_code.co_filename)
        if spans and trace.tb_lineno in spans:
            span = spans[trace.tb_lineno]
        trace = trace.tb_next
    if isinstance(error, RulesRuntimeError):    # a library function's own message, located here
        return RulesRuntimeError(error.message, span)
    if isinstance(error, RecursionError):      # the rules' own functions, calling themselves
        return RulesRuntimeError(f"functions call each other too deeply while {doing}: a function that calls itself without end?", span)
    return RulesRuntimeError(f"{type(error).__name__} while {doing}: {error}", span)
