# cython: language_level=3
"""The strength tables: every 4-, 2- and 1-card hand's strength, computed once at import from
the rules (the scale is described in strengths.pxd), and the 105 splits of seven positions.

Nothing here validates its input except ``strengths_kernel``, which checks every id and every
duplicate before it indexes a table and reports the first bad row to the Python layer.
"""

from libc.stdint cimport int32_t

import numpy as np

from asiapoker._core.cards cimport JOKER, NCARDS, NSPLITS, card_t, check_rows, rank_of

# the names of the categories, by number (``strength >> 16``): the one definition, which
# asiapoker.CATEGORIES is
CATEGORIES = tuple(name for _, name in sorted({
    NOPAIR: "no pair", PAIR: "pair", TWOPAIR: "two pairs", TRIPS: "three of a kind",
    STRAIGHT: "straight", FLUSH: "flush", QUADS: "four of a kind", SFLUSH: "straight flush",
    ROYAL: "royal flush", FOURACES: "four aces"}.items()))

cdef Tables TABLES


cdef inline int32_t enc(int cat, int k1, int k2, int k3, int k4) noexcept nogil:
    return (cat << 16) | (k1 << 12) | (k2 << 8) | (k3 << 4) | k4


cdef int32_t eval4_plain(int r0, int r1, int r2, int r3,
                         int s0, int s1, int s2, int s3, int a234_low) noexcept nogil:
    """Strength of four cards given ranks 0..12 and suits 0..3 (4 = a suitless ace)."""
    cdef int a[4]
    cdef int i, j, t, idx
    cdef bint flush = s0 == s1 and s1 == s2 and s2 == s3 and s0 < 4
    a[0] = r0; a[1] = r1; a[2] = r2; a[3] = r3
    for i in range(1, 4):           # insertion sort, descending
        t = a[i]
        j = i - 1
        while j >= 0 and a[j] < t:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = t
    if a[0] == a[3]:
        if a[0] == 12:
            return enc(FOURACES, 13, 0, 0, 0)
        return enc(QUADS, a[0] + 1, 0, 0, 0)
    if a[0] > a[1] and a[1] > a[2] and a[2] > a[3]:
        idx = 0
        if a[0] - a[3] == 3:
            if a[0] == 12:
                idx = 11
            elif a234_low:
                idx = a[0] - 1
            else:
                idx = a[0] - 2
        elif a[0] == 12 and a[1] == 2 and a[2] == 1 and a[3] == 0:
            idx = 1 if a234_low else 10
        if idx:
            if flush:
                if idx == 11:
                    return enc(ROYAL, 0, 0, 0, 0)
                return enc(SFLUSH, idx, 0, 0, 0)
            return enc(STRAIGHT, idx, 0, 0, 0)
        if flush:
            return enc(FLUSH, a[0] + 1, a[1] + 1, a[2] + 1, a[3] + 1)
        return enc(NOPAIR, a[0] + 1, a[1] + 1, a[2] + 1, a[3] + 1)
    if a[0] == a[2]:
        return enc(TRIPS, a[0] + 1, a[3] + 1, 0, 0)
    if a[1] == a[3]:
        return enc(TRIPS, a[1] + 1, a[0] + 1, 0, 0)
    if a[0] == a[1] and a[2] == a[3]:
        return enc(TWOPAIR, a[0] + 1, a[2] + 1, 0, 0)
    if a[0] == a[1]:
        return enc(PAIR, a[0] + 1, a[2] + 1, a[3] + 1, 0)
    if a[1] == a[2]:
        return enc(PAIR, a[1] + 1, a[0] + 1, a[3] + 1, 0)
    return enc(PAIR, a[2] + 1, a[0] + 1, a[1] + 1, 0)


