"""The whole game as data: an every-split run keeps every split's count of every class.  On a
shard of two chunks: the stored counts equal count_splits on the classes' hands (illegal
splits -1); the run's results digest is a plain run's; evaluate() gives any strategy's
figures exactly as analyze(player=...) does; price() prices a card from it as from a run of
the card; the dealer-side counts (dealer_split_counts) are count_splits of the dealer; and bad
runs are one-line errors naming the file."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import asiapoker as ap
from asiapoker import RunError
from asiapoker.analysis import analyze, dealer_split_counts, evaluate, load_split_counts
from asiapoker.card_search import generate
from asiapoker.cli import main
from asiapoker.pricing import price
from asiapoker.strategy import CardStrategy
from asiapoker.suit_classes import player_classes

SHARD = "7/350"                         # two chunks
KEYS = ("figures", "by_shape", "by_joker", "ev_hist", "cost_hist", "classes", "complete",
        "way", "way_digest", "rules")


@pytest.fixture(scope="module")
def every(tmp_path_factory):
    out = tmp_path_factory.mktemp("every")
    a = analyze("standard", shard=SHARD, out=out, every_split=True, workers=2, progress=False)
    return a, out


def test_the_stored_counts_are_count_splits(every):
    _, out = every
    counts = load_split_counts(out, partial=True)
    assert counts.shape == (6_972_147, 105) and len(counts.missing) == len(counts.edges) - 3
    hands = player_classes()[0]
    rng = np.random.default_rng(4)
    for lo, hi, _ in counts.chunks():
        rows = np.r_[lo:lo + 150, rng.integers(lo, hi, 150), hi - 1]
        want = np.where(ap.legal_splits(hands[rows]), ap.count_splits(hands[rows], "standard"),
                        -1)
        np.testing.assert_array_equal(counts[rows], want)
        assert (counts[int(rows[0])] == want[0]).all() and counts[lo:lo + 3].shape == (3, 105)
    with pytest.raises(RunError, match="chunk"):
        counts[0]                                         # a chunk the shard does not hold


def test_an_every_split_run_has_a_plain_runs_digest(every):
    a, _ = every
    plain = analyze("standard", shard=SHARD, workers=2, progress=False)
    assert a.meta["results_sha256"] == plain.meta["results_sha256"]
    assert a.to_dict()["figures"] == plain.to_dict()["figures"]
    assert len(a.meta["split_counts_sha256"]) == 64
    assert a.meta["split_counts_sha256"] == load_split_counts(every[1], partial=True).digest()


def _strategies():
    card = ap.HouseWay.named("standard").card
    table = ap.optimal.shipped_table("classic")
    return [("a house way", "classic"), ("a card", CardStrategy(card)),
            ("a batch function", lambda rows: np.zeros(len(rows), dtype=np.int64)),
            ("an optimal table", table)]


@pytest.mark.parametrize(("kind", "player"), _strategies(), ids=lambda x: x if
                         isinstance(x, str) else "")
def test_evaluate_is_analyze_of_the_player(every, kind, player):
    _, out = every
    got = evaluate(player, out, partial=True, progress=False)
    if isinstance(player, ap.OptimalTable):          # the same splits, as a batch strategy
        want = analyze("standard", player=player.best_splits, shard=SHARD, workers=2,
                       progress=False)
    else:
        want = analyze("standard", player=player, shard=SHARD, workers=2, progress=False)
    g, w = got.to_dict(), want.to_dict()
    assert {k: g[k] for k in KEYS} == {k: w[k] for k in KEYS}, kind
    assert got.figures["strategy"].wins == want.figures["strategy"].wins


def test_a_card_is_priced_from_the_every_split_run(every, tmp_path):
    _, out = every
    card = ap.HouseWay.named("standard").card
    from_splits = price(card, "standard", run=out, partial=True)
    run = tmp_path / "card-run"
    analyze("standard", player=CardStrategy(card), shard=SHARD, out=run, workers=2,
            progress=False)
    from_run = price(card, "standard", run=run, partial=True)
    assert from_splits.to_dict() == from_run.to_dict()
    assert from_splits.ev == from_run.ev                    # exact fractions
    with pytest.raises(RunError, match=r"every-split run against house way standard .* not "
                                       r"classic"):
        price(card, "classic", run=out, partial=True)


def test_bad_every_split_runs_are_one_line_errors(every, tmp_path, capsys):
    _, out = every
    with pytest.raises(RunError, match="is not finished: 686 of 688 chunks to go"):
        load_split_counts(out)
    plain = tmp_path / "plain"
    analyze("standard", shard="0/700", out=plain, workers=2, progress=False)
    with pytest.raises(RunError, match=r"plain.* a run without every split's counts: make one "
                                       r"with analyze --every-split"):
        evaluate("classic", plain, partial=True)
    with pytest.raises(ap.OptionError, match=r"every_split .* needs out="):
        analyze("standard", every_split=True)
    copy = tmp_path / "copy"
    import shutil
    shutil.copytree(out, copy)
    chunk = next(copy.glob("chunks/*.npz"))
    chunk.write_bytes(chunk.read_bytes()[:-300])
    with pytest.raises(RunError, match=rf"split counts: .*{chunk.name}.*damaged"):
        evaluate("classic", copy, partial=True)
    card = tmp_path / "card.json"
    card.write_text(ap.strategy.card_to_json(ap.HouseWay.named("standard").card))
    assert main(["card", "--way", "standard", "--card", str(card), "--exact", str(out),
                 "--out", str(tmp_path / "c")]) == 2             # a shard: not finished
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is not finished: 686 of 688 chunks" in err


def test_a_card_searched_on_the_run_is_priced_as_its_search_counted(every):
    """generate(run=...) sums every class's cost exactly: after each step, the share of the
    gap its card closes is what price() gives that card from the same run, fraction for
    fraction; the nested tiers are the search's earlier cards."""
    _, out = every
    g = generate("standard", max_rules=6, run=out, partial=True, workers=2)
    assert g.exact and 0 < g.hands < 154_143_080 and g.run == str(out)
    curve = g.curve()
    assert [k for k, _ in curve] == sorted({len(s.rules) for s in g.steps})
    assert curve[0][0] == 0 and curve[0][1] == 0              # no rule: the house way
    assert all(b[1] >= a[1] for a, b in itertools.pairwise(curve))
    for k, closed in curve[1:]:
        card = g.tier(k)
        assert len(card.rules) == k
        assert price(card, "standard", run=out, partial=True).gap_closed == closed, k
    assert g.tier(6) == g.card and g.tier(curve[1][0]).name == f"card-standard-{curve[1][0]}"
    with pytest.raises(RunError, match=r"every-split run against house way standard .* not "
                                       r"classic"):
        generate("classic", run=out, partial=True)


