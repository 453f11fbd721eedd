"""SPEC 1: cards, text forms and bad input."""

import numpy as np
import pytest

from asiapoker import JOKER, Card, CardError, DuplicateCardError, HandSizeError, parse_cards
from asiapoker.cards import to_ids
from tests.reference import card_text


def test_spec_1_1_deck_has_53_cards():
    cards = parse_cards(" ".join(card_text(i) for i in range(53)))
    assert len(set(cards)) == 53
    assert [int(c) for c in cards] == list(range(53))
    assert JOKER == 52 and JOKER.is_joker


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("As", "As"),
        ("10d", "Td"),
        ("td", "Td"),
        ("A♠", "As"),
        ("K♦", "Kd"),
        ("2♣", "2c"),
        ("Q♥", "Qh"),
        ("AS", "As"),
        ("Jk", "Jk"),
        ("JK", "Jk"),
        ("jk", "Jk"),
        ("Joker", "Jk"),
    ],
)
def test_spec_1_2_text_forms(text, canonical):
    (card,) = parse_cards(text)
    assert str(card) == canonical


def test_spec_1_2_separators_and_canonical_output():
    assert [str(c) for c in parse_cards("As, 10h  Jk,2c")] == ["As", "Th", "Jk", "2c"]
    assert repr(Card("Ah")) == "Card('Ah')"


def test_card_id_layout_is_rank_times_four_plus_suit():
    assert [int(Card(t)) for t in ("2c", "2d", "2h", "2s", "3c", "As", "Jk")] == [
        0,
        1,
        2,
        3,
        4,
        51,
        52,
    ]
    assert Card(51).rank == 12 and Card(51).suit == 3 and JOKER.suit is None


@pytest.mark.parametrize(
    ("bad", "error", "named"),
    [
        ("Xs", CardError, "Xs"),
        ("Ax", CardError, "Ax"),
        ("1s", CardError, "1s"),
        ("As As", DuplicateCardError, "As"),
        ("Jk JK", DuplicateCardError, "joker"),
        ("A", CardError, "A"),
        ("11h", CardError, "11h"),
    ],
)
def test_spec_1_3_bad_text_names_the_token(bad, error, named):
    with pytest.raises(error, match=named):
        parse_cards(bad)


@pytest.mark.parametrize("bad", [53, -1, 1000, True, 2.0, None, b"As"])
def test_spec_1_3_bad_ids(bad):
    with pytest.raises(CardError):
        to_ids([bad])


def test_spec_1_3_wrong_count_names_the_cards():
    with pytest.raises(HandSizeError, match="needs 7 cards, got 6: As Ks"):
        to_ids("As Ks Qs Js Ts 9s", 7)


def test_errors_are_value_errors():
    with pytest.raises(ValueError):
        Card("Zz")


def test_numpy_integers_are_cards():
    assert str(Card(np.int64(51))) == "As"
    assert to_ids(np.array([0, 52])) == (0, 52)


def test_a_whole_array_row_is_not_a_card():
    from asiapoker import solve
    with pytest.raises(CardError, match="not a card"):
        solve(np.array([[0, 1, 2, 3, 4, 5, 6]]))
