# cython: language_level=3
"""The bonus wager (rule 4): which seven-card bonus hands seven cards qualify for.

Bit i of a bonus mask is category i of asiapoker.bonus.BONUS_CATEGORIES: 0 four 8s and three of a
kind, 1 five aces, 2 royal flush, 3 natural straight flush, 4 straight flush with joker,
5 four of a kind, 6 9-high, 7 full house, 8 flush, 9 three of a kind, 10 straight.
The joker completes straights and flushes (any one missing card) and is otherwise an ace.
"""

from libc.stdint cimport int16_t, int64_t

import numpy as np

from asiapoker._core.cards cimport JOKER, card_t, check_rows, load7


# bonus categories: bit b of a bonus mask is category b
cdef enum:
    B_FOUR_8S_TRIPS = 0
    B_FIVE_ACES = 1
    B_ROYAL = 2
    B_NATURAL_SF = 3
    B_JOKER_SF = 4
    B_QUADS = 5
    B_NINE_HIGH = 6
    B_FULL_HOUSE = 7
    B_FLUSH = 8
    B_TRIPS = 9
    B_STRAIGHT = 10

# their names, by bit: the one definition, which asiapoker.BONUS_CATEGORIES is
BONUS_CATEGORIES = tuple(name for _, name in sorted({
    B_FOUR_8S_TRIPS: "four 8s and three of a kind", B_FIVE_ACES: "five aces",
    B_ROYAL: "royal flush", B_NATURAL_SF: "natural straight flush",
    B_JOKER_SF: "straight flush with joker", B_QUADS: "four of a kind",
    B_NINE_HIGH: "9-high", B_FULL_HOUSE: "full house", B_FLUSH: "flush",
    B_TRIPS: "three of a kind", B_STRAIGHT: "straight"}.items()))

cdef int WINDOWS[10]
cdef int NINE_HIGH_A = (1 << 7) | (1 << 6) | (1 << 5) | (1 << 4) | (1 << 2) | (1 << 1) | 1
cdef int NINE_HIGH_B = (1 << 7) | (1 << 6) | (1 << 5) | (1 << 3) | (1 << 2) | (1 << 1) | 1


cdef void build_windows() noexcept nogil:
    cdef int w
    WINDOWS[0] = (1 << 12) | 0xF          # 5-4-3-2-A
    for w in range(1, 10):
        WINDOWS[w] = 0x1F << (w - 1)      # 6-5-4-3-2 .. A-K-Q-J-T


build_windows()


cdef inline int popcount(unsigned int x) noexcept nogil:
    """Bits set in ``x`` (portable: no compiler builtin)."""
    x = x - ((x >> 1) & 0x55555555u)
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u)
    return <int>((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24)


cdef int bonus_mask(const int* c) noexcept nogil:
    cdef int cnt[13]
    cdef int suitmask[4]
    cdef int r, s, w, i, has_joker = 0, rankmask = 0, mask = 0, have, n, n2 = 0, n3 = 0
    cdef int flushes = 0                     # suits that hold five cards with the joker
    for r in range(13):
        cnt[r] = 0
    for s in range(4):
        suitmask[s] = 0
    for i in range(7):
        if c[i] == JOKER:
            has_joker = 1
        else:
            cnt[c[i] >> 2] += 1
            suitmask[c[i] & 3] |= 1 << (c[i] >> 2)
            rankmask |= 1 << (c[i] >> 2)
    if cnt[12] == 4 and has_joker:
        mask |= 1 << B_FIVE_ACES
    for r in range(13):                      # the joker is an ace for groups
        n = cnt[r] + (has_joker if r == 12 else 0)
        n2 += n >= 2
        n3 += n >= 3
        if n >= 4:
            mask |= 1 << B_QUADS
    if n3:
        mask |= 1 << B_TRIPS
        if n2 >= 2:                          # trips and another pair (or trips)
            mask |= 1 << B_FULL_HOUSE
        if cnt[6] == 4 and n3 >= 2:          # four 8s and three of a kind
            mask |= 1 << B_FOUR_8S_TRIPS
    if not has_joker and (rankmask == NINE_HIGH_A or rankmask == NINE_HIGH_B):
        mask |= 1 << B_NINE_HIGH
    for s in range(4):
        if popcount(suitmask[s]) + has_joker >= 5:
            flushes |= 1 << s
            mask |= 1 << B_FLUSH
    for w in range(10):
        have = popcount(rankmask & WINDOWS[w])
        if have == 5 or (has_joker and have == 4):
            mask |= 1 << B_STRAIGHT
        for s in range(4):
            if not (flushes >> s) & 1:
                continue
            have = popcount(suitmask[s] & WINDOWS[w])
            if have == 5:
                mask |= 1 << B_NATURAL_SF
                if w == 9:
                    mask |= 1 << B_ROYAL
            elif has_joker and have == 4:
                mask |= 1 << B_JOKER_SF
                if w == 9:
                    mask |= 1 << B_ROYAL
    return mask


def bonus_kernel(const card_t[:, ::1] hands, int16_t[::1] out):
    """Fill ``out`` with the bonus masks of n seven-card rows; returns the first bad row or -1."""
    cdef Py_ssize_t i, bad
    cdef int c[7]
    if hands.shape[1] != 7 or out.shape[0] != hands.shape[0]:
        raise ValueError("asiapoker: bonus_kernel needs n x 7 rows and n outputs")
    with nogil:
        bad = check_rows(hands)
        if bad < 0:
            for i in range(hands.shape[0]):
                load7(&hands[i, 0], c)
                out[i] = bonus_mask(c)
    return bad


def bonus_enumerate():
    """Reference path: the bonus mask of every one of the C(53, 7) hands, one by one, as a
    histogram over the 2048 masks."""
    hist = np.zeros(2048, dtype=np.int64)
    cdef int64_t[::1] hv = hist
    cdef int c[7]
    with nogil:
        c[0] = 0
        while c[0] < 47:
            c[1] = c[0] + 1
            while c[1] < 48:
                c[2] = c[1] + 1
                while c[2] < 49:
                    c[3] = c[2] + 1
                    while c[3] < 50:
                        c[4] = c[3] + 1
                        while c[4] < 51:
                            c[5] = c[4] + 1
                            while c[5] < 52:
                                c[6] = c[5] + 1
                                while c[6] < 53:
                                    hv[bonus_mask(c)] += 1
                                    c[6] += 1
                                c[5] += 1
                            c[4] += 1
                        c[3] += 1
                    c[2] += 1
                c[1] += 1
            c[0] += 1
    return hist


cdef int bonus_mask7(const int* seven) noexcept nogil:
    return bonus_mask(seven)
