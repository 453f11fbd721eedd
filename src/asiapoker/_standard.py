"""The rack card of the built-in house way "standard" (see asiapoker.rack), derived
by::

    python tools/derive_rack.py --against iterate3.npz --hands 30000 \
        --seed 11 --rules 40 --objective agree

See docs/house-ways.md for the rules in words.
"""

from .rack import Card, Rule

STANDARD = Card(
    'standard',
    (
        Rule('no pair', 'made-low', (('made', '==', 1), ('flush', '==', 1))),
        Rule('no pair', 'made-low', (('made', '==', 1), ('single4', '<=', 8))),
        Rule('no pair', 'M H H H H M L', (('made', '==', 1), ('single1', '>=', 13))),
        Rule('no pair', 'best LMH', (('made', '==', 1),)),
        Rule('no pair', 'H M L M H H H', ()),
        Rule('one pair', 'MM H H H H L', (('made', '==', 1), ('group1', '<=', 13))),
        Rule('one pair', 'made-low',
             (('made', '==', 1), ('single1', '<=', 13), ('group1', '>=', 12))),
        Rule('one pair', 'HM M L H H H',
             (('made', '==', 1), ('joker', '==', 0), ('group1', '<=', 8))),
        Rule('one pair', 'MM H H L H H', (('made', '==', 1), ('group1', '<=', 13))),
        Rule('one pair', 'MM H H H L H', (('made', '==', 1), ('single3', '>=', 5))),
        Rule('one pair', 'MM H L H H H', (('made', '==', 1), ('single2', '>=', 6))),
        Rule('one pair', 'HH M L M H H', (('made', '==', 1), ('joker', '==', 1))),
        Rule('one pair', 'made-low',
             (('made', '==', 1), ('single1', '<=', 10), ('single2', '<=', 8))),
        Rule('one pair', 'made-low', (('made', '==', 1), ('group1', '>=', 13))),
        Rule('one pair', 'HM M L H H H',
             (('made', '==', 1), ('group1', '<=', 10), ('single3', '>=', 10))),
        Rule('one pair', 'best LMH', (('made', '==', 1),)),
        Rule('one pair', 'HM L H M H H', (('single2', '<=', 11),)),
        Rule('one pair', 'HH M M L H H', (('single2', '<=', 7),)),
        Rule('one pair', 'HH M M L H H', (('group1', '>=', 13), ('single2', '<=', 8))),
        Rule('one pair', 'HH M L M H H', ()),
        Rule('two pairs', 'MM HL H H H',
             (('made', '==', 1), ('group2', '<=', 8), ('group1', '<=', 12))),
        Rule('two pairs', 'HL MM H H H', (('made', '==', 1),)),
        Rule('three pairs', 'ML HH HH M',
             (('made', '==', 1), ('single1', '<=', 10), ('group1', '>=', 14))),
        Rule('three pairs', 'best LMH', (('group1', '>=', 13), ('group3', '>=', 6))),
        Rule('three pairs', 'ML HH HH M', (('group1', '>=', 14),)),
        Rule('trips', 'made-low', (('made', '==', 1), ('group1', '>=', 14))),
        Rule('trips', 'made', (('made', '==', 1),)),
        Rule('trips', 'HHM L M H H', (('group1', '>=', 3),)),
        Rule('trips', 'best LMH', (('single2', '<=', 10), ('group1', '>=', 10))),
        Rule('trips', 'HHH M M L H', (('single2', '<=', 7),)),
        Rule('trips', 'HHH M L M H', ()),
        Rule('trips and a pair', 'HMM HL H H',
             (('made', '==', 1), ('joker', '==', 0), ('single1', '<=', 10))),
        Rule('trips and a pair', 'best LMH', (('made', '==', 1),)),
        Rule('trips and a pair', 'HHH MM L H', (('group1', '<=', 11),)),
        Rule('trips and a pair', 'HHH MM L H', (('single1', '>=', 12),)),
        Rule('trips and two pairs', 'HHH HL MM', (('made', '==', 1),)),
        Rule('trips and two pairs', 'best LMH', ()),
        Rule('four of a kind', 'best LHM', (('made', '==', 1),)),
        Rule('four of a kind and a pair', 'HHML HM H', (('made', '==', 1),)),
        Rule('four of a kind and a pair', 'HHHH MM L', ()),
    ),
)
