# cython: language_level=3
"""The dealer model's layout, described once: the arrays the builder makes, the cache stores
and checks, and ``DealerModel`` takes by name."""

import numpy as np


MODEL_LAYOUT = (
    # name, dtype, width (0: a vector), the group of arrays of one length it belongs to, and
    # the bound of its values: an int, the name of the group whose length it indexes, or None
    ("triple_high", "int32", 0, "triples", None),
    ("triple_medium", "int16", 0, "triples", 91),
    ("triple_low", "int8", 0, "triples", 13),
    ("rank_pairs", "uint8", 7, "classes", 65),
    ("rank_joker", "uint8", 0, "classes", 2),
    ("rank_triple", "int32", 0, "classes", "triples"),
    ("flush_ranks", "uint16", 0, "flushes", 1 << 13),
    ("flush_others", "uint8", 3, "flushes", 52),
    ("flush_joker", "uint8", 0, "flushes", 2),
    ("flush_triples", "int32", 2, "flushes", "triples"),
    ("flush_class", "int32", 0, "flushes", "classes"),
    ("double_ranks1", "uint16", 0, "doubles", 1 << 13),
    ("double_ranks2", "uint16", 0, "doubles", 1 << 13),
    ("double_triples", "int32", 4, "doubles", "triples"),
    ("medium_values", "int32", 0, "mediums", None),
    ("low_values", "int32", 0, "lows", None),
)
"""The dealer model's arrays, described once (``dealer.pxd`` says what each holds): what
the builder (``asiapoker._models.dealer_model_arrays``) makes, the cache stores and checks,
and :class:`DealerModel` takes by name."""
MODEL_ARRAYS = tuple(row[0] for row in MODEL_LAYOUT)
"""The arrays' names, in the layout's order."""


def check_layout(arrays):
    """Raise ValueError (naming the array) unless ``arrays`` has exactly the layout's names,
    dtypes, widths and group lengths."""
    if set(arrays) != set(MODEL_ARRAYS):
        raise ValueError("asiapoker: not the arrays of a dealer model (names): "
                         f"{sorted(set(arrays) ^ set(MODEL_ARRAYS))}")
    lengths = {}
    for name, dtype, width, group, _ in MODEL_LAYOUT:
        a = arrays[name]
        if (not isinstance(a, np.ndarray) or a.dtype != np.dtype(dtype)
                or a.ndim != (2 if width else 1) or (width and a.shape[1] != width)
                or not a.flags.c_contiguous):
            raise ValueError(
                f"asiapoker: array {name} is {getattr(a, 'dtype', type(a).__name__)} "
                f"{getattr(a, 'shape', '')}, not {dtype} {'n x ' + str(width) if width else 'n'}"
                " (C-contiguous)")
        if lengths.setdefault(group, len(a)) != len(a):
            raise ValueError(f"asiapoker: the {group} arrays differ in length ({name})")
    return lengths
