"""Non-interference: what a seat is shown must not depend on what it may not see.

At a state, for a seat, twin states are built that differ from it only in what the seat may not
see: two components it cannot see exchanged (in hidden zones, in other seats' own zones, under
the top of a `top` zone), two components it sees only masked exchanged (the same public label:
their owner-only attributes differ), another seat's sealed simultaneous move not revealed yet
replaced by another it could have made, another random source, or an entry of a variable it may
not see (engine.var_entry_seen: a hidden one's, another seat's of an owner-only one, its own of
an `others` one) set to
another value of its type, where that type has finitely many (drawn_values: a ranged int, a
bool, an enum, a Player, none for an optional one). Everything the seat is shown must then be
the same in the twin: its view (the JSON, from which its text is drawn), the moves it has seen,
its legal moves and their names, and the answer to moves it could type (the refusals included).
A difference is a leak, reported with the channel and the two values.

A variable twin may be a state no game reaches: a hidden count the rules keep of public facts
cannot hold another value. Its value deciding something shown is still reported, as the
information flow it is (the seat could have worked it out, so the variable need not be hidden),
with that said in the message; twins that break a declared invariant are left out, so a rules
file states how such a value follows from public facts with an invariant. Variables of other
types (an int without a range, a list, a set, a map, a text, a component) are not perturbed. Nor is what a
move shows of its author's own variables by being legal only with them (its name shows its
arguments only): as a card played from a hidden hand, it is what playing it tells.
"""
from __future__ import annotations

import itertools
import json
from functools import lru_cache
from typing import Optional

from referee.dsl.types import BOOL, INT, PLAYER, OptionalOf, named_type

from ..runtime import random_source
from ..runtime.errors import Finished, IllegalMove, NeedChoice, RulesRuntimeError
from ..engine.located import PYTHON_ERRORS
from ..engine.moves import move_name, public_moves, public_text
from ..engine.refusals import explain_refusal
from ..engine.views import entry_seen, index_values, key_label, make_view, shown_to, told, var_entry_seen
from .view_diff import json_difference

TWINS = 3            # twin states per seat and state
VARIABLE_TWINS = 2   # of them with a variable entry set to another value, per seat and state
PROBES = 1           # typed move names (not legal now) whose answers are compared


def observe(state, seat, probes) -> dict:
    """What a seat is shown at a state, channel by channel."""
    shown = {}
    if not state.is_terminal() and state.current_player() == seat:
        shown["legal moves"] = state.legal_move_names()
        shown["answers to typed moves"] = [explain_refusal(state, name) for name in probes]
    shown["moves seen"] = public_moves(state, seat, last=len(state.history))
    shown["view"] = json.dumps(make_view(state, seat), sort_keys=True, default=str)
    return shown


def hidden_places(state, seat) -> list:
    """(zone key, position, entity) of every component the seat cannot see, and of those it
    sees masked (tagged so: only masked ones with the same public label may be exchanged)."""
    game = state.game
    out = []
    for key, items in state.zones.items():
        if not items:
            continue
        name = key if key.__class__ is str else key[0]
        _, visibility, owner, _ = game.zone_meta[name]
        visible = entry_seen(visibility, owner, key, seat)
        for position, x in enumerate(items):
            entity = state.entities[x]
            if shown_to(state, x, seat):
                continue        # a `reveal` showed it whole to this seat
            if visible or (visibility == "top" and position == len(items) - 1):
                if "__public_label__" in entity and entity.get("owner") != seat:
                    out.append((key, position, x, ("masked", entity["__public_label__"])))
            else:           # with what the seat was told of it (`reveal x.colour to ...`)
                out.append((key, position, x, ("hidden", *told(state, x, seat))))
    return out


def hidden_var_keys(state, seat) -> list:
    """The key of every entry of a variable that the seat may not see (the views' rule,
    engine.var_entry_seen), over the declared indexes, in the order of declaration: an order
    that depends on nothing the seat cannot see."""
    game = state.game
    keys = []
    for name, (visibility, _, index_types, _) in game.var_meta.items():
        if visibility == "public":
            continue
        if not index_types:
            candidates = [name]
        else:
            domains = [index_values(state, name, position, t) for position, t in enumerate(index_types)]
            candidates = [(name, *combination) for combination in itertools.product(*domains)]
        keys += [key for key in candidates if not var_entry_seen(game, key, seat)]
    return keys


