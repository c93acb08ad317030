"""Which rules functions and procedures call themselves, through others or `after`: a native
kernel renders a group of functions as Numba's own recursion where it can (recursion_heads.py),
and the others as copies by depth (Numba's cache cannot load a recursive function:
numba/numba#6061, a segmentation fault), the last depth's calls setting the error slot (that
game is then played in Python).

Only the calls that close a cycle go one copy deeper (`deeper_calls`: the back edges of a
depth-first walk of the group's calls, a self-call among them); the others stay at their
caller's depth, where they form no cycle. So a chain of functions that call each other in turn
(f, g, h, then f again) spends one depth per round, not one per
call.
"""
from __future__ import annotations

from referee.dsl import ast

from .not_native import NotNative

DEPTHS = 6          # the copies of a recursive function: calls nested deeper play in Python
DEPTHS_PER_FUNCTION = 4     # a group of several functions: this many copies per function, at least DEPTHS


MOST_COPIES = 24    # the copies a group may render: Numba links each copy with all those below it, so a
                    # group's compile grows with the square of its copies (4 functions x 16: 36 min at a load of ~14)


def depths_of(group) -> int:
    """The copies of each function of a group: more for a group of several functions, whose
    rounds may go deeper more ways (four functions in a cycle: 16 copies each, where
    a round may take up to four depths; a rare game still goes deeper and plays in Python)."""
    return max(DEPTHS, DEPTHS_PER_FUNCTION * len(group))


def callees(node, functions, procedures, actions) -> set:
    """The functions, procedures and actions (by `can_play`) a body calls."""
    out = set()
    for item in ast.walk(node):
        if isinstance(item, ast.Call) and (item.name in functions or item.name in procedures):
            out.add(item.name)
        elif isinstance(item, ast.Call) and item.name == "can_play" and item.arguments:
            target = ast.untag(item.arguments[0])[0]
            if isinstance(target, ast.Name) and target.id in actions:
                out.add(target.id)
        elif isinstance(item, (ast.After, ast.CallStatement)):
            out.add(item.procedure if isinstance(item, ast.After) else item.name)
    return out


def recursive_groups(program) -> dict:
    """name -> the group of names (a cycle of calls) it belongs to, for the names in a cycle."""
    calls, actions = calls_of(program)
    groups = {}
    for name in calls:
        reach = reachable(calls, name)
        if name in reach:
            group = frozenset(other for other in reach if name in reachable(calls, other))
            groups[name] = group
    for name, group in groups.items():
        if name in actions:
            raise NotNative(f"a recursion through can_play({name}) has no native form yet", actions[name].span)
    return groups


def refuse_many_copies(program, groups: dict) -> None:
    """NotNative for a group (rendered by copies) whose copies would compile too slowly."""
    bodies = {**{f.name: f for f in program.of_kind(ast.Function)}, **{p.name: p for p in program.of_kind(ast.Procedure)}}
    for name, group in groups.items():
        if len(group) * depths_of(group) > MOST_COPIES:
            raise NotNative(f"a recursion through {len(group)} functions ({', '.join(sorted(group))}): its "
                            f"{len(group) * depths_of(group)} copies by depth compile too slowly yet", bodies[name].span)


def deeper_calls(program, groups: dict) -> frozenset:
    """The calls (caller, callee) inside a group that go one copy deeper: the back edges of a
    depth-first walk of each group's calls, from its first name in the file."""
    calls, _ = calls_of(program)
    back: set = set()
    on_path: set = set()
    done: set = set()

    def walk(name):
        on_path.add(name)
        for callee in sorted(calls[name] & groups[name]):
            if callee in on_path:
                back.add((name, callee))
            elif callee not in done:
                walk(callee)
        on_path.discard(name)
        done.add(name)
    for name in calls:
        if name in groups and name not in done:
            walk(name)
    return frozenset(back)


def calls_of(program) -> tuple:
    """(name -> the functions, procedures and actions its body calls, the actions by name)."""
    functions = {f.name: f for f in program.of_kind(ast.Function)}
    procedures = {p.name: p for p in program.of_kind(ast.Procedure)}
    actions = {a.name: a for a in program.of_kind(ast.Action)}
    bodies = {**{n: f.body for n, f in functions.items()}, **{n: p.body for n, p in procedures.items()},
              **{n: (tuple(b.condition for b in a.binders if b.condition is not None), a.body)
                 for n, a in actions.items()}}
    return {name: callees(body, functions, procedures, actions) for name, body in bodies.items()}, actions


def reachable(calls: dict, start: str) -> set:
    seen, stack = set(), list(calls.get(start, ()))
    while stack:
        name = stack.pop()
        if name not in seen:
            seen.add(name)
            stack.extend(calls.get(name, ()))
    return seen
