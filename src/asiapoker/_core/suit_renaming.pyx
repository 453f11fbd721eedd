# cython: language_level=3
"""Player hands up to suit renaming: the 24 renamings of the suits, the least hand of each
orbit, and every hand's canonical code."""

from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t

from asiapoker._core.cards cimport JOKER, card_t, check_rows


cdef uint8_t SUIT_PERM[24][16]   # [renaming][suit mask] -> renamed mask


cdef void build_suit_perms() noexcept nogil:
    cdef int p = 0, a, b, c, d, m, s
    cdef int img[4]
    for a in range(4):
        for b in range(4):
            for c in range(4):
                for d in range(4):
                    if a == b or a == c or a == d or b == c or b == d or c == d:
                        continue
                    img[0] = a; img[1] = b; img[2] = c; img[3] = d
                    for m in range(16):
                        SUIT_PERM[p][m] = 0
                        for s in range(4):
                            if (m >> s) & 1:
                                SUIT_PERM[p][m] |= 1 << img[s]
                    p += 1


build_suit_perms()


cdef const uint8_t* suit_renaming(int p) noexcept nogil:
    return SUIT_PERM[p]


def suit_classes_kernel(const int8_t[:, ::1] counts, const uint8_t[::1] joker,
                        int8_t[:, ::1] out, int64_t[::1] weight, int32_t[::1] group):
    """For each rank-count row (13 counts, 7 cards with the joker flag counted), every way
    of giving the ranks suits that is the least under the 24 renamings of suits (each rank's
    suit set read as a 4-bit mask, the lowest rank most significant), as sorted card ids,
    with the size of its orbit and the row it came from.  Returns the number written, or -1
    when ``out`` is too small."""
    cdef Py_ssize_t row, n = 0, cap = out.shape[0]
    cdef int rk[13]
    cdef int mult[13]
    cdef int digit[13]
    cdef int lists[5][6]
    cdef int nlist[5]
    cdef int m, d, i, p, k, s, stab, full = 0
    cdef int64_t code, alt
    for m in range(16):
        k = (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1) + ((m >> 3) & 1)
        nlist[k] = 0
    for m in range(16):
        k = (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1) + ((m >> 3) & 1)
        lists[k][nlist[k]] = m
        nlist[k] += 1
    if (counts.shape[1] != 13 or joker.shape[0] != counts.shape[0] or out.shape[1] != 7
            or weight.shape[0] != cap or group.shape[0] != cap):
        raise ValueError("asiapoker: suit_classes_kernel needs m x 13 counts, m joker flags, "
                         "n x 7 outputs, n weights and n groups")
    for row in range(counts.shape[0]):
        d = joker[row]
        k = joker[row] <= 1
        for i in range(13):
            d += counts[row, i]
            k = k and 0 <= counts[row, i] <= 4
        if d != 7 or not k:
            raise ValueError(f"asiapoker: suit_classes_kernel's count row {row} is not seven "
                             "cards (counts 0..4, a joker flag 0 or 1)")
    with nogil:
        for row in range(counts.shape[0]):
            if full:
                break
            d = 0
            for i in range(13):
                if counts[row, i] > 0:
                    rk[d] = i
                    mult[d] = counts[row, i]
                    digit[d] = 0
                    d += 1
            # the lowest rank's mask is fixed to the least of its size: lists[k][0]
            while True:
                code = 0
                for i in range(d):
                    code = (code << 4) | lists[mult[i]][digit[i]]
                stab = 1
                for p in range(1, 24):
                    alt = 0
                    for i in range(d):
                        alt = (alt << 4) | SUIT_PERM[p][lists[mult[i]][digit[i]]]
                    if alt < code:
                        stab = 0
                        break
                    stab += alt == code
                if stab:
                    if n == cap:
                        full = 1
                        break
                    k = 0
                    for i in range(d):
                        m = lists[mult[i]][digit[i]]
                        for s in range(4):
                            if (m >> s) & 1:
                                out[n, k] = rk[i] * 4 + s
                                k += 1
                    if joker[row]:
                        out[n, k] = JOKER
                    weight[n] = 24 // stab
                    group[n] = <int32_t>row
                    n += 1
                i = d - 1
                while i >= 1 and digit[i] == nlist[mult[i]] - 1:
                    digit[i] = 0
                    i -= 1
                if i < 1:
                    break
                digit[i] += 1
    return -1 if full else n


def class_codes_kernel(const card_t[:, ::1] hands, int64_t[::1] out):
    """out[i] = the least, over the 24 renamings of suits, of row i's code (each rank's suits as
    a 4-bit mask, rank 2 most significant), plus the joker as bit 52; rows are checked first.
    Returns the first bad row or -1."""
    cdef Py_ssize_t i, bad
    cdef int k, p, r, c
    cdef int masks[13]
    cdef int64_t code, best, dealer_joker
    if hands.shape[1] != 7 or out.shape[0] != hands.shape[0]:
        raise ValueError("asiapoker: class_codes_kernel needs n x 7 rows and n outputs")
    with nogil:
        bad = check_rows(hands)
        if bad < 0:
            for i in range(hands.shape[0]):
                for r in range(13):
                    masks[r] = 0
                dealer_joker = 0
                for k in range(7):
                    c = hands[i, k]
                    if c == JOKER:
                        dealer_joker = (<int64_t>1) << 52
                    else:
                        masks[c >> 2] |= 1 << (c & 3)
                best = -1
                for p in range(24):
                    code = 0
                    for r in range(13):
                        code = (code << 4) | SUIT_PERM[p][masks[r]]
                    if best < 0 or code < best:
                        best = code
                out[i] = best | dealer_joker
    return bad
