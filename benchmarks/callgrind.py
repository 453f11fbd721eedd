"""Instructions the core executes, counted by valgrind's callgrind: unlike times on a shared
machine, the counts repeat exactly for one build and one input, on any machine.

    python benchmarks/callgrind.py                 # every scenario (a few minutes)
    python benchmarks/callgrind.py solve-standard  # one of them

Each scenario runs in a child Python under ``valgrind --tool=callgrind`` with collection
switched on only inside one kernel of the core (``--toggle-collect``):
``DealerModel.solve_rows`` for a solve (the dealer distribution and the counts of all 105
splits, what ``solve`` spends nearly all its work on; ``solve-standard-slowest`` on the slowest
kind of hand, a suit holding 4+ of its cards counting the joker: 28 % of random hands;
``solve-flushes-low`` against a way that sets every class's weakest legal high hand, which
breaks flushes up, so few flush entries land in the player's top high bucket),
``solve_known_kernel`` for a solve with known cards (the same hands, with 7 dead cards, or 1 or
2 cards the dealer shows, the next cards of a fixed-seed deck), ``solve_groups_kernel`` for the
grouped whole-game solver and ``best_splits_kernel`` for a lookup in the shipped optimal-play
table of ``standard`` (the class, the best split carried back to the row). The model is built
before, outside the count. Hands come from a fixed seed; the grouped solver runs on fixed
slices of ``player_classes()`` early, in the middle and late (the late ones hold the joker),
and on 60 whole rank multisets drawn at random (``groups-sample``: the mix of group sizes a
whole run meets, which the slices do not; ``groups-sample-high-first`` against
``high-first``). Needs Debian's ``valgrind``.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

CHILD = """
WEAKEST = {weakest!r}
import numpy as np
from asiapoker import HouseWay, Rules, _core
from asiapoker.suit_classes import player_classes
from asiapoker.sampling import random_hands
from asiapoker.solver import dealer_model
way = HouseWay.load({table!r}) if {way!r} == WEAKEST else HouseWay.named({way!r})
m = dealer_model(way, Rules())
if {kind!r} == "rows":
    hands = np.ascontiguousarray(random_hands({n}, 1).astype(np.int64))
    out = np.empty((len(hands), 105), np.int64)
    m.solve_rows(hands, out, np.empty(len(hands), np.int64))
elif {kind!r} == "slow":
    pool = random_hands(20000, 3).astype(np.int64)
    plain = np.where(pool < 52, pool % 4, 4)
    most = np.stack([(plain == s).sum(1) for s in range(4)], 1).max(1)
    hands = np.ascontiguousarray(pool[most + (pool == 52).any(1) >= 4][:{n}])
    out = np.empty((len(hands), 105), np.int64)
    m.solve_rows(hands, out, np.empty(len(hands), np.int64))
elif {kind!r} == "known":
    hands = np.ascontiguousarray(random_hands({n}, 1).astype(np.int64))
    rng = np.random.default_rng(2)
    rest = np.array([rng.permutation([c for c in range(53) if c not in h]) for h in hands])
    nd, nk = {lo}
    none = np.full((len(hands), 1), -1, np.int8)
    dead = np.ascontiguousarray(rest[:, :nd], dtype=np.int8) if nd else none
    shown = np.ascontiguousarray(rest[:, nd:nd + nk], dtype=np.int8) if nk else none
    out = np.empty((len(hands), 105), np.int64)
    assert _core.solve_known_kernel(hands, m, dead, shown, out,
                                    np.empty(len(hands), np.int64)) == -1
elif {kind!r} == "optimal":
    from asiapoker.optimal import _index, shipped_table
    t = shipped_table({way!r})
    hands = np.ascontiguousarray(random_hands({n}, 1))
    start, end, local = _index()
    out = np.empty(len(hands), np.int16)
    assert _core.best_splits_kernel(hands, start, end, local, t.best, t.tie_class, t.tie_mask,
                                    0, out, np.empty(len(hands), np.int64)) == -1
elif {kind!r} == "sample":
    from asiapoker.suit_classes import class_groups
    groups = class_groups()                  # rank multisets 0, 1, ..., in order
    pick = np.random.default_rng({lo}).choice(int(groups[-1]) + 1, {n}, replace=False)
    hands = np.ascontiguousarray(player_classes()[0][np.isin(groups, pick)])
    _core.solve_groups_kernel(hands, m, np.empty((len(hands), 105), np.int64))
    print(len(hands))
else:
    hands = np.ascontiguousarray(player_classes()[0][{lo}:{lo} + {n}])
    _core.solve_groups_kernel(hands, m, np.empty((len(hands), 105), np.int64))