@lru_cache(maxsize=256)
def drawn_values(game, name) -> Optional[tuple]:
    """The values an unseen entry of the variable may take in a twin or a determinization (a
    finite domain of its type: ranged int, bool, enum, Player; none too if optional), or None."""
    _, _, _, t = game.var_meta[name]
    base, named = t.without_none(), named_type(t)
    if base == INT and name in game.var_ranges:
        low, high = game.var_ranges[name]
        values = tuple(range(low, high + 1))
    elif base == BOOL:
        values = (False, True)
    elif base == PLAYER:
        values = tuple(game.seats)
    elif named in game.enum_members and named not in game.types.components:
        values = tuple(game.enum_members[named])
    else:
        return None
    return values + (None,) if isinstance(t, OptionalOf) else values


def variable_twins(state, seat, rng, count) -> list:
    """Up to `count` (twin, what differs, entry key): twins in which an entry of a variable that
    the seat may not see holds another value of its type (drawn_values). A twin that breaks a
    declared invariant the state keeps is left out: the rules say no game reaches it."""
    game = state.game
    keys = [key for key in hidden_var_keys(state, seat)
            if len(drawn_values(game, key if key.__class__ is str else key[0]) or ()) >= 2]
    twins, kept = [], None
    rng = random_source.mix(rng ^ 0x76A12)        # not the draws of the other twins
    for _ in range(count if keys else 0):
        k, rng = random_source.below(rng, len(keys))
        key = keys[k]
        name = key if key.__class__ is str else key[0]
        now = state.vars.get(key, game.var_defaults[name])
        others = [v for v in drawn_values(game, name) if v != now]
        pick, rng = random_source.below(rng, len(others))
        twin = state.clone()
        twin.vars[key] = others[pick]
        twin.changed()
        broken = twin.broken_invariants()
        if broken:
            if kept is None:
                kept = set(state.broken_invariants())
            if not kept.issuperset(broken):
                continue
        index_types, t = game.var_meta[name][2:]
        text = game.labeler(t)
        how = f"{key_label(state, key, index_types)} = {text(state, others[pick])} instead of {text(state, now)}"
        twins.append((twin, how, key))
    return twins


def appearances(state, seat) -> dict:
    """entity -> how the seat sees it, for those it does not see whole: ("hidden",) or
    ("masked", public label); with its type and owner, which every seat knows."""
    out = {}
    for _, _, x, how in hidden_places(state, seat):
        entity = state.entities[x]
        out[x] = (entity["__type__"], entity.get("owner"), how)
    return out


def hidden_groups(state, seat) -> list:
    """The places of hidden_places grouped by what the seat knows of their components (type,
    owner, hidden or the masked label): [(zone key, position, entity), ...] per group, in the
    order of the state's zones. Components of a group may change places unseen by the seat."""
    groups = {}
    for key, position, x, how in hidden_places(state, seat):
        entity = state.entities[x]
        groups.setdefault((entity["__type__"], entity.get("owner"), how), []).append((key, position, x))
    return list(groups.values())


def exchange_twins(state, seat, rng, count) -> list:
    """Up to `count` (twin, what differs, (a, b)): twins with two components a and b that the
    seat cannot tell apart exchanged."""
    pairs = []
    for members in hidden_groups(state, seat):
        kinds = {}
        for member in members:
            kinds.setdefault(state.entities[member[2]].get("__same__", member[2]), member)
        if len(kinds) >= 2:
            pairs.append(list(kinds.values()))
    twins = []
    for _ in range(count if pairs else 0):
        k, rng = random_source.below(rng, len(pairs))
        options = pairs[k]
        i, rng = random_source.below(rng, len(options))
        j, rng = random_source.below(rng, len(options) - 1)
        j += j >= i
        (key_a, at_a, a), (key_b, at_b, b) = options[i], options[j]
        twin = state.clone()
        twin.own(key_a)[at_a] = b
        twin.own(key_b)[at_b] = a
        twin.loc[a], twin.loc[b] = key_b, key_a
        exchange_in_sealed(twin, a, b)
        twin.changed()
        twins.append((twin, f"{label(state, a)} and {label(state, b)} exchanged", (a, b)))
    return twins


