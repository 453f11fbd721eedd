"""Compile the rack card of the default house way (src/asiapoker/_standard.py) to the class
table the package ships (src/asiapoker/data/standard.npz) and print its sha256.

    python tools/build_standard.py

The tests check the shipped table against the card on slices of classes (and on all of them
under ``-m slow``), so the table cannot drift from the rules.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from asiapoker._standard import STANDARD
from asiapoker.house_way import STORED_WAYS, HouseWay, card_table

OUT = Path(__file__).resolve().parents[1] / "src" / "asiapoker" / "data" / "standard.npz"


def main() -> int:
    t = time.time()
    way = HouseWay.from_table(card_table(STANDARD), "standard", STORED_WAYS["standard"])
    digest = way.save(OUT)
    print(f"{len(STANDARD.rules)} rules compiled in {time.time() - t:.1f} s; written to {OUT}")
    print(f"sha256 {digest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
