"""Type stub of the compiled module (see the .pyx beside it)."""

from typing import Any

import numpy as np
import numpy.typing as npt

Cards = npt.NDArray[Any]

def split_strengths(
    ids: tuple[int, ...], a234_low: int
) -> tuple[list[int], list[int], list[int]]: ...
def split_positions() -> tuple[tuple[tuple[int, int, int, int], tuple[int, int], int], ...]: ...
def legal_kernel(hands: Cards, a234_low: int, out: npt.NDArray[np.uint8]) -> int: ...
def split_strengths_kernel(hands: Cards, a234_low: int, out: npt.NDArray[np.int32]) -> int: ...
def chosen_kernel(
    hands: Cards, splits: npt.NDArray[np.int64], a234_low: int, out: npt.NDArray[np.int32]
) -> int: ...
def match_split_kernel(
    hands: Cards, a234_low: int, tri: npt.NDArray[np.int32], out: npt.NDArray[np.int16]
) -> int: ...