def exchange_in_sealed(state, a, b):
    """In a twin where components a and b changed places, a sealed move not revealed yet that
    takes one of them takes the other: the move stays with the place (the card chosen from a
    hand is the card now there), so that the twin is a state the game can reach."""
    for instruction in state.game.flow:
        if instruction.op != "simultaneous" or instruction.key not in state.env:
            continue
        remaining, sealed = state.env[instruction.key]
        first = len(state.history) - len(sealed)      # where the sealed moves stand in the history
        changed = list(sealed)
        for k, (player, index, args) in enumerate(sealed):
            swapped = exchanged_arguments(state.game, index, args, a, b)
            if swapped != args:
                changed[k] = (player, index, swapped)
                state.own_trails()
                state.history[first + k] = move_name(state, index, swapped)
        state.env[instruction.key] = (remaining, tuple(changed))


def used_components(game, index, args) -> set:
    """The components a move of action `index` takes: its component arguments and the items
    of its arguments that are lists of components (a subset of cards kept)."""
    used = set()
    for x, component, listed in zip(args, game.argument_is_component[index], game.argument_lists_components[index]):
        if component:
            used.add(x)
        elif listed and x is not None:
            used.update(x)
    return used


def exchanged_arguments(game, index, args, a, b) -> tuple:
    """A move's arguments with components a and b exchanged, inside lists of components too."""
    def swap(x):
        return b if x == a else a if x == b else x
    return tuple(swap(x) if component else type(x)(map(swap, x)) if listed and x is not None else x
                 for x, component, listed in zip(args, game.argument_is_component[index],
                                                 game.argument_lists_components[index]))


def label(state, x) -> str:
    key = state.loc[x]
    where = key if key.__class__ is str else f"{key[0]}[{', '.join(map(str, key[1:]))}]"
    return f"{state.entities[x]['__label__']} (in {where})"


def unrevealed_sealed(state, seat) -> list:
    """(step key, [k, ...]) for each simultaneous step under way in which other seats than
    `seat` have sealed moves not revealed yet: k, their places among the step's sealed moves."""
    out = []
    for instruction in state.game.flow:
        if instruction.op != "simultaneous" or instruction.key not in state.env:
            continue
        _, sealed = state.env[instruction.key]
        others = [k for k, (player, _, _) in enumerate(sealed) if player != seat]
        if others:
            out.append((instruction.key, others))
    return out


def sealed_options(state, key, k) -> list:
    """The moves that the seat of the k-th sealed move of step `key` could have made: the same
    decision, asked of it again."""
    remaining, sealed = state.env[key]
    probe = state.clone()
    probe.env[key] = ((sealed[k][0],) + tuple(remaining), sealed[:k] + sealed[k + 1:])
    probe.current, probe._legal = sealed[k][0], None
    return [m for m in probe.legal_moves() if m.kind == "action"]


def replace_sealed_move(state, key, k, move):
    """Make `move` the k-th sealed move of step `key`, in place (in the history too)."""
    remaining, sealed = state.env[key]
    first = len(state.history) - len(sealed)      # where the sealed moves stand in the history
    state.env[key] = (remaining, sealed[:k] + ((sealed[k][0], move.action, move.args),) + sealed[k + 1:])
    state.own_trails()
    state.history[first + k] = move.name
    state.changed()


def sealed_twins(state, seat, rng, count) -> list:
    """Up to `count` twins in which another seat's sealed simultaneous move, not revealed yet,
    is another of the moves it could have made."""
    twins = []
    for key, others in unrevealed_sealed(state, seat):
        sealed = state.env[key][1]
        for _ in range(count):
            k, rng = random_source.below(rng, len(others))
            k = others[k]
            player, index, args = sealed[k]
            options = [m for m in sealed_options(state, key, k) if (m.action, m.args) != (index, args)]
            if not options:
                continue
            pick, rng = random_source.below(rng, len(options))
            other = options[pick]
            twin = state.clone()
            replace_sealed_move(twin, key, k, other)
            before = state.history[len(state.history) - len(sealed) + k]
            twins.append((twin, f"P{player}'s sealed move '{other.name}' instead of '{before}'", None))
    return twins


def random_source_twin(state, rng):
    twin = state.clone()
    twin.rng = random_source.mix(rng ^ 0x5DEECE66D)
    twin.changed()
    return twin, "another random source", None


