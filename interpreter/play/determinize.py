"""Determinizations: full states that a seat cannot tell from the real one, drawn at random.

A search bot for a game of hidden information (bots.ISMCTSBot) may not read what its seat
cannot see. It searches instead over states sampled from what the seat knows, the engine's
declared visibility being the only source of what is hidden (leaks.hidden_places): the
components the seat cannot see are dealt again at random among their places (each zone keeps
its count; a component keeps its type and owner, one seen masked keeps its public label, and
one whose attribute the seat was told goes only where a component told the same was),
other seats' sealed simultaneous moves not revealed yet are drawn again among the moves they
could have made, and the random source is new (shuffles and dice to come).

The entries of variables that the seat may not see (hidden ones: every entry; owner-only
ones: the other seats' entries; `others` ones: its own; the views' rule, engine.var_entry_seen) are drawn again too,
each uniformly and independently among the values its type allows, when those are finite: an
int with a declared range (`int in 1..6`), a bool, an enum, a Player, and none too for an
optional one. Entries of other types (an int without a range, a list, a component, a text)
keep their value, so a search over the determinization knows them: undrawn_secrets names
those variables (the command line says so).

The draw is uniform among those places and values: what the seat could infer from the past (a
card it saw before it went into another hand, what other seats' moves suggest they hold, a
value that public facts imply) is not used.
"""
from __future__ import annotations

from ..engine.steps import Unbuilt, drive, rebuild_snapshot
from ..runtime import CHANCE
from ..runtime.errors import RulesRuntimeError
from ..tools.leaks import drawn_values, hidden_groups, hidden_var_keys, replace_sealed_move, sealed_options, unrevealed_sealed


PAUSED_DRAWS = 20       # draws tried for a state stopped inside a step (paused_sample)


def determinization(state, seat, rng):
    """A state drawn at random among those the seat cannot tell from `state` (rng: a
    random.Random). The draw depends only on what the seat may see and on rng: two states
    that differ only in what the seat cannot see give the same determinization."""
    if paused(state):
        return paused_sample(state, seat, rng)
    sample, _ = drawn(state, seat, rng)
    sealed_drawn(sample, seat, rng)
    return sample


def drawn(state, seat, rng):
    """A clone of state with what the seat cannot see drawn again, and the components put in
    another's place (old -> new)."""
    sample = state.clone()
    swapped = {}
    for members in hidden_groups(state, seat):
        if len(members) < 2:
            continue
        # sorted first: the order in which the components stand now is what the seat cannot see
        components = sorted(x for _, _, x in members)
        rng.shuffle(components)
        for (key, position, old), x in zip(members, components):
            sample.own(key)[position] = x
            sample.loc[x] = key
            swapped[old] = x
    for key in hidden_var_keys(state, seat):
        values = drawn_values(state.game, key if key.__class__ is str else key[0])
        if values is not None:
            sample.vars[key] = values[rng.randrange(len(values))]
    sample.rng = rng.getrandbits(64)
    sample.changed()
    return sample, swapped


def paused(state) -> bool:
    """Whether a player's decision stops a step half-way (a choice, a move inside a step)."""
    pending = state.pending
    return pending is not None and not state.terminal and pending.runner is not state.game.setup_runner \
        and pending.chooser != CHANCE


def paused_sample(state, seat, rng):
    """A determinization of a state stopped inside a step. Its clones go on by playing the step
    again from the copy taken before it (engine.steps.Pending), which holds the real hidden
    values: so the copy is drawn too (the components the seat cannot see now swapped as in the
    sample, the hidden variables and the random source drawn), and the step is played again from
    it with the choices made so far. A draw is kept if the seat sees the result as it sees
    `state` (its view and its legal moves: the step may have shown what the draw changed).
    After PAUSED_DRAWS draws that do not fit, the first that gives the seat its legal moves is
    kept (its view may differ in what the step showed); failing that too, the state drawn as if
    it were not stopped, whose step goes on from the real copy (the one case where the search
    reads real hidden values)."""
    pending = state.pending
    if pending.snapshot.__class__ is Unbuilt:
        rebuild_snapshot(state, pending, applying=False)
    seen, moves = state.view(seat), state.legal_move_names()
    fallback = None
    for _ in range(PAUSED_DRAWS):
        sample, swapped = drawn(state, seat, rng)
        before = pending.snapshot.clone()
        for key, items in list(before.zones.items()):
            if any(x in swapped for x in items):
                own = before.own(key)
                own[:] = [swapped.get(x, x) for x in own]
                for x in own:
                    before.loc[x] = key
        for key in hidden_var_keys(state, seat):
            if key in sample.vars:
                before.vars[key] = sample.vars[key]
        before.rng = sample.rng
        before.changed()
        again = before.clone()
        again.history, again.public_history = sample.history, sample.public_history
        if pending.snapshot.log_at is not None:
            again.log = pending.snapshot.log[:pending.snapshot.log_at]
        again.pending, again.choices, again.cursor = None, pending.choices, 0
        try:
            drive(again, pending.runner(again), before, pending.runner, pending.choices)
        except (RulesRuntimeError, IndexError):
            continue
        if again.pending is None or again.legal_move_names() != moves:
            continue
        if again.view(seat) == seen:
            sealed_drawn(again, seat, rng)
            return again
        fallback = fallback or again
    if fallback is not None:
        sealed_drawn(fallback, seat, rng)
        return fallback
    sample, _ = drawn(state, seat, rng)
    sealed_drawn(sample, seat, rng)
    return sample


def sealed_drawn(sample, seat, rng):
    """The other seats' sealed moves not revealed yet, drawn again."""
    # after the deal: what another seat could have sealed depends on what it holds there
    for key, others in unrevealed_sealed(sample, seat):
        for k in others:
            options = sealed_options(sample, key, k)
            if options:
                replace_sealed_move(sample, key, k, options[rng.randrange(len(options))])


def undrawn_secrets(game) -> list:
    """The names of the game's hidden and owner-only variables whose values a determinization
    keeps (no finite domain to draw them from): a search over it knows them."""
    return [name for name, (visibility, _, _, _) in game.var_meta.items()
            if visibility != "public" and drawn_values(game, name) is None]
