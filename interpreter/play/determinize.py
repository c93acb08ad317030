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

from ..tools.leaks import drawn_values, hidden_groups, hidden_var_keys, replace_sealed_move, sealed_options, unrevealed_sealed


def determinization(state, seat, rng):
    """A state drawn at random among those the seat cannot tell from `state` (rng: a
    random.Random). The draw depends only on what the seat may see and on rng: two states
    that differ only in what the seat cannot see give the same determinization."""
    sample = state.clone()
    for members in hidden_groups(state, seat):
        if len(members) < 2:
            continue
        # sorted first: the order in which the components stand now is what the seat cannot see
        components = sorted(x for _, _, x in members)
        rng.shuffle(components)
        for (key, position, _), x in zip(members, components):
            sample.own(key)[position] = x
            sample.loc[x] = key
    for key in hidden_var_keys(state, seat):
        values = drawn_values(state.game, key if key.__class__ is str else key[0])
        if values is not None:
            sample.vars[key] = values[rng.randrange(len(values))]
    sample.rng = rng.getrandbits(64)
    sample.changed()
    # after the deal: what another seat could have sealed depends on what it holds there
    for key, others in unrevealed_sealed(sample, seat):
        for k in others:
            options = sealed_options(sample, key, k)
            if options:
                replace_sealed_move(sample, key, k, options[rng.randrange(len(options))])
    return sample


def undrawn_secrets(game) -> list:
    """The names of the game's hidden and owner-only variables whose values a determinization
    keeps (no finite domain to draw them from): a search over it knows them."""
    return [name for name, (visibility, _, _, _) in game.var_meta.items()
            if visibility != "public" and drawn_values(game, name) is None]
