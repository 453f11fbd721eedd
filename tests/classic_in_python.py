"""SPEC 5.4 ("classic") written again as a plain Python function of seven cards, to compile
with HouseWay.from_function and compare with the built-in way."""

from asiapoker import SPLIT_POSITIONS, Setting, split_strengths

PARTS = [tuple(0 if p in h else 1 if p in m else 2 for p in range(7))
         for h, m, _ in SPLIT_POSITIONS]


def classic_py(cards):
    hml = split_strengths(cards)
    groups: dict[int, list[int]] = {}
    for p, c in enumerate(cards):
        groups.setdefault(c.rank, []).append(p)
    checked = [g for g in groups.values() if 2 <= len(g) <= 4]
    big = sorted(r for r, g in groups.items() if len(g) >= 3)
    if len(big) >= 2:
        checked = [g for g in checked if g is not groups[big[0]]]
    legal = [k for k in range(105) if hml[k][0] > hml[k][1] > hml[k][2]]

    def allowed(k):
        part = PARTS[k]
        for g in checked:
            where = [part[p] for p in g]
            if len(g) == 4:
                if not (where.count(0) == 4 or (where.count(0) == 2 and where.count(1) == 2)):
                    return False
            elif where.count(where[0]) != len(where):
                return False
        return True

    pool = [k for k in legal if allowed(k)] or legal
    best = max(pool, key=lambda k: (hml[k][1], hml[k][2], hml[k][0]))
    h, m, lo = SPLIT_POSITIONS[best]
    return Setting([cards[i] for i in h], [cards[i] for i in m], cards[lo])
