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


def test_solve_known_kernel_checks_its_arrays():
    model = dealer_model(HouseWay.named("classic"), Rules())
    none = np.full((2, 1), -1, dtype=np.int8)
    out, totals = np.empty((2, 105), dtype=np.int64), np.empty(2, dtype=np.int64)
    assert _core.solve_known_kernel(SEVEN, model, none, none, out, totals) == -1
    for o, t in (((1, 105), 2), ((2, 104), 2), ((2, 105), 1)):
        with pytest.raises(ValueError, match="solve_known_kernel needs"):
            _core.solve_known_kernel(SEVEN, model, none, none, np.empty(o, dtype=np.int64),
                                     np.empty(t, dtype=np.int64))
    with pytest.raises(ValueError, match="solve_known_kernel needs"):
        _core.solve_known_kernel(SEVEN[:, :6].copy(), model, none, none, out, totals)


def test_solve_groups_kernel_checks_its_arrays():
    model = dealer_model(HouseWay.named("classic"), Rules())
    assert _core.solve_groups_kernel(SEVEN, model, np.empty((2, 105), dtype=np.int64)) == -1
    for shape in ((1, 105), (2, 104), (3, 105)):
        with pytest.raises(ValueError, match="solve_groups_kernel needs"):
            _core.solve_groups_kernel(SEVEN, model, np.empty(shape, dtype=np.int64))
    with pytest.raises(ValueError, match="solve_groups_kernel needs"):
        _core.solve_groups_kernel(SEVEN[:, :6].copy(), model, np.empty((2, 105), np.int64))


@pytest.mark.parametrize(("kernel", "dtype"), [
    ("bonus_kernel", np.int16), ("class_keys_kernel", np.int64),
    ("class_codes_kernel", np.int64)])
def test_one_output_a_row_kernels_check_their_arrays(kernel, dtype):
    f = getattr(_core, kernel)
    assert f(SEVEN, np.empty(2, dtype=dtype)) == -1
    with pytest.raises(ValueError, match=f"{kernel} needs"):
        f(SEVEN, np.empty(1, dtype=dtype))
    with pytest.raises(ValueError, match=f"{kernel} needs"):
        f(SEVEN[:, :6].copy(), np.empty(2, dtype=dtype))


def test_split_kernels_check_their_arrays():
    out = np.empty((2, 105, 3), dtype=np.int32)
    assert _core.split_strengths_kernel(SEVEN, 0, out) == -1
    for shape in ((1, 105, 3), (2, 104, 3), (2, 105, 2)):
        with pytest.raises(ValueError, match="split_strengths_kernel needs"):
            _core.split_strengths_kernel(SEVEN, 0, np.empty(shape, dtype=np.int32))
    tri = np.ascontiguousarray(out[:, 7])
    found = np.empty(2, dtype=np.int16)
    assert _core.match_split_kernel(SEVEN, 0, tri, found) == -1
    for i in range(2):  # split 7, or an earlier one with the same strengths
        assert 0 <= found[i] <= 7 and (out[i, found[i]] == tri[i]).all()
    for t, o in (((1, 3), 2), ((2, 2), 2), ((2, 3), 1)):
        with pytest.raises(ValueError, match="match_split_kernel needs"):
            _core.match_split_kernel(SEVEN, 0, np.zeros(t, dtype=np.int32),
                                     np.empty(o, dtype=np.int16))


def test_classify_kernel_checks_its_arrays():
    keys = np.empty(2, dtype=np.int64)
    _core.class_keys_kernel(SEVEN, keys)
    order = np.argsort(keys)
    keys = np.ascontiguousarray(keys[order])
    tri = np.arange(6, dtype=np.int32).reshape(2, 3)
    out = np.empty((2, 3), dtype=np.int32)
    assert _core.classify_kernel(SEVEN, keys, tri, out) == -1
    assert (out[order] == tri).all()
    bad = ((keys[:0], tri[:0].copy(), out), (keys, tri[:1].copy(), out),
           (keys, tri, out[:1].copy()), (keys, np.zeros((2, 2), np.int32), out))
    for k, t, o in bad:
        with pytest.raises(ValueError, match="classify_kernel needs"):
            _core.classify_kernel(SEVEN, k, t, o)


