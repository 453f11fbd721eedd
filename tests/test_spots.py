"""One player on several spots: solve_spots, the table's two-area player, simulate's
two-spot player, the CLI."""

import json
import math

import numpy as np
import pytest

from asiapoker import (
    KnownCardError,
    OptionError,
    Table,
    Wager,
    count_splits,
    simulate,
    solve,
    solve_many,
    solve_spots,
)
from asiapoker.cli import main
from asiapoker.known import dealer_hands

A = "Qc 9h As 5s 7c Qs 2s"
B = "3h 7d 8h Js Td Jk Ah"


def test_spots_are_each_solved_seeing_the_others():
    two = solve_spots([A, B])
    assert two.total == dealer_hands(7, 0)
    assert [str(s.best.setting) for s in two.spots] == [
        str(solve(A, dead=B).best.setting), str(solve(B, dead=A).best.setting)]
    alone = [solve(A).best.index, solve(B).best.index]
    assert [a.index for a in two.alone] == alone
    seeing_a = {r.index: r.wins for r in solve(A, dead=B).settings}
    assert two.alone[0].wins == seeing_a[alone[0]] < two.spots[0].best.wins
    assert two.value == pytest.approx(two.ev - two.ev_alone) and two.value > 0.02
    assert two.describe() == "house way standard; a234=high, pays=1:1; 2 spots seen together"


def test_the_joint_best_separates():
    """Over the same dealer hands, the best pair of settings (all 105 x 105) is the pair of
    each spot's best: the joint count is a sum of the two spots' counts."""
    rng = np.random.default_rng(4)
    deck = rng.permutation(53)
    a, b, dead = deck[:7], deck[7:14], deck[14:40]       # 13 cards left: C(13, 7) hands
    wa = count_splits([a], "classic", dead=[np.r_[b, dead]])[0]
    wb = count_splits([b], "classic", dead=[np.r_[a, dead]])[0]
    joint = wa[:, None] + wb[None, :]
    i, j = np.unravel_index(np.argmax(joint), joint.shape)
    two = solve_spots([a.tolist(), b.tolist()], "classic", dead=dead.tolist())
    assert joint[i, j] == two.spots[0].best.wins + two.spots[1].best.wins
    assert (wa[i], wb[j]) == (two.spots[0].best.wins, two.spots[1].best.wins)
    assert two.total == math.comb(13, 7)


def test_six_spots_and_known_cards():
    rng = np.random.default_rng(9)
    deck = rng.permutation(53).tolist()
    hands = [deck[7 * i:7 * i + 7] for i in range(6)]
    six = solve_spots(hands, dealer=deck[42:43])
    assert six.total == math.comb(10, 6)                   # 53 - 42 - 1 cards, 6 to draw
    assert six.spots[0].dealer == solve(hands[0], dealer=deck[42:43]).dealer
    assert "6 spots seen together; dealer shows" in six.describe()
    data = six.to_dict()
    assert data["total"] == six.total and len(data["spots"]) == 6


@pytest.mark.parametrize(("hands", "words"), [
    ([A], "2 to 6 seven-card hands"),
    (A, "2 to 6 seven-card hands"),
    ([A, "As Kh Qc Qd 5c 5h 3d"], "spot 2: As is also in spot 1"),
    ([A, B, "2c 3c 4c 5c 6c"], "spot 3's seven-card hand needs 7 cards"),
])
def test_bad_spots(hands, words):
    with pytest.raises(ValueError, match=words):
        solve_spots(hands)
    with pytest.raises(KnownCardError, match="dead card Js is in spot 2"):   # from 1, as output
        solve_spots([A, B], dead="Js")


def test_table_two_area_player_sees_both_hands():
    """With "optimal", the player on two areas sets each hand as solve does with the other
    area's cards dead; a player on one area as solve does alone."""
    t = Table(seed=31, strategy="optimal", way="classic")
    res = t.play_round([Wager(2, 5, player="al"), Wager(3, 5, player="al"), Wager(5, 5)])
    cards = {p.seat: " ".join(p.cards) for p in res.positions if p.seat}
    setting = {p.seat: p.setting for p in res.positions if p.seat}
    assert setting[2] == str(solve(cards[2], "classic", dead=cards[3]).best.setting)
    assert setting[3] == str(solve(cards[3], "classic", dead=cards[2]).best.setting)
    assert setting[5] == str(solve(cards[5], "classic").best.setting)


def test_simulate_two_spots():
    """The result says it is a two-spot player's, and the option is checked (which cards
    the seats see: the next test)."""
    two = simulate(100, seats=2, player="optimal", seed=3, workers=1, two_spots=True)
    assert two.two_spots and "two spots" in two.describe()
    assert two.to_dict()["two_spots"] is True and two.hands == 200
    with pytest.raises(OptionError, match="two_spots needs player='optimal'"):
        simulate(10, seats=2, two_spots=True)
    with pytest.raises(OptionError, match="an even number of seats"):
        simulate(10, seats=3, player="optimal", two_spots=True)
    with pytest.raises(OptionError, match="two_spots must be True or False"):
        simulate(10, seats=2, player="optimal", two_spots="yes")


def test_simulated_two_spot_setting_is_the_known_cards_solve(monkeypatch):
    """The rows simulate hands to solve_many carry each seat's partner as dead cards."""
    import asiapoker.simulation as sim
    seen = []

    def spy(rows, *args, dead=None, **kw):
        seen.append((rows.copy(), None if dead is None else np.asarray(dead).copy()))
        return solve_many(rows, *args, dead=dead, **kw)

    monkeypatch.setattr(sim, "solve_many", spy)
    simulate(20, seats=4, player="optimal", seed=1, workers=1, two_spots=True)
    rows, dead = seen[0]
    assert (dead[0::2] == rows[1::2]).all() and (dead[1::2] == rows[0::2]).all()


def test_cli_known_cards_and_spots(capsys):
    assert main(["solve", A, "--dead", B, "--dealer", "Kd", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["total"] == dealer_hands(7, 1) and data["dealer"] == ["Kd"]
    assert main(["solve", A, "--dealer", "Kd"]) == 0
    assert "dealer shows Kd" in capsys.readouterr().out.splitlines()[0]
    assert main(["spots", A, B]) == 0
    out = capsys.readouterr().out
    assert "seeing the other spots is worth +0.023134" in out
    assert main(["spots", A, B, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["value"] == pytest.approx(0.023134, abs=1e-6)
    assert main(["solve", A, "--dead", "Qc"]) == 2
    assert capsys.readouterr().err.strip() == "asiapoker: error: dead card Qc is in the hand"
    assert main(["simulate", "--rounds", "50", "--seats", "2", "--player", "optimal",
                 "--two-spots", "--quiet"]) == 0
    assert "player optimal on two spots" in capsys.readouterr().out