"""

WEAKEST = "weakest-high"
"""The way of ``solve-flushes-low``: the weakest legal high hand of every class, built by
``WARM`` and saved for the child (as ``tests/test_solver.py`` builds it)."""

#: name -> (way, kernel, first class (groups) or (dead, dealer) cards (known), rows)
SCENARIOS = {
    "solve-standard": ("standard", "rows", 0, 20),
    "solve-classic": ("classic", "rows", 0, 20),
    "solve-standard-slowest": ("standard", "slow", 0, 20),
    # a way that breaks flushes up: few flush entries land in the player's top high bucket
    "solve-flushes-low": (WEAKEST, "rows", 0, 20),
    "known-standard-dead7": ("standard", "known", (7, 0), 20),
    "known-standard-dealer1": ("standard", "known", (0, 1), 20),
    "known-standard-dealer2": ("standard", "known", (0, 2), 20),
    "known-classic-dealer1": ("classic", "known", (0, 1), 20),
    "optimal-lookup-standard": ("standard", "optimal", 0, 20000),
    "groups-early": ("standard", "groups", 0, 2000),
    "groups-middle": ("standard", "groups", 3_000_000, 2000),
    "groups-late-joker": ("standard", "groups", 6_970_000, 2000),
    # 60 whole rank multisets drawn with seed 5 (of 67,600; their rows are the unit)
    "groups-sample": ("standard", "sample", 5, 60),
    # the same against high-first, the heaviest built-in way (675,296 flush entries, 81,796
    # two-flush ones)
    "groups-sample-high-first": ("high-first", "sample", 5, 60),
}
# the wrapper of the kernel's one specialization for the hands' dtype: the pattern matches no
# function it calls (callgrind toggles collection at every matching function's entry and exit,
# so a nested match, such as a compiler's clone of the kernel's body, switched it off inside)
_KERNEL = {"rows": "*fuse_*pw_*DealerModel*solve_rows*",
           "slow": "*fuse_*pw_*DealerModel*solve_rows*",
           "known": "*fuse_*pw_*known_cards*solve_known_kernel*",
           "groups": "*fuse_*pw_*groups*solve_groups_kernel*",
           "sample": "*fuse_*pw_*groups*solve_groups_kernel*",
           "optimal": "*fuse_*pw_*optimal*best_splits_kernel*"}


WARM = """
import numpy as np
from asiapoker import HouseWay, Rules, _core
from asiapoker._compile import class_table
from asiapoker.solver import dealer_model
if {way!r} == {weakest!r}:        # every class's weakest legal high hand: flushes broken up
    reps = class_table()[1]
    weakest = np.empty(len(reps), np.int16)
    for a in range(0, len(reps), 1 << 16):
        part = np.ascontiguousarray(reps[a:a + (1 << 16)])
        st = np.empty((len(part), 105, 3), np.int32)
        assert _core.split_strengths_kernel(part, 0, st) == -1
        legal = (st[:, :, 0] > st[:, :, 1]) & (st[:, :, 1] > st[:, :, 2])
        weakest[a:a + len(part)] = np.where(legal, st[:, :, 0], 2**31 - 1).argmin(1)
    way = HouseWay.from_table(weakest, {way!r})
    way.save({table!r})
else:
    way = HouseWay.named({way!r})
dealer_model(way, Rules())
"""


def count(name: str) -> tuple[int, int]:
    """(instructions inside the kernel, rows) of one scenario.  A dealer model read from the
    cache is checked by two full-deck solves through ``solve_rows`` itself (a model just
    built is not), so the cache is filled first, outside valgrind, and a solve's count is the
    scenario's less the same scenario with no hands: both read the model from the cache."""
    way, kind, lo, n = SCENARIOS[name]
    with tempfile.TemporaryDirectory() as tmp:
        table = str(Path(tmp) / "way.npz")
        subprocess.run([sys.executable, "-c", WARM.format(way=way, weakest=WEAKEST,
                                                          table=table)],
                       check=True, capture_output=True)
        total, printed = _run(way, kind, lo, n, table)
        if kind in ("rows", "slow"):
            total -= _run(way, kind, lo, 0, table)[0]
    if kind == "sample":                 # the rows of the drawn rank multisets
        n = int(printed.split()[-1])
    return total, n


def _run(way: str, kind: str, lo: Any, n: int, table: str) -> tuple[int, str]:
    """The instructions inside the kernel, and what the child printed."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        child = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                                f"--toggle-collect={_KERNEL[kind]}", sys.executable, "-c",
                                CHILD.format(way=way, kind=kind, lo=lo, n=n,
                                             weakest=WEAKEST, table=table)],
                               check=True, capture_output=True, text=True)
        text = out.read_text()
    m = re.search(r"^(?:summary|totals):\s+(\d+)", text, re.M)
    if m is None:
        raise RuntimeError(f"no instruction count in callgrind's output for {kind} {way}")
    return int(m.group(1)), child.stdout


def main(argv: list[str]) -> int:
    if shutil.which("valgrind") is None:
        print("needs valgrind: apt-get install valgrind", file=sys.stderr)
        return 2
    names = argv or list(SCENARIOS)
    for name in names:
        if name not in SCENARIOS:
            print(f"unknown scenario {name!r} (one of: {', '.join(SCENARIOS)})",
                  file=sys.stderr)
            return 2
    for name in names:
        total, n = count(name)
        unit = "class" if SCENARIOS[name][1] in ("groups", "sample") else "hand"
        per = (f"{total / n:8,.0f}   instructions a {unit}" if total < 100_000 * n
               else f"{total / n / 1e6:8.3f} M instructions a {unit}")
        print(f"{name:<24} {per} ({total:,} over {n:,})", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
