# cython: language_level=3
"""The reference path of the solver: every dealer hand walked one by one and set by the house
way, sharing no counting code with the dealer model (dealer.pyx), whose integers it checks."""

from libc.stdint cimport int32_t, int64_t

import numpy as np

from asiapoker._core.cards cimport NCARDS, sort7
from asiapoker._core.class_keys cimport class_key, find_key
from asiapoker._core.dealer cimport NL, NM
from asiapoker._core.house_ways cimport choose


def enumerate_dealer(tuple player, int a234_low, int kind, int first_hand, int second_hand,
                     int third_hand,
                     int32_t[::1] dense_h, int n_h, int32_t[::1] dense_m,
                     const int64_t[::1] keys=None, const int32_t[:, ::1] tri=None,
                     tuple dead=(), tuple shown=()):
    """Reference path: walk every 7-card dealer hand one by one -- the ``shown`` cards (known
    to be the dealer's) and any others from the cards not in ``player``, ``dead`` or
    ``shown`` -- set it by the house way and histogram the dealer's (high, medium, low)
    strengths as hist[dense high, dense medium, low rank].  Returns (total, hist).  With
    ``keys`` and ``tri`` the way is a class table: each hand's class key is looked up in the
    sorted ``keys`` and its strengths read from ``tri`` (a hand without a class counts in
    ``total`` only, so the totals tell)."""
    cdef int rest[NCARDS]
    cdef int fixed[7]
    cdef int c[7]
    cdef int idx[7]
    cdef int32_t hml[3]
    cdef int i, j, n = 0, d, nf = len(shown), m
    cdef int64_t total = 0
    cdef Py_ssize_t lo, nk = 0
    cdef bint table = keys is not None and tri is not None
    known = set(player) | set(dead) | set(shown)
    if (len(player) != 7 or nf > 7 or len(known) != 7 + len(dead) + nf
            or not known <= set(range(NCARDS)) or NCARDS - 7 - len(dead) < 7):
        raise ValueError("asiapoker: enumerate_dealer takes distinct checked ids")
    if table:
        nk = keys.shape[0]
    for i in range(NCARDS):
        if i not in known:
            rest[n] = i
            n += 1
    for j in range(nf):
        fixed[j] = shown[j]
    m = 7 - nf                        # the dealer's cards not known
    hist = np.zeros((n_h, NM, NL), dtype=np.int64)
    cdef int64_t[:, :, ::1] hv = hist
    with nogil:
        for j in range(m):
            idx[j] = j
        while True:
            for j in range(nf):
                c[j] = fixed[j]
            for j in range(m):
                c[nf + j] = rest[idx[j]]
            sort7(c)
            total += 1
            if table:
                lo = find_key(&keys[0], nk, class_key(c))
                if lo < 0:
                    total += (<int64_t>1) << 40   # no class: make the total visibly wrong
                else:
                    hv[dense_h[tri[lo, 0]], dense_m[tri[lo, 1]], (tri[lo, 2] >> 12) - 1] += 1
            else:
                choose(c, a234_low, kind, first_hand, second_hand, third_hand, hml)
                hv[dense_h[hml[0]], dense_m[hml[1]], (hml[2] >> 12) - 1] += 1
            j = m - 1
            while j >= 0 and idx[j] == n - m + j:
                j -= 1
            if j < 0:
                break
            idx[j] += 1
            for d in range(j + 1, m):
                idx[d] = idx[d - 1] + 1
    return total, hist