def probe_names(states, seat, rng) -> list:
    """Move names a seat could type and that are not legal now: random combinations of values
    of the binders of the actions it may play (legal or not), in the state and its twins;
    PROBES of them, drawn by rng."""
    names = set()
    for s in states:
        if s.is_terminal() or s.current_player() != seat or s.pending is not None:
            continue
        instruction = s.game.flow[s.pc] if s.pc < len(s.game.flow) else None
        for index in (instruction.actions if instruction is not None else ()):
            binders = s.game.actions[index].binders
            for _ in range(8):
                env, args = {}, []
                for name, domain, _, _ in binders:
                    try:
                        values = list(domain(s, env))
                    except (RulesRuntimeError, *PYTHON_ERRORS):
                        break       # a domain that fails for values its rules would never pass: no name
                    if not values:
                        break
                    k, rng = random_source.below(rng, len(values))
                    env[name] = values[k]
                    args.append(values[k])
                else:
                    names.add(move_name(s, index, tuple(args)))
    names = sorted(names - set(states[0].legal_move_names() if names else ()))
    picked = []
    while names and len(picked) < PROBES:
        k, rng = random_source.below(rng, len(names))
        picked.append(names.pop(k))
    return picked


def find_leak(state, seat, rng, move=None, flows=False) -> Optional[str]:
    """A message naming the channel, the twin and both values, or None. With `move` (the name
    of a move legal now, another seat's), what the seat sees of it must not tell apart two
    components the seat cannot (shown_move_leak). With flows, the move is also played in the
    state and in each exchange and variable twin: where the two exchanged components still
    look the same to the seat afterwards (neither was revealed), and always for a variable
    (which stays unseen), what the seat is shown must still be the same (a hidden value copied
    into a public one is a leak found only so)."""
    exchanges = exchange_twins(state, seat, rng, TWINS - 1)
    twins = exchanges + sealed_twins(state, seat, rng, 1) + [random_source_twin(state, rng)]
    variables = variable_twins(state, seat, rng, VARIABLE_TWINS)
    probes = probe_names([state] + [t for t, _, _ in twins[:1]], seat, rng)
    shown = observe(state, seat, probes)
    for twin, how, _ in twins:
        found = compare(shown, observe(twin, seat, probes), seat, f"with {how}")
        if found:
            return found
    for twin, how, key in variables:
        found = variable_leak(shown, twin, seat, probes, f"with {how}", key)
        if found:
            return found
    if move is None:
        return None
    # no such check for variables: a move's name and public text show its arguments only
    found = shown_move_leak(state, seat, exchanges, move) if exchanges else None
    if found or not flows or not (exchanges or variables):
        return found
    exchanged = {x for _, _, pair in exchanges for x in pair}
    after = state.clone()
    shown_in_move = play_watching(after, move, seat, exchanged)
    seen = appearances(after, seat)
    shown = None
    for number, (twin, how, differs) in enumerate(exchanges + variables):
        other = twin.clone()
        try:
            shown_in_twin = play_watching(other, move, seat, set(differs) if number < len(exchanges) else set())
        except (IllegalMove, RulesRuntimeError):
            continue           # the move depends on what differs (another seat's hidden hand or number)
        if number < len(exchanges):
            a, b = differs
            if {a, b} & (shown_in_move | shown_in_twin):
                continue           # the move showed one of them to the seat, then hid it again
            seen_other = appearances(other, seat)
            if not (seen.get(a) is not None and seen.get(a) == seen.get(b) == seen_other.get(a) == seen_other.get(b)):
                continue           # the move showed one of them to the seat: the views may differ
        if shown is None:
            shown = observe(after, seat, ())
        how = f"with {how}, then '{move}' played"
        found = (compare(shown, observe(other, seat, ()), seat, how) if number < len(exchanges)
                 else variable_leak(shown, other, seat, (), how, differs, move))
        if found:
            return found
    return None


def play_watching(state, move, seat, watched) -> set:
    """Play `move` on `state` and return those of `watched` that the seat saw whole at some
    time during the move: a card flipped face up, then gathered back into a hand by the same
    move, was shown (the views after the move may then differ), though it is hidden again."""
    seen: set = set()
    if not watched:
        state.apply(move)
        return seen
    base = type(state)
    WATCHES[id(state)] = (seat, watched, seen)
    state.__class__ = watching_class(base)
    try:
        state.apply(move)
    finally:
        state.__class__ = base
        del WATCHES[id(state)]
    return seen


# the states being watched (play_watching): id -> (seat, the components watched, those seen)
WATCHES: dict = {}


def note_seen(state, candidates):
    """Add to the watch of `state` those of `candidates` that its seat sees whole now."""
    seat, _, seen = WATCHES[id(state)]
    hidden = appearances(state, seat)
    seen.update(x for x in candidates if x not in hidden and state.loc[x] is not None)


