"""Why a move a player typed is not legal now, in the rules' words."""
from __future__ import annotations

import re

from referee.dsl.types import BOOL, INT, PLAYER, named_type
from referee.dsl.diagnostics import did_you_mean

from ..runtime import RuleText
from ..runtime.errors import RulesRuntimeError
from .located import PYTHON_ERRORS
from .moves import move_name, normalise
from .views import index_values


def action_candidates(s, action, check_guard=True, typed=""):
    """Argument tuples of an action, in the order of its binders: the legal ones (the action's
    generated enumerator), or, without check_guard, every combination of the binders' domains
    with no filter at all (to explain why a move a player typed is refused); a binder with a
    reason for values outside its domain (`in D else "..."`) takes every value of its type
    there (for numbers, those the typed text holds)."""
    if check_guard:
        return action.enumerate(s)[0]
    binders = action.binders
    env = {}
    out = []

    def rec(i):
        if i == len(binders):
            out.append(tuple(env[b[0]] for b in binders))
            return
        name, domain, _, element = binders[i]
        try:
            values = list(domain(s, env))
        except (RulesRuntimeError, *PYTHON_ERRORS):
            return          # a domain that fails for values the rules would never pass: no moves there
        if action.outside_texts and action.outside_texts[i] is not None:
            values += [v for v in type_values(s, element, typed) if v not in values]
        for value in values:
            env[name] = value
            rec(i + 1)
    rec(0)
    return out


TYPED_NUMBERS = 8      # numbers of a typed move tried for a binder with a reason outside its domain


def type_values(s, t, typed) -> list:
    """Every value of type t (a Type) a player may type (cells, components, players, enum members,
    true/false), or for numbers those written in the typed text."""
    t = t.without_none()
    if t == INT:      # (a few: a typed move names few numbers, and each is tried with the other binders)
        return [int(n) for n in list(dict.fromkeys(re.findall(r"-?\d{1,18}", typed)))[:TYPED_NUMBERS]]
    if t == PLAYER:
        return list(s.game.seats)
    if t == BOOL:
        return [False, True]
    named = named_type(t)
    return index_values(s, None, None, t) if named in s.game.geometries or named in s.game.enum_members \
        or named in s.game.types.components else []


def with_values(rule: str, labels: dict) -> str:
    """A rule's text with the names of the move's arguments replaced by their values' labels
    (not inside quotes, nor an attribute's name): "flag[c] must be none" -> "flag[b2] must be none"."""
    pieces = re.split(r'("(?:[^"\\]|\\.)*")', rule)
    for k in range(0, len(pieces), 2):
        pieces[k] = re.sub(r"(?<![.\w])([A-Za-z_]\w*)\b", lambda m: labels.get(m.group(1), m.group(1)), pieces[k])
    return "".join(pieces)


def plain_refusal(text: str, rule: str) -> str:
    """A refusal the rules give no reason for: in plain words, the rule's text after it."""
    return f"'{text}' is not possible now (by the rules, {rule})"


def explain_refusal(s, text: str) -> str:
    """Why a move typed by a player is not legal now."""
    if s.terminal:
        return "the game is over"
    wanted = normalise(text)
    legal = s.legal_move_names()
    if s.pending is not None:
        return f"'{text}' is not one of the options: {s.pending.prompt} ({', '.join(legal)})"
    game = s.game
    instruction = game.flow[s.pc] if s.pc < len(game.flow) else None
    for action in game.actions:
        if instruction is not None and action.index in instruction.actions:
            continue
        if normalise(action.name) == wanted.split(" ")[0]:
            return f"'{action.name}' cannot be played now (P{s.current} must choose among: {', '.join(legal[:6])}{' ...' if len(legal) > 6 else ''})"
    # a name may fit several candidates when the template leaves a binder out: prefer the
    # reason of one that passes its where filters (its guard said no) over a filter failure
    filtered = None
    for index in (instruction.actions if instruction is not None else ()):
        action = game.actions[index]
        for args in action_candidates(s, action, check_guard=False, typed=wanted):
            if normalise(move_name(s, index, args)) != wanted:
                continue
            env = {}
            for k, ((name, domain, where, _), value, why) in enumerate(zip(action.binders, args, action.condition_texts)):
                outside = action.outside_texts[k] if action.outside_texts else None
                if outside is not None and value not in list(domain(s, env)):
                    env[name] = value
                    filtered = filtered or f"'{text}' is not possible now: {outside(s, dict(env))}"
                    break
                env[name] = value
                if where is not None and not where(s, env):
                    if not isinstance(why, RuleText):          # the binder's own `else` text
                        filtered = filtered or f"'{text}' is not possible now: {why(s, dict(env))}"
                    else:
                        labels = {b[0]: game.binder_labelers[index][j](s, args[j]) for j, b in enumerate(action.binders[:k + 1])}
                        filtered = filtered or plain_refusal(text, with_values(why, labels))
                    break
            else:
                reason = action.guard(s, dict(env))
                if isinstance(reason, RuleText):      # a require with no reason of its own
                    return plain_refusal(text, reason)
                if reason:
                    return f"'{text}' is not possible now: {reason}"
    if filtered:
        return filtered
    # the text starts like one of the actions to play now: say what that action allows
    for index in (instruction.actions if instruction is not None else ()):
        parts, _ = game.templates[index]
        opening = normalise(parts[0][0]) if parts else ""
        if opening and wanted.startswith(opening):
            same = [m.name for m in s.legal_moves() if m.kind == "action" and m.action == index]
            if not same:
                return f"unknown move '{text}': no '{opening}' move is possible now"
            hint = did_you_mean(text, same)
            shown = ", ".join(same[:5]) + (" ..." if len(same) > 5 else "")
            return f"unknown move '{text}'" + (f"; {hint}" if hint else f"; '{opening}' moves possible now: {shown}")
    hint = did_you_mean(text, legal)
    return f"unknown move '{text}'" + (f"; {hint}" if hint else "; type 'moves' to list the legal ones")
