"""Native playouts (issue 24): what Numba kernels stand on. The random stream drawn inside a
kernel (random_stream.py) and the state as fixed-size typed arrays (layout.py). Numba is the
`native` extra: importing random_stream needs it, layout.py needs only numpy."""