@lru_cache(maxsize=None)
def watching_class(base: type) -> type:
    """The class a watched state takes for one move (made once per state class): its `move` and
    `deal` note what the seat sees; the engine's own moves stay as fast as ever."""

    class Watching(base):
        __slots__ = ()

        def move(self, x, key, under=False):
            watched = WATCHES[id(self)][1]
            if x in watched:
                note_seen(self, (x,))        # (shown by a `reveal`, then moved away)
            base.move(self, x, key, under)
            if x in watched:
                note_seen(self, (x,))

        def deal(self, n, source, key, under):
            base.deal(self, n, source, key, under)
            watched = WATCHES[id(self)][1]
            note_seen(self, [x for x in self.zones.get(key, ()) if x in watched])

    return Watching


def variable_leak(shown, twin, seat, probes, how, key, move=None) -> Optional[str]:
    """compare() for a variable twin (`move`: the move played on in it, with flows), which may
    be a state no game reaches: its message says so (variable_hint), and rules that fail there
    are a difference the seat would see."""
    try:
        found = compare(shown, observe(twin, seat, probes), seat, how)
    except RulesRuntimeError as error:
        found = f"P{seat}'s observation depends on what P{seat} may not see: {how}, the rules fail there: {error}"
    return found and found + variable_hint(key, seat, move)


def variable_hint(key, seat, move=None) -> str:
    """What a leak found with a variable twin adds: the value may be one the rules derive from
    what the seat sees (then the seat could work it out: no secret, and no need to hide it),
    and a move played on may show it on purpose (a call that shows the dice)."""
    name = key if key.__class__ is str else key[0]
    on_purpose = f"fine if '{move}' shows it on purpose; " if move is not None else ""
    return (f" ({name} is not shown to P{seat}: {on_purpose}if its value follows from what P{seat} sees, "
            f"make it public, or declare an invariant that says how)")


def shown_move_leak(state, seat, exchanges, name) -> Optional[str]:
    """Another seat's move made with a component that the seat cannot tell from another one
    (an exchange twin): the same move made with the other must look the same to the seat,
    unless the move shows the component to it anyway (played face up)."""
    if state.is_terminal() or state.current_player() == seat or state.pending is not None:
        return None
    move = state.find_move(name)
    shown = public_text(state, move)
    if move.kind != "action" or shown is None:
        return None
    after = None
    used = used_components(state.game, move.action, move.args)
    for twin, how, (a, b) in exchanges:
        if a not in used and b not in used:
            continue
        swapped = exchanged_arguments(state.game, move.action, move.args, a, b)
        other = next((m for m in twin.legal_moves() if m.kind == "action" and m.action == move.action
                      and m.args == swapped), None)
        if other is None:
            continue
        other_text = public_text(twin, other)
        if other_text == shown:
            continue
        if after is None:
            after = after_effect(state, move)
        hidden_after = appearances(after, seat)
        if any(x in hidden_after for x in (a, b) if x in used):
            return (f"P{seat}'s moves seen depend on what P{seat} may not see: P{state.current_player()}'s move "
                    f"shows as '{shown}', and as '{other_text}' with {how}, and P{seat} still cannot see them "
                    f"after the move: give the action a public text (action ... \"...\" public \"...\")")
    return None


def after_effect(state, move):
    """A copy of the state once the action's own effect is done: what it put where (not what
    the flow does next: cards played face up, then gathered and shuffled by the next round, were
    seen). An action that chooses is played on to the end of its author's choices instead."""
    action = state.game.actions[move.action]
    if not action.may_choose:
        after = state.clone()
        try:
            action.run_legal(after, *move.args)
            return after
        except (Finished, NeedChoice, RulesRuntimeError):
            pass
    after = state.clone()
    after.apply(move)
    for _ in range(20):
        if after.pending is None or after.is_terminal() or after.current_player() != state.current_player():
            break
        after.apply(after.legal_moves()[0])
    return after


def compare(shown, other, seat, how) -> Optional[str]:
    for channel, value in shown.items():
        if other.get(channel) != value:
            if channel == "view":       # one JSON text: the entry where the two views differ
                return (f"the entries of P{seat}'s view depend on what P{seat} may not see: {how}, "
                        f"{json_difference(value, other.get(channel))}")
            return (f"P{seat}'s {channel} depend on what P{seat} may not see: {how}, "
                    f"{difference(value, other.get(channel))}")
    return None


def difference(a, b) -> str:
    if isinstance(a, list) and isinstance(b, list):
        for x, y in zip(a, b):
            if x != y:
                return f"{x!r} / {y!r}"
        return f"{len(a)} / {len(b)} items"
    return f"{a!r} / {b!r}"