cdef int32_t eval4_ids(int a, int b, int c, int d, int a234_low) noexcept nogil:
    """Strength of four distinct ids, sorted ascending (so only ``d`` can be the joker)."""
    cdef int x, cat
    cdef int32_t best, v
    if d != JOKER:
        return eval4_plain(a >> 2, b >> 2, c >> 2, d >> 2, a & 3, b & 3, c & 3, d & 3, a234_low)
    # rule 2.2: the joker is an ace, or any absent card that completes a straight or flush.
    best = eval4_plain(12, a >> 2, b >> 2, c >> 2, 4, a & 3, b & 3, c & 3, a234_low)
    cdef int ra = a >> 2, rb = b >> 2, rc = c >> 2, s, y, top
    cdef int lo = max(ra, max(rb, rc)) - 3, hi = min(ra, min(rb, rc)) + 3
    cdef bint one_suit = (a & 3) == (b & 3) == (c & 3)
    cdef bint wheel = (ra == 12 or ra <= 2) and (rb == 12 or rb <= 2) and (rc == 12 or rc <= 2)
    if not one_suit and (ra == rb or rb == rc or ra == rc):
        return best                      # neither a straight (ranks repeat) nor a flush
    top = 12                             # the best flush: the joker as the highest rank absent
    while top == ra or top == rb or top == rc:
        top -= 1
    for x in range(13):                  # the joker as each rank that can complete a straight
        if not (lo <= x <= hi or (wheel and (x == 12 or x <= 2)) or (one_suit and x == top)):
            continue                     # (or the flush): in the cards' suit (a flush, if
        for y in range(2):               # any) and in one that makes none
            if y == 0:
                if not one_suit:
                    continue
                s = a & 3
            else:
                s = ((a & 3) + 1) & 3 if one_suit else 0
                while not one_suit and ((x << 2) | s) in (a, b, c):
                    s += 1               # an absent card of that rank (at most 3 are here)
            if ((x << 2) | s) == a or ((x << 2) | s) == b or ((x << 2) | s) == c:
                continue
            v = eval4_plain(x, ra, rb, rc, s, a & 3, b & 3, c & 3, a234_low)
            cat = v >> 16
            if (cat == STRAIGHT or cat == FLUSH or cat == SFLUSH or cat == ROYAL) and v > best:
                best = v
    return best


cdef int32_t eval2_ids(int a, int b) noexcept nogil:
    cdef int ra = rank_of(a), rb = rank_of(b)
    if ra == rb:
        return enc(PAIR, ra + 1, 0, 0, 0)
    if ra < rb:
        ra, rb = rb, ra
    return enc(NOPAIR, ra + 1, rb + 1, 0, 0)


cdef void build_tables() noexcept nogil:
    cdef int n, k, a, b, c, d, i, j, q, x, a234_low
    cdef int rem[3]
    for n in range(64):
        for k in range(8):
            if k == 0:
                TABLES.binom[n][k] = 1
            elif n == 0:
                TABLES.binom[n][k] = 0
            else:
                TABLES.binom[n][k] = TABLES.binom[n - 1][k - 1] + TABLES.binom[n - 1][k]
    for a234_low in range(2):
        i = 0
        for d in range(3, NCARDS):
            for c in range(2, d):
                for b in range(1, c):
                    for a in range(b):
                        TABLES.strength4[a234_low][i] = eval4_ids(a, b, c, d, a234_low)
                        i += 1
    i = 0
    for b in range(1, NCARDS):
        for a in range(b):
            TABLES.strength2[i] = eval2_ids(a, b)
            i += 1
    for a in range(NCARDS):
        TABLES.strength1[a] = enc(NOPAIR, rank_of(a) + 1, 0, 0, 0)
    # the splits of seven positions
    q = 0
    for a in range(7):
        for b in range(a + 1, 7):
            for c in range(b + 1, 7):
                for d in range(c + 1, 7):
                    TABLES.sub4[q][0] = a
                    TABLES.sub4[q][1] = b
                    TABLES.sub4[q][2] = c
                    TABLES.sub4[q][3] = d
                    q += 1
    k = 0
    for a in range(7):
        for b in range(a + 1, 7):
            TABLES.pair_pos[k][0] = a
            TABLES.pair_pos[k][1] = b
            TABLES.pair_idx[a][b] = k
            TABLES.pair_idx[b][a] = k
            k += 1
    k = 0
    for q in range(35):
        i = 0
        for x in range(7):
            if (x != TABLES.sub4[q][0] and x != TABLES.sub4[q][1] and x != TABLES.sub4[q][2]
                    and x != TABLES.sub4[q][3]):
                rem[i] = x
                i += 1
        for j in range(3):
            TABLES.split_high[k] = q
            TABLES.split_low[k] = rem[j]
            if j == 0:
                TABLES.split_medium[k] = TABLES.pair_idx[rem[1]][rem[2]]
            elif j == 1:
                TABLES.split_medium[k] = TABLES.pair_idx[rem[0]][rem[2]]
            else:
                TABLES.split_medium[k] = TABLES.pair_idx[rem[0]][rem[1]]
            k += 1


