"""Type stub of the compiled module (see the .pyx beside it)."""

from typing import Any

import numpy.typing as npt

MODEL_LAYOUT: tuple[tuple[str, str, int, str, int | str | None], ...]
MODEL_ARRAYS: tuple[str, ...]

def check_layout(arrays: dict[str, npt.NDArray[Any]]) -> dict[str, int]: ...
