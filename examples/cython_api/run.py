"""Run the built example (``python setup.py build_ext --inplace`` first): deal random rounds
with numpy, set both sides by the built-in way ``classic`` in a loop without the GIL, and print
how often the player wins.  ``python run.py [ROUNDS]``."""

import sys

import fast_sim
import numpy as np

rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
rng = np.random.default_rng(0)
deck = rng.permuted(np.tile(np.arange(53, dtype=np.int8), (rounds, 1)), axis=1)
dealer = np.ascontiguousarray(deck[:, :7])          # 14 distinct cards a round, checked here
player = np.ascontiguousarray(deck[:, 7:14])
wins, legal, bonus = fast_sim.play(dealer, player, 0, 0)
print(f"{rounds:,} rounds of classic against classic: the player wins {wins / rounds:.4f}, "
      f"{legal:,} legal settings, {bonus:,} bonus hands")
