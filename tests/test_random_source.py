"""The random source: shuffle draws exactly what `below` draws once per card (the play of every
game's shuffles and the random stream after them depend on it)."""
from referee.interpreter.runtime import random_source


def shuffled_by_below(state, items):
    for i in range(len(items) - 1, 0, -1):
        j, state = random_source.below(state, i + 1)
        items[i], items[j] = items[j], items[i]
    return state


def test_shuffle_is_fisher_yates_with_one_draw_of_below_per_card():
    for seed in range(50):
        for length in (0, 1, 2, 3, 12, 48):
            state = random_source.seed_state(seed)
            expected, items = list(range(length)), list(range(length))
            after = shuffled_by_below(state, expected)
            assert random_source.shuffle(state, items) == after
            assert items == expected
    assert items != sorted(items)