def test_suit_classes_kernel_checks_its_arrays():
    counts = np.zeros((1, 13), dtype=np.int8)
    counts[0, :7] = 1
    joker = np.zeros(1, dtype=np.uint8)
    out = np.zeros((2000, 7), dtype=np.int8)
    weight, group = np.zeros(2000, dtype=np.int64), np.zeros(2000, dtype=np.int32)
    n = _core.suit_classes_kernel(counts, joker, out, weight, group)
    assert n > 0 and weight[:n].sum() == 4**7  # seven distinct ranks: 4^7 suitings
    with pytest.raises(ValueError, match="suit_classes_kernel needs"):
        _core.suit_classes_kernel(counts, joker, out[:, :6].copy(), weight, group)
    with pytest.raises(ValueError, match="suit_classes_kernel needs"):
        _core.suit_classes_kernel(counts, joker, out, weight[:1999].copy(), group)
    with pytest.raises(ValueError, match="suit_classes_kernel needs"):
        _core.suit_classes_kernel(counts, np.zeros(2, np.uint8), out, weight, group)
    for row, flag in ((np.r_[5, 1, 1, np.zeros(10)], 0), (np.r_[np.ones(7), np.zeros(6)], 1),
                      (np.r_[np.ones(6), np.zeros(7)], 0), (np.r_[np.ones(6), np.zeros(7)], 2)):
        c = row.astype(np.int8).reshape(1, 13)
        with pytest.raises(ValueError, match="count row 0 is not seven cards"):
            _core.suit_classes_kernel(c, np.array([flag], np.uint8), out, weight, group)


def test_index_codes_kernel_checks_its_arrays():
    slots, local = np.empty(2, dtype=np.int32), np.empty(2, dtype=np.uint16)
    assert _core.index_codes_kernel(SEVEN, slots, local) == -1
    for s, lo in ((slots[:1].copy(), local), (slots, local[:1].copy())):
        with pytest.raises(ValueError, match="index_codes_kernel needs"):
            _core.index_codes_kernel(SEVEN, s, lo)
    with pytest.raises(ValueError, match="index_codes_kernel needs"):
        _core.index_codes_kernel(SEVEN[:, :6].copy(), slots, local)


def test_best_splits_kernel_checks_its_arrays():
    from asiapoker import optimal
    table = optimal.shipped_table("standard")
    start, end, local = optimal._index()
    out, cls = np.empty(2, dtype=np.int16), np.empty(2, dtype=np.int64)
    args = [start, end, local, table.best, table.tie_class, table.tie_mask, 0]
    assert _core.best_splits_kernel(SEVEN, *args, out, cls) == -1
    bad = [(0, start[:-1].copy()), (1, end[:-1].copy()), (3, table.best[:-1].copy()),
           (5, table.tie_mask[:-1].copy()), (5, np.ascontiguousarray(table.tie_mask[:, :13]))]
    for where, value in bad:
        spoiled = list(args)
        spoiled[where] = value
        with pytest.raises(ValueError, match="best_splits_kernel's arrays do not fit"):
            _core.best_splits_kernel(SEVEN, *spoiled, out, cls)
    for o, c in ((out[:1].copy(), cls), (out, cls[:1].copy())):
        with pytest.raises(ValueError, match="best_splits_kernel's arrays do not fit"):
            _core.best_splits_kernel(SEVEN, *args, o, c)
    with pytest.raises(ValueError, match="best_splits_kernel's arrays do not fit"):
        _core.best_splits_kernel(SEVEN[:, :6].copy(), *args, out, cls)
