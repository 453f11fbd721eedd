"""Type stub of the compiled module (see the .pyx beside it)."""

from typing import Any

import numpy as np
import numpy.typing as npt

Cards = npt.NDArray[Any]

BUILTIN_WAYS: dict[str, tuple[int, int, int, int]]

def choose_one(
    ids: tuple[int, ...], a234_low: int, kind: int, first_hand: int, second_hand: int,
    third_hand: int,
) -> tuple[int, tuple[int, int, int]]: ...
def house_way_kernel(
    hands: Cards, a234_low: int, kind: int, first_hand: int, second_hand: int, third_hand: int,
    out: npt.NDArray[np.int32],
) -> int: ...
