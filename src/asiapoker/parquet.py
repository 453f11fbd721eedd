"""The per-class results of a whole-game run as one Parquet file (pyarrow, the
``[parquet]`` extra), streamed chunk by chunk.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ._files import atomic_path
from ._runs import RunDir
from .cards import Card
from .errors import RunError
from .setting import SPLIT_POSITIONS
from .solver import DEALER_HANDS
from .suit_classes import player_classes

__all__ = ["PARQUET_COLUMNS"]

PARQUET_COLUMNS = {
    "class": "index of the class in player_classes()",
    "hand": "the class's least member, e.g. '2c 3c 4c 5c 6c 7c 8c' (cards ascending)",
    "weight": "how many of the C(53, 7) hands the class stands for (1..24)",
    "shape": "one of analysis.HAND_SHAPES",
    "joker": "whether the hand holds the joker",
    "best_split": "index of the best split into SPLIT_POSITIONS of the hand as written",
    "best": "the best setting, 'HIGH | MEDIUM | LOW'",
    "best_wins": "dealer hands (of C(46, 7) = 53,524,680) the best setting beats",
    "best_ev": "its expected value per unit wagered",
    "house_way_split": "the house way's split (same indexing)",
    "house_way": "the house way's setting",
    "house_way_wins": "dealer hands the house way's setting beats",
    "house_way_ev": "its expected value",
    "cost": "best_ev - house_way_ev",
    "player_split": "(strategy runs) the strategy's split",
    "player": "(strategy runs) the strategy's setting",
    "player_wins": "(strategy runs) dealer hands the strategy's setting beats",
    "player_ev": "(strategy runs) its expected value",
}
"""The columns of ``classes.parquet``, in order, with what they hold."""


def _setting_text(pa: Any, pc: Any, text: npt.NDArray[Any], split: npt.NDArray[np.int8]) -> Any:
    """'HIGH | MEDIUM | LOW' for each row, from its card texts (n x 7) and split index."""
    pos = _SPLIT_ORDER[split.astype(np.intp)]                       # n x 7 positions
    pick = text[np.arange(len(split))[:, None], pos]
    a = [pa.array(pick[:, k]) for k in range(7)]
    sp = pa.scalar(" ")
    return pc.binary_join_element_wise(
        pc.binary_join_element_wise(a[0], a[1], a[2], a[3], sp),
        pc.binary_join_element_wise(a[4], a[5], sp), a[6], pa.scalar(" | "))


_SPLIT_ORDER = np.array([list(h) + list(m) + [lo] for h, m, lo in SPLIT_POSITIONS],
                        dtype=np.intp)
_CARD_TEXT = np.array([str(Card(i)) for i in range(53)], dtype=object)


def write_parquet(run: RunDir, chunks: list[int], edges: npt.NDArray[np.int64], final: Any,
                  meta: dict[str, Any], pays: float, shapes: Sequence[str]) -> None:
    """The per-class results of ``chunks`` of ``run`` (``edges`` the chunks' class ranges) as
    one Parquet file ``final``, streamed chunk by chunk (bounded memory) into a fresh
    temporary file and renamed into place when whole (:func:`asiapoker._files.atomic_path`);
    ``meta`` (what the run computed) goes into its schema's metadata, and a chunk's ``shape``
    column indexes ``shapes``.  No chunk is a :class:`asiapoker.errors.RunError`: a file of
    no classes is never written."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.parquet as pq
    if not chunks:
        raise RunError(f"{str(final)!r}: no chunk to write (a Parquet file of no classes)")
    hands, weights = player_classes()
    with atomic_path(final) as tmp:
        writer = None
        try:
            for c in chunks:
                lo, hi = int(edges[c]), int(edges[c + 1])
                table = _chunk_table(pa, pc, run.load(c), hands[lo:hi], weights[lo:hi], lo,
                                     float(pays) + 1, shapes)
                if writer is None:
                    schema_meta = {b"asiapoker": json.dumps(meta).encode()}
                    writer = pq.ParquetWriter(tmp, table.schema.with_metadata(schema_meta),
                                              compression="zstd")
                writer.write_table(table)
        finally:
            if writer is not None:
                writer.close()


def _chunk_table(pa: Any, pc: Any, data: dict[str, npt.NDArray[Any]], h: npt.NDArray[np.int8],
                 weights: npt.NDArray[np.int64], lo: int, scale: float,
                 shapes: Sequence[str]) -> Any:
    """One chunk's rows of ``classes.parquet`` (``h`` its classes' hands, from class ``lo``)."""
    text = _CARD_TEXT[h.astype(np.intp)]
    cards = [pa.array(text[:, k]) for k in range(7)]
    cols: dict[str, Any] = {
        "class": pa.array(np.arange(lo, lo + len(h), dtype=np.int64)),
        "hand": pc.binary_join_element_wise(*cards, pa.scalar(" ")),
        "weight": pa.array(weights.astype(np.int8)),
        "shape": pa.DictionaryArray.from_arrays(pa.array(data["shape"]), pa.array(list(shapes))),
        "joker": pa.array(h[:, 6] == 52),
    }
    evs = {}
    for key in ("best", "house_way", "player"):
        if key not in data:
            continue
        wins = data[f"{key}_wins"]
        evs[key] = wins / DEALER_HANDS * scale - 1
        cols[f"{key}_split"] = pa.array(data[key])
        cols[key] = _setting_text(pa, pc, text, data[key])
        cols[f"{key}_wins"] = pa.array(wins)
        cols[f"{key}_ev"] = pa.array(evs[key])
        if key == "house_way":
            cols["cost"] = pa.array(evs["best"] - evs["house_way"])
    return pa.table(cols)
