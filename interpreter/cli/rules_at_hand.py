"""The rules at hand at the play prompt: `rules` (every rule text the file tags, by rule id),
`rules C-8` (one), and `help MOVE` (what a move does, in the words of its action's rule
texts, and what the parts of its name stand for), with a legend of the moves of now."""
from __future__ import annotations

import textwrap
import weakref

from referee.dsl import rulebook

from ..engine.moves import normalise
from ..engine.render import width as terminal_width
from .common import shortened

RULES_WORDS = ("rules", "rule", "r")
HELP_WORDS = ("help", "?", "h")


def asked(text: str, names) -> tuple | None:
    """('rules', ID or ''), ('help', MOVE) for a line that asks for the rules or for a move's
    help, or None (a bare 'help' is the session's own command; a legal move's name is a move)."""
    if normalise(text) in {normalise(name) for name in names}:
        return None
    word, _, rest = text.strip().partition(" ")
    word, rest = word.lower(), rest.strip()
    if word in RULES_WORDS and (rest or word == "rules"):
        return "rules", rest
    if word in HELP_WORDS and rest:
        return "help", rest
    return None


def answer(state, request) -> str:
    """The text that answers asked()'s request at `state`."""
    kind, what = request
    if kind == "rules":
        return rules_text(state.game, what)
    return move_help(state, what)


BOOKS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()      # game -> its rulebook


def rulebook_of(game) -> dict:
    """rule id -> {"texts", "places"}, as `referee rulebook` makes it (once per game)."""
    book = BOOKS.get(game)
    if book is None:
        book = BOOKS[game] = rulebook.build(game.program, game.sources)
    return book


def wrapped(head: str, text: str, indent="") -> list:
    """`text` wrapped to the terminal after `head`, its next lines under the text, or under
    `indent` when given."""
    return textwrap.wrap(text, min(100, terminal_width()), initial_indent=head,
                         subsequent_indent=indent or " " * len(head)) or [head.rstrip()]


def rule_lines(rule_id: str, entry, indent="  ") -> list:
    head = f"{indent}{rule_id:<6} "
    texts = entry["texts"] or ["(tagged without a text: see the places of the file that encode it)"]
    lines = wrapped(head, texts[0])
    for text in texts[1:]:
        lines += wrapped(" " * len(head), text)
    return lines


def rules_text(game, rule_id="") -> str:
    """Every rule text of the game by rule id, or the one rule `rule_id` (any case)."""
    book = rulebook_of(game)
    if not book:
        return (f"{game.title or 'this game'}: its file tags no rule texts (@ID \"text\"); "
                "'help MOVE' still says what a move's parts are")
    if not rule_id:
        lines = [f"The rules of {game.title or 'this game'} ('rules ID' shows one, 'help MOVE' a move's):"]
        for found, entry in book.items():
            lines += rule_lines(found, entry)
        return "\n".join(lines)
    wanted = rule_id.strip().upper()
    found = next((rid for rid in book if rid.upper() == wanted), None)
    if found is None:
        ids = list(book)
        return (f"no rule {shortened(rule_id, 16)} in these rules (their ids: {ids[0]} ... {ids[-1]}; "
                "'rules' lists them all)")
    places = ", ".join(f"line {line}" for _, line, _ in book[found]["places"])
    return "\n".join(rule_lines(found, book[found], indent="") + [f"       (encoded at {places})"])


# ---- moves -----------------------------------------------------------------------------------

def source_of(game, span) -> str:
    """The text of the rules file under `span` (on one line, spaces squeezed)."""
    lines = game.sources.get(span.file, "").splitlines()[span.line - 1:span.end_line]
    if not lines:
        return ""
    if len(lines) == 1:
        return lines[0][span.column - 1:span.end_column - 1]
    lines[0], lines[-1] = lines[0][span.column - 1:], lines[-1][:span.end_column - 1]
    return " ".join(" ".join(lines).split())


