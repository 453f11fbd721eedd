"""A plain, slow reading of rack-card rules (asiapoker.rack), one hand at a time, on top of
tests/reference.py: it shares no code with the package's array implementation."""

from tests import reference as ref

SHAPE_NAMES = {
    (1, 1, 1, 1, 1, 1, 1): "no pair",
    (2, 1, 1, 1, 1, 1): "one pair",
    (2, 2, 1, 1, 1): "two pairs",
    (2, 2, 2, 1): "three pairs",
    (3, 1, 1, 1, 1): "trips",
    (3, 2, 1, 1): "trips and a pair",
    (3, 2, 2): "trips and two pairs",
    (3, 3, 1): "two trips",
    (4, 1, 1, 1): "four of a kind",
    (4, 2, 1): "four of a kind and a pair",
    (4, 3): "four of a kind and trips",
    (5, 1, 1): "five aces",
    (5, 2): "five aces and a pair",
}
MADE = ("straight", "flush", "straight flush", "royal flush")


def groups(seven):
    """Lists of cards of one rank (joker with the aces), largest group first, then highest."""
    by_rank = {}
    for c in seven:
        by_rank.setdefault(ref.rank_value(c), []).append(c)
    return sorted(by_rank.items(), key=lambda item: (len(item[1]), item[0]), reverse=True)


def facts(seven, a234="high"):
    gs = groups(seven)
    shape = SHAPE_NAMES[tuple(len(g) for _, g in gs)]
    big = [r for r, g in gs if len(g) >= 2]
    singles = [r for r, g in gs if len(g) == 1]
    f = {}
    for i in range(3):
        f[f"group{i + 1}"] = big[i] if i < len(big) else None
    for i in range(4):
        f[f"single{i + 1}"] = singles[i] if i < len(singles) else None
    legal = [s for s in ref.all_splits(seven) if ref.is_legal(*s, a234=a234)]
    f["made"] = int(any(ref.CATEGORY_NAMES[ref.value(h, a234)[0]] in MADE for h, _, _ in legal))
    f["joker"] = int(ref.JOKER in seven)
    cats = {ref.CATEGORY_NAMES[ref.value(h, a234)[0]] for h, _, _ in legal}
    f["flush"] = int(bool(cats & {"flush", "straight flush", "royal flush"}))
    f["straight"] = int("straight" in cats)
    lows = [ref.rank_value(lo[0]) for h, _, lo in legal
            if ref.CATEGORY_NAMES[ref.value(h, a234)[0]] in MADE]
    f["made_low"] = max(lows) if lows else None
    made = [(h, m) for h, m, _ in legal if ref.CATEGORY_NAMES[ref.value(h, a234)[0]] in MADE]
    if made:
        _, medium = max(made, key=lambda hm: ref.value(hm[1], a234))
        f["made_medium"] = max(ref.rank_value(c) for c in medium)
        f["made_medium2"] = min(ref.rank_value(c) for c in medium)
    else:
        f["made_medium"] = f["made_medium2"] = None
    f["made_joker"] = int(bool(made) and all(ref.JOKER in h for h, _ in made))
    f["made_count"] = len({frozenset(h) for h, _ in made})
    f["made_pair"] = int(any(ref.CATEGORY_NAMES[ref.value(h, a234)[0]] in MADE
                             and ref.CATEGORY_NAMES[ref.value(m, a234)[0]] != "no pair"
                             for h, m, _ in legal))
    return shape, gs, f, legal


def meets(f, cond):
    feat, op, val = cond
    x = f[feat]
    if x is None:
        return False
    return {"==": x == val, ">=": x >= val, "<=": x <= val}[op]


def placement_of(split, gs):
    """The split's placement string: each group's letters in H, M, L order."""
    high, medium, _ = split
    out = []
    for _, g in gs:
        letters = "".join("H" if c in high else "M" if c in medium else "L" for c in g)
        out.append("".join(sorted(letters, key="HML".index)))
    return " ".join(out)


def values(split, a234):
    return tuple(ref.value(part, a234) for part in split)


def rack_setting(card_rules, seven, a234="high"):
    """(values of the setting, index of the deciding rule or -1) for a list of
    (shape, placement, conditions) rules."""
    shape, gs, f, legal = facts(seven, a234)
    for i, (rshape, placement, conds) in enumerate(card_rules):
        if rshape != shape or not all(meets(f, c) for c in conds):
            continue
        if placement.startswith("made"):
            fits = [s for s in legal if ref.CATEGORY_NAMES[ref.value(s[0], a234)[0]] in MADE]
            key = {"made": (1, 2, 0), "made-high": (1, 0, 2), "made-low": (2, 1, 0)}[placement]
        elif placement.startswith("best "):
            fits = legal
            key = tuple("HML".index(c) for c in placement[5:])
        else:
            fits = [s for s in legal if placement_of(s, gs) == placement]
            key = (0, 1, 2)
        if fits:
            best = max((values(s, a234) for s in fits), key=lambda v: tuple(v[j] for j in key))
            return best, i
    best = max((values(s, a234) for s in legal), key=lambda v: (v[1], v[2], v[0]))
    return best, -1