build_tables()


cdef const Tables* tables() noexcept nogil:
    return &TABLES


cdef void seven_parts(const int* c, int a234_low, int32_t* high35, int32_t* medium21,
                      int32_t* low7) noexcept nogil:
    cdef int q, i
    for q in range(35):
        high35[q] = lookup4(&TABLES, c[TABLES.sub4[q][0]], c[TABLES.sub4[q][1]],
                            c[TABLES.sub4[q][2]], c[TABLES.sub4[q][3]], a234_low)
    for i in range(21):
        medium21[i] = lookup2(&TABLES, c[TABLES.pair_pos[i][0]], c[TABLES.pair_pos[i][1]])
    for i in range(7):
        low7[i] = TABLES.strength1[c[i]]


cdef int32_t strength4(int a, int b, int c, int d, int a234_low) noexcept nogil:
    return lookup4(&TABLES, a, b, c, d, a234_low)


cdef int32_t strength2(int a, int b) noexcept nogil:
    return lookup2(&TABLES, a, b)


cdef int32_t strength1(int a) noexcept nogil:
    return TABLES.strength1[a]


# ---------------------------------------------------------------------------------------------
# Python-facing functions
# ---------------------------------------------------------------------------------------------

def strength(tuple ids, int a234_low):
    """Strength of one 1-, 2- or 4-card hand (ids distinct, in 0..52; checked by the caller)."""
    cdef Py_ssize_t n = len(ids)
    if n == 4:
        return lookup4(&TABLES, ids[0], ids[1], ids[2], ids[3], a234_low)
    if n == 2:
        return lookup2(&TABLES, ids[0], ids[1])
    return TABLES.strength1[<int>ids[0]]


def strengths_kernel(const card_t[:, ::1] hands, int a234_low, int32_t[::1] out):
    """Fill ``out`` with the strengths of n 1-, 2- or 4-card rows; returns the first bad row
    (nothing written) or -1."""
    cdef Py_ssize_t i, n = hands.shape[0], w = hands.shape[1]
    cdef Py_ssize_t bad
    if (w != 1 and w != 2 and w != 4) or out.shape[0] != n:
        raise ValueError("asiapoker: strengths_kernel needs n x 1, 2 or 4 rows and n outputs")
    with nogil:
        bad = check_rows(hands)
        if bad < 0:
            if w == 4:
                for i in range(n):
                    out[i] = lookup4(&TABLES, hands[i, 0], hands[i, 1], hands[i, 2], hands[i, 3],
                                     a234_low)
            elif w == 2:
                for i in range(n):
                    out[i] = lookup2(&TABLES, hands[i, 0], hands[i, 1])
            else:
                for i in range(n):
                    out[i] = TABLES.strength1[hands[i, 0]]
    return bad


def table_view(int size, int a234_low):
    """A read-only numpy copy of one strength table (4: colex-indexed, 2, or 1)."""
    cdef int32_t[::1] view
    if size == 4:
        view = <int32_t[:N4]>&TABLES.strength4[a234_low][0]
    elif size == 2:
        view = <int32_t[:N2]>&TABLES.strength2[0]
    else:
        view = <int32_t[:NCARDS]>&TABLES.strength1[0]
    arr = np.array(view, dtype=np.int32)
    arr.setflags(write=False)
    return arr
