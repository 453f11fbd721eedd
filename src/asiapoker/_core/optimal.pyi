"""Type stub of the compiled module (see the .pyx beside it)."""

from typing import Any

import numpy as np
import numpy.typing as npt

Cards = npt.NDArray[Any]

SLOT_COUNT: int

def index_codes_kernel(
    hands: Cards, slots: npt.NDArray[np.int32], local: npt.NDArray[np.uint16],
) -> int: ...
def best_splits_kernel(
    hands: Cards, slot_start: npt.NDArray[np.int32], slot_end: npt.NDArray[np.int32],
    local: npt.NDArray[np.uint16], best: npt.NDArray[np.int8], tie_class: npt.NDArray[np.int32],
    tie_mask: npt.NDArray[np.uint8], a234_low: int, out: npt.NDArray[np.int16],
    cls: npt.NDArray[np.int64],
) -> int: ...
