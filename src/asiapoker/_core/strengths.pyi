"""Type stub of the compiled module (see the .pyx beside it)."""

from typing import Any

import numpy as np
import numpy.typing as npt

Cards = npt.NDArray[Any]

CATEGORIES: tuple[str, ...]

def strength(ids: tuple[int, ...], a234_low: int) -> int: ...
def strengths_kernel(hands: Cards, a234_low: int, out: npt.NDArray[np.int32]) -> int: ...
def table_view(size: int, a234_low: int) -> npt.NDArray[np.int32]: ...
