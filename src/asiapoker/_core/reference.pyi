"""Type stub of the compiled module (see the .pyx beside it)."""

import numpy as np
import numpy.typing as npt

def enumerate_dealer(
    player: tuple[int, ...], a234_low: int, kind: int, first_hand: int, second_hand: int,
    third_hand: int,
    dense_h: npt.NDArray[np.int32], n_h: int, dense_m: npt.NDArray[np.int32],
    keys: npt.NDArray[np.int64] | None = None, tri: npt.NDArray[np.int32] | None = None,
    dead: tuple[int, ...] = (), shown: tuple[int, ...] = (),
) -> tuple[int, npt.NDArray[np.int64]]: ...
