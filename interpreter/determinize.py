"""Determinizations: full states that a seat cannot tell from the real one, drawn at random.

A search bot for a game of hidden information (bots.ISMCTSBot) may not read what its seat
cannot see. It searches instead over states sampled from what the seat knows, the engine's
declared visibility being the only source of what is hidden (leaks.hidden_places): the
components the seat cannot see are dealt again at random among their places (each zone keeps
its count; a component keeps its type and owner, and one seen masked keeps its public label),
other seats' sealed simultaneous moves not revealed yet are drawn again among the moves they
could have made, and the random source is new (shuffles and dice to come).

The draw is uniform among those places: what the seat could infer from the past (a card it
saw before it went into another hand, what other seats' moves suggest they hold) is not used.
Not resampled: hidden and owner-only variables (as leaks.py does not perturb them): a game
that keeps a secret in a variable rather than in components shows it to the search.
"""
from __future__ import annotations

from .leaks import hidden_groups, replace_sealed_move, sealed_options, unrevealed_sealed


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
    """The names of the game's hidden and owner-only variables: a determinization keeps their
    values, so a search over it knows them."""
    return [name for name, (visibility, _, _, _) in game.var_meta.items() if visibility != "public"]
