# cython: language_level=3
"""Class keys: seven cards -> the key of their class, by which a compiled (user-written) house
way stores one setting a class (the keys are described in class_keys.pxd)."""

from libc.stdint cimport int32_t, int64_t

import numpy as np

from asiapoker._core.cards cimport JOKER, card_t, check_rows, load7


cdef int64_t class_key(const int* c) noexcept nogil:
    cdef int cnt[13]
    cdef int sm[4]
    cdef int sc[4]
    cdef int i, r, s, has_joker = 0, fs = -1, fs2 = -1, thr
    cdef int64_t key = 0, p
    for r in range(13):
        cnt[r] = 0
    for s in range(4):
        sm[s] = 0
        sc[s] = 0
    for i in range(7):
        if c[i] == JOKER:
            has_joker = 1
        else:
            cnt[c[i] >> 2] += 1
            sm[c[i] & 3] |= 1 << (c[i] >> 2)
            sc[c[i] & 3] += 1
    thr = 3 if has_joker else 4
    for s in range(4):
        if sc[s] >= thr:
            if fs < 0:
                fs = s
            else:
                fs2 = s
    if fs < 0:
        p = 1
        for r in range(13):
            key += cnt[r] * p
            p *= 5
        return ((<int64_t>has_joker) << 61) | key
    if fs2 < 0:
        p = 1
        for r in range(13):
            key += (cnt[r] - ((sm[fs] >> r) & 1)) * p
            p *= 4
        return (((<int64_t>1) << 62) | ((<int64_t>has_joker) << 61)
                | ((<int64_t>sm[fs]) << 26) | key)
    return ((<int64_t>2) << 62) | ((<int64_t>sm[fs]) << 13) | sm[fs2]


def class_keys_kernel(const card_t[:, ::1] hands, int64_t[::1] out):
    """Class keys of n seven-card rows; returns the first bad row or -1."""
    cdef Py_ssize_t i, bad
    cdef int c[7]
    if hands.shape[1] != 7 or out.shape[0] != hands.shape[0]:
        raise ValueError("asiapoker: class_keys_kernel needs n x 7 rows and n outputs")
    with nogil:
        bad = check_rows(hands)
        if bad < 0:
            for i in range(hands.shape[0]):
                load7(&hands[i, 0], c)
                out[i] = class_key(c)
    return bad


def classify_kernel(const card_t[:, ::1] hands, const int64_t[::1] keys, const int32_t[:, ::1] tri,
                    int32_t[:, ::1] out):
    """out[i] = tri[index of the class key of row i in the sorted ``keys``]; returns the first
    bad row (or -2 - row for a key missing from ``keys``) or -1."""
    cdef Py_ssize_t i, bad, lo, n = keys.shape[0]
    cdef int c[7]
    if (hands.shape[1] != 7 or n == 0 or tri.shape[0] != n or tri.shape[1] != 3
            or out.shape[0] != hands.shape[0] or out.shape[1] != 3):
        raise ValueError("asiapoker: classify_kernel needs n x 7 rows, m keys (m > 0), m x 3 "
                         "triples and n x 3 outputs")
    with nogil:
        bad = check_rows(hands)
        if bad < 0:
            for i in range(hands.shape[0]):
                load7(&hands[i, 0], c)
                lo = find_key(&keys[0], n, class_key(c))
                if lo < 0:
                    bad = -2 - i
                    break
                out[i, 0] = tri[lo, 0]
                out[i, 1] = tri[lo, 1]
                out[i, 2] = tri[lo, 2]
    return bad


def class_weights_enumerate(const int64_t[::1] keys):
    """Reference count of class sizes: the class key of every one of the C(53, 7) hands, one by
    one, looked up in the sorted ``keys``.  Returns (counts per key, hands without a key)."""
    counts = np.zeros(keys.shape[0], dtype=np.int64)
    cdef int64_t[::1] cv = counts
    cdef int64_t missing = 0
    cdef Py_ssize_t lo, n = keys.shape[0]
    cdef int c[7]
    cdef int d, e
    with nogil:
        for d in range(7):
            c[d] = d
        while True:
            lo = find_key(&keys[0], n, class_key(c))
            if lo >= 0:
                cv[lo] += 1
            else:
                missing += 1
            d = 6
            while d >= 0 and c[d] == 46 + d:
                d -= 1
            if d < 0:
                break
            c[d] += 1
            for e in range(d + 1, 7):
                c[e] = c[e - 1] + 1
    return counts, missing


cdef int table_way7(const int* seven, const int64_t* keys, const int32_t* strengths,
                    Py_ssize_t n, int32_t* hml) noexcept nogil:
    cdef Py_ssize_t i = find_key(keys, n, class_key(seven))
    if i < 0:
        return -1
    hml[0] = strengths[3 * i]
    hml[1] = strengths[3 * i + 1]
    hml[2] = strengths[3 * i + 2]
    return 0
