"""Kernels that Python can call check the width of their rows and the size of ``out`` before
they write (they run without bounds checks): a wrong array is a ValueError, not a write past
its end."""

from __future__ import annotations

import numpy as np
import pytest

from asiapoker import HouseWay, Rules, _core
from asiapoker.solver import dealer_model

SEVEN = np.array([[51, 47, 26, 27, 52, 3, 37], [0, 1, 2, 3, 4, 5, 6]], dtype=np.int8)


def test_strengths_kernel_checks_its_arrays():
    out = np.empty(2, dtype=np.int32)
    assert _core.strengths_kernel(SEVEN[:, :4].copy(), 0, out) == -1
    with pytest.raises(ValueError, match="strengths_kernel needs"):
        _core.strengths_kernel(SEVEN[:, :4].copy(), 0, np.empty(1, dtype=np.int32))
    with pytest.raises(ValueError, match="strengths_kernel needs"):
        _core.strengths_kernel(SEVEN[:, :3].copy(), 0, out)


def test_legal_kernel_checks_its_arrays():
    assert _core.legal_kernel(SEVEN, 0, np.empty((2, 105), dtype=np.uint8)) == -1
    for shape in ((1, 105), (2, 104)):
        with pytest.raises(ValueError, match="legal_kernel needs"):
            _core.legal_kernel(SEVEN, 0, np.empty(shape, dtype=np.uint8))
    with pytest.raises(ValueError, match="legal_kernel needs"):
        _core.legal_kernel(SEVEN[:, :6].copy(), 0, np.empty((2, 105), dtype=np.uint8))


def test_house_way_kernel_checks_its_arrays():
    code = _core.BUILTIN_WAYS["classic"]
    assert _core.house_way_kernel(SEVEN, 0, *code, np.empty((2, 3), dtype=np.int32)) == -1
    for shape in ((1, 3), (2, 2)):
        with pytest.raises(ValueError, match="house_way_kernel needs"):
            _core.house_way_kernel(SEVEN, 0, *code, np.empty(shape, dtype=np.int32))


def test_solve_rows_checks_its_arrays():
    model = dealer_model(HouseWay.named("classic"), Rules())
    out, totals = np.empty((2, 105), dtype=np.int64), np.empty(2, dtype=np.int64)
    assert model.solve_rows(SEVEN, out, totals) == -1
    for o, t in (((1, 105), 2), ((2, 104), 2), ((2, 105), 1)):
        with pytest.raises(ValueError, match="solve_rows needs"):
            model.solve_rows(SEVEN, np.empty(o, dtype=np.int64), np.empty(t, dtype=np.int64))
