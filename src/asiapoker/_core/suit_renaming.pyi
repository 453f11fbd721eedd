"""Type stub of the compiled module (see the .pyx beside it)."""

from typing import Any

import numpy as np
import numpy.typing as npt

Cards = npt.NDArray[Any]

def class_codes_kernel(hands: Cards, out: npt.NDArray[np.int64]) -> int: ...
def suit_classes_kernel(
    counts: npt.NDArray[np.int8], joker: npt.NDArray[np.uint8], out: npt.NDArray[np.int8],
    weight: npt.NDArray[np.int64], group: npt.NDArray[np.int32],
) -> int: ...
