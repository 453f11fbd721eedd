"""Type stub of the compiled module (see the .pyx beside it)."""

from typing import Any

import numpy as np
import numpy.typing as npt

from .dealer import DealerModel

Cards = npt.NDArray[Any]


def solve_groups_kernel(hands: Cards, model: DealerModel, out: npt.NDArray[np.int64],
                        side: int = 0) -> int: ...


def release_group_tables() -> int: ...


def kept_group_tables() -> tuple[int, bool]: ...


def group_fallback_rows() -> int: ...
