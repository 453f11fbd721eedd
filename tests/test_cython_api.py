"""The Cython API (asiapoker/capi.pxd): the example
extension in examples/cython_api is built against the installed package and its results are
compared with the Python API."""

import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from asiapoker import bonus_hands, dealer_strengths, legal_splits

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "cython_api"


@pytest.fixture(scope="module")
def fast_sim(tmp_path_factory):
    pytest.importorskip("Cython", reason="the test extra installs Cython")
    where = tmp_path_factory.mktemp("cython_api")
    for name in ("fast_sim.pyx", "setup.py", "run.py"):
        shutil.copy(EXAMPLE / name, where / name)
    done = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace"], cwd=where,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    sys.path.insert(0, str(where))
    try:
        import fast_sim
        yield fast_sim
    finally:
        sys.path.remove(str(where))


@pytest.mark.parametrize(("way", "code", "a234"), [("classic", 0, "high"),
                                                   ("medium-first", 1, "low"),
                                                   ("high-first", 2, "high")])
def test_cimported_core_agrees_with_the_python_api(fast_sim, way, code, a234):
    from asiapoker import Rules
    rules = Rules(a234=a234)
    rng = np.random.default_rng(code)
    both = np.argsort(rng.random((3000, 53)), axis=1)[:, :14].astype(np.int8)
    dealer, player = np.ascontiguousarray(both[:, :7]), np.ascontiguousarray(both[:, 7:])
    wins, legal, bonus = fast_sim.play(dealer, player, code, rules.a234_low)
    d = dealer_strengths(dealer, way, rules)
    p = dealer_strengths(player, way, rules)
    assert wins == int(((p > d).sum(1) >= 2).sum())
    assert legal == int(legal_splits(player, rules).sum())
    assert bonus == int((bonus_hands(player) >= 0).sum())
    with pytest.raises(ValueError, match="way must be 0, 1 or 2"):
        fast_sim.play(dealer, player, 3, rules.a234_low)


@pytest.mark.parametrize(("way", "a234"), [("standard", "high"), ("equilibrium", "low"),
                                           ("medium-first", "high")])
def test_cimported_table_way_agrees_with_the_python_api(fast_sim, way, a234):
    from asiapoker import HouseWay, Rules
    rules = Rules(a234=a234)
    w = HouseWay.named(way)
    keys, strengths = w.class_table(rules)
    assert len(keys) == len(strengths) == 829_504 and not strengths.flags.writeable
    rng = np.random.default_rng(len(way))
    both = np.argsort(rng.random((3000, 53)), axis=1)[:, :14].astype(np.int8)
    dealer, player = np.ascontiguousarray(both[:, :7]), np.ascontiguousarray(both[:, 7:])
    wins, missing = fast_sim.play_way(dealer, player, keys, strengths)
    d, p = w.strengths(dealer, rules), w.strengths(player, rules)
    assert missing == 0
    assert wins == int(((p > d).sum(1) >= 2).sum())


def test_the_one_card_strengths(fast_sim):
    from asiapoker import strengths
    assert fast_sim.low_strengths() == strengths(np.arange(53).reshape(-1, 1)).tolist()


def test_the_examples_run_script_runs(fast_sim):
    """examples/README.md's command: run.py prints the player's share of wins."""
    where = Path(fast_sim.__file__).parent
    done = subprocess.run([sys.executable, "run.py", "3000"], cwd=where, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.startswith("3,000 rounds of classic against classic: the player wins 0.")