def test_the_run_search_agrees_with_the_sample_search_on_the_same_hands(every):
    """The run's groups (hands with the same facts summed into one row) cost each candidate
    placement what the sample path's groups cost it over the same classes, weighted."""
    from asiapoker.card_search import _shapes, run_shapes
    from asiapoker.rack import hand_facts
    _, out = every
    counts = load_split_counts(out, partial=True)
    grouped = {(sd.name, sd.base): sd for sd in run_shapes(counts, workers=1)}
    hands, weights = player_classes()
    lo, hi, data = next(counts.chunks())
    lo2, hi2, data2 = list(counts.chunks())[1]
    idx = np.r_[lo:hi, lo2:hi2]
    c = np.concatenate([data["counts"], data2["counts"]]).astype(np.int64)
    fb = np.concatenate([data["house_way"], data2["house_way"]]).astype(np.int64)
    f = hand_facts(hands[idx])
    w = weights[idx]
    for sd in _shapes(f, c, 10, None, 1.0, fb):
        run_sd = grouped[(sd.name, sd.base)]
        assert run_sd.fallback.sum() == (sd.fallback * w[sd.rows]).sum()
        for p in set(sd.placements) & set(run_sd.placements):
            a = sd.cost[sd.placements.index(p)]
            b = run_sd.cost[run_sd.placements.index(p)]
            ok = np.isfinite(a)
            assert np.isfinite(b).sum() <= ok.sum()
            assert b[np.isfinite(b)].sum() == (a[ok] * w[sd.rows][ok]).sum(), (sd.name, p)


def test_dealer_side_counts_are_count_splits_of_the_dealer(tmp_path):
    """A shard of dealer-side counts: each stored count is ``count_splits(side="dealer")`` (the
    per-row solver, not the grouped kernel), each chunk keeps the players' own setting, and
    the run is refused where a player-side one is needed."""
    out = tmp_path / "dealer"
    counts = dealer_split_counts("equilibrium", shard=SHARD, out=out, workers=2,
                                 progress=False)
    assert counts.side == "dealer" and len(counts.missing) == len(counts.edges) - 3
    assert "as the dealer's hand" in counts.describe()
    way = ap.HouseWay.named("equilibrium")
    hands = player_classes()[0]
    rng = np.random.default_rng(5)
    for lo, hi, data in counts.chunks():
        rows = np.r_[lo:lo + 40, rng.integers(lo, hi, 60), hi - 1]
        want = np.where(ap.legal_splits(hands[rows]),
                        ap.count_splits(hands[rows], way, side="dealer"), -1)
        np.testing.assert_array_equal(counts[rows], want)
        np.testing.assert_array_equal(data["house_way"][rows - lo], way.splits(hands[rows]))
    with pytest.raises(RunError, match="counts the dealer's hands"):
        evaluate("equilibrium", out, partial=True)
    with pytest.raises(RunError, match="counts the dealer's hands, not the player's"):
        generate("equilibrium", run=out, partial=True)
    again = dealer_split_counts("equilibrium", shard=SHARD, out=out, progress=False)
    assert again.digest() == counts.digest()                    # resumed: nothing to do
    with pytest.raises(RunError, match="holds a run with way='equilibrium'"):
        dealer_split_counts("classic", shard=SHARD, out=out, progress=False)
