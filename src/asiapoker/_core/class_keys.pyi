"""Type stub of the compiled module (see the .pyx beside it)."""

from typing import Any

import numpy as np
import numpy.typing as npt

Cards = npt.NDArray[Any]

def class_keys_kernel(hands: Cards, out: npt.NDArray[np.int64]) -> int: ...
def classify_kernel(
    hands: Cards, keys: npt.NDArray[np.int64], tri: npt.NDArray[np.int32],
    out: npt.NDArray[np.int32],
) -> int: ...
def class_weights_enumerate(keys: npt.NDArray[np.int64]) -> tuple[npt.NDArray[np.int64], int]: ...
