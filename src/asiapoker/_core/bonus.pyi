"""Type stub of the compiled module (see the .pyx beside it)."""

from typing import Any

import numpy as np
import numpy.typing as npt

Cards = npt.NDArray[Any]

BONUS_CATEGORIES: tuple[str, ...]

def bonus_kernel(hands: Cards, out: npt.NDArray[np.int16]) -> int: ...
def bonus_enumerate() -> npt.NDArray[np.int64]: ...
