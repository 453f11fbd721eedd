"""The rack card of the built-in house way "standard" (see asiapoker.rack), derived
by::

    python tools/derive_rack.py --against equilibrium-v1 --hands 60000 \
        --seed 11 --rules 40 --objective mixed --mix 0.5 \
        --min-gain 1e-05 --out src/asiapoker/_standard.py

See docs/house-ways.md for the rules in words.
"""

from .rack import RackCard, Rule

STANDARD = RackCard(
    'standard',
    (
        Rule('no pair', 'best LMH',
             (('made', '==', 1), ('made_low', '<=', 8), ('single3', '>=', 11))),
        Rule('no pair', 'M L H M H H H', (('made', '==', 1), ('straight', '==', 1))),
        Rule('no pair', 'M H H H H L M',
             (('made', '==', 1), ('made_low', '<=', 8), ('joker', '==', 1))),
        Rule('no pair', 'M L H H H M H', (('made', '==', 1), ('straight', '==', 1))),
        Rule('no pair', 'made-low', (('made', '==', 1),)),
        Rule('no pair', 'H M L H M H H', (('single2', '>=', 13), ('single3', '<=', 8))),
        Rule('no pair', 'H M L M H H H', ()),
        Rule('one pair', 'best MLH', (('made', '==', 1), ('made_pair', '==', 1))),
        Rule('one pair', 'made-low',
             (('made', '==', 1), ('single1', '<=', 13), ('made_low', '>=', 9))),
        Rule('one pair', 'HM M L H H H', (('made', '==', 1), ('group1', '<=', 10))),
        Rule('one pair', 'HH M L M H H',
             (('made', '==', 1), ('group1', '<=', 13), ('made_low', '<=', 10))),
        Rule('one pair', 'made-low', (('made', '==', 1), ('flush', '==', 1), ('joker', '==', 0))),
        Rule('one pair', 'HH M L M H H', (('made', '==', 1), ('single2', '>=', 12))),
        Rule('one pair', 'made-low', (('made', '==', 1), ('group1', '<=', 13))),
        Rule('one pair', 'best LMH', (('made', '==', 1),)),
        Rule('one pair', 'HM L H M H H', (('single2', '<=', 11),)),
        Rule('one pair', 'HH M L M H H', ()),
        Rule('two pairs', 'MM HL H H H',
             (('made', '==', 1), ('group2', '<=', 8), ('made_low', '<=', 13))),
        Rule('two pairs', 'HL MM H H H', (('made', '==', 1),)),
        Rule('two pairs', 'HH HH M L M', (('group1', '<=', 5), ('single2', '>=', 13))),
        Rule('two pairs', 'ML HH M H H', (('single1', '<=', 7), ('group2', '>=', 13))),
        Rule('three pairs', 'best LMH',
             (('made', '==', 1), ('single1', '<=', 5), ('group2', '>=', 9))),
        Rule('three pairs', 'ML HH HH M',
             (('made', '==', 1), ('joker', '==', 1), ('group1', '>=', 14))),
        Rule('three pairs', 'best LMH',
             (('made', '==', 0), ('group1', '>=', 13), ('group3', '>=', 6))),
        Rule('three pairs', 'ML HH HH M', (('made', '==', 0), ('group1', '>=', 14))),
        Rule('trips', 'made-low', (('made', '==', 1), ('group1', '>=', 14))),
        Rule('trips', 'HHM L M H H', (('made', '==', 0), ('group1', '>=', 3))),
        Rule('trips', 'best LMH', (('made', '==', 0), ('single2', '<=', 9), ('group1', '>=', 10))),
        Rule('trips', 'best LMH', (('made', '==', 0), ('group1', '>=', 12))),
        Rule('trips', 'HHH M L M H', (('made', '==', 0),)),
        Rule('trips and a pair', 'made',
             (('made', '==', 1), ('single1', '<=', 11), ('joker', '==', 0))),
        Rule('trips and a pair', 'made', (('made', '==', 1), ('group2', '>=', 14))),
        Rule('trips and a pair', 'best LMH', (('made', '==', 1),)),
        Rule('trips and a pair', 'HHH MM L H', (('group1', '<=', 11),)),
        Rule('trips and a pair', 'MML HH H H', (('single1', '<=', 11),)),
        Rule('trips and a pair', 'HHH MM L H', (('single1', '>=', 12),)),
        Rule('trips and two pairs', 'best LMH', (('made', '==', 1),)),
        Rule('trips and two pairs', 'best LMH', ()),
        Rule('four of a kind', 'HMML H H H', (('made', '==', 1),)),
        Rule('four of a kind and a pair', 'HHHH MM L', (('made', '==', 0),)),
    ),
)
