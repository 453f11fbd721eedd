"""Type stub of the compiled module (see the .pyx beside it)."""

from typing import Any

import numpy as np
import numpy.typing as npt

Cards = npt.NDArray[Any]


class DealerModel:
    a234_low: int
    n_triples: int
    sizes: tuple[int, int, int, int]
    n_high_values: int
    def __init__(self, a234_low: int, **arrays: npt.NDArray[Any]) -> None: ...
    def solve_rows(
        self, hands: Cards, out: npt.NDArray[np.int64], totals: npt.NDArray[np.int64],
        side: int = 0,
    ) -> int: ...