def action_rules(game, name) -> dict:
    """rule id -> the texts of its tags on action `name` and inside its body (file order);
    a tag without a text stands for the rule's texts elsewhere in the file."""
    declared = game.program.declarations.get(name)
    if declared is None:
        return {}
    span = (declared.tag or declared.node).span
    found: dict = {}
    for rule_id, text, at in game.program.tags():
        if at.file == span.file and span.line <= at.line <= span.end_line:
            texts = found.setdefault(rule_id, [])
            if text and text not in texts:
                texts.append(text)
    book = rulebook_of(game)
    return {rule_id: texts or book.get(rule_id, {"texts": []})["texts"] for rule_id, texts in found.items()}


def pattern_words(template: str) -> str:
    """'{q}-{f}' -> 'q-f': a move's name with its parts named as the action names them."""
    return template.replace("{", "").replace("}", "")


def action_lines(game, index, example=None, indent="") -> list:
    """What action `index` is: the pattern of its moves' names and what each part is (the
    binders as the file declares them), then its rule texts."""
    action = game.actions[index]
    declared = game.program.declarations.get(action.name)
    binders = getattr(declared.node, "binders", ()) if declared is not None else ()
    pattern = pattern_words(action.template or action.name)
    if binders:
        head = f"{action.name}: moves named '{pattern}'"
        if example is not None and example != pattern:
            head += f" (as '{example}')"
        head += ", where " + "; ".join(source_of(game, binder.span) for binder in binders)
    else:
        head = f"{action.name}: the move '{pattern}'"
    lines = wrapped(indent, head, indent + "    ")
    for rule_id, texts in action_rules(game, action.name).items():
        lines += rule_lines(rule_id, {"texts": texts}, indent + "  ")
    return lines


def moves_legend(state) -> list:
    """What each kind of move of now is (one entry per action), for `help`."""
    moves = state.legal_moves()
    shown, lines = [], []
    for move in moves:
        if move.kind == "action" and move.action not in shown:
            shown.append(move.action)
            lines += action_lines(state.game, move.action, move.name, indent="  ")
    if state.pending is not None and state.pending.prompt:
        lines.append(f"  a choice{choice_context(state)}: {state.pending.prompt}")
    if any(move.kind == "skip" for move in moves):
        lines.append("  skip: pass up the moves above, as the rules allow")
    return ["The moves of now:", *lines] if lines else []


def choice_context(state) -> str:
    """" (after 'fish with blue 1')": the move the chooser just made, whose step the choice is
    (nothing when the last move is another player's, or there is none)."""
    if not state.history or state.public_history[-1][0] != state.pending.chooser:
        return ""
    return f" (after '{state.history[-1]}')"


def move_help(state, text) -> str:
    """What the move `text` (a legal move's name or number, or an action's name) does."""
    game = state.game
    moves = state.legal_moves()
    names = [move.name for move in moves]
    typed = text.strip().lstrip("#")
    move = None
    if typed.isdigit() and 1 <= int(typed) <= len(moves) and not any(n.strip() == typed for n in names):
        move = moves[int(typed) - 1]
    else:
        move = next((m for m in moves if normalise(m.name) == normalise(text)), None)
    if move is not None and move.kind == "action":
        return "\n".join(action_lines(game, move.action, move.name))
    if move is not None:
        what = state.pending.prompt if move.kind == "choice" and state.pending is not None else None
        return f"'{move.name}': " + (f"an answer to the choice{choice_context(state)} '{what}'" if what else
                                     "passes up the other moves of now" if move.kind == "skip" else move.kind)
    index = game.action_index.get(text.strip())
    if index is None:
        index = next((i for i, a in enumerate(game.actions) if normalise(a.name) == normalise(text)), None)
    if index is not None:
        return "\n".join(action_lines(game, index))
    return (f"no move or action is named {shortened(text, 30)!r} now (the actions: "
            + ", ".join(a.name for a in game.actions) + "; 'moves' lists the legal moves)")
