"""Type stub of the compiled module (see the .pyx beside it)."""

from typing import Any

import numpy as np
import numpy.typing as npt

from .dealer import DealerModel

Cards = npt.NDArray[Any]


def solve_known_kernel(
    hands: Cards, model: DealerModel, dead: npt.NDArray[np.int8], shown: npt.NDArray[np.int8],
    out: npt.NDArray[np.int64], totals: npt.NDArray[np.int64], side: int = 0,
) -> int: ...
def dealer_distribution(
    model: DealerModel, ids: tuple[int, ...], dead: tuple[int, ...] = (),
    shown: tuple[int, ...] = (),
) -> npt.NDArray[np.int64]: ...
