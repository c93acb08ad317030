"""The game's only source of randomness: a 64-bit generator whose whole state is one int,
so that a game state copies it for free and the same seed always gives the same game."""

MASK = (1 << 64) - 1


def seed_state(seed: int) -> int:
    return mix(seed & MASK)


def mix(x: int) -> int:
    # splitmix64 finaliser
    x = (x + 0x9E3779B97F4A7C15) & MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK
    return x ^ (x >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """A number in 0..n-1 and the next state."""
    state = mix(state)
    return (state * n) >> 64, state


def shuffle(state: int, items: list) -> int:
    """Shuffle in place (Fisher-Yates); returns the next state. The same draws as `below`
    once per card, with its step written out (two calls a card saved: a tenth of the setup of
    a game of 75 components)."""
    for i in range(len(items) - 1, 0, -1):
        x = (state + 0x9E3779B97F4A7C15) & MASK
        x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & MASK
        state = x ^ (x >> 31)
        j = (state * (i + 1)) >> 64
        items[i], items[j] = items[j], items[i]
    return state
