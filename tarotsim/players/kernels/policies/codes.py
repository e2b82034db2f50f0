"""Integer codes of the policies, written from the registry (``tarotsim.players.policies``): do not edit.

Regenerate with ``python -m tarotsim.players.policy_files``; ``tests/test_policies.py`` checks this file.
"""

PLAY_RANDOM = 0
PLAY_HEURISTIC = 1
PLAY_GREEDY = 2
PLAY_PIMC = 3
PLAY_BASIC = 4
PLAY_NET = 5

BID_CHAVEY = 0
BID_LEARNED = 1
BID_MONTECARLO = 2

CALL_LONGEST = 0
CALL_SEARCH = 1

ECART_SIMPLE = 0
ECART_EXPERT = 1
ECART_SEARCH = 2

POIGNEE_ALWAYS = 0
POIGNEE_NEVER = 1
POIGNEE_SMART = 2
POIGNEE_SEARCH = 3

CHELEM_NEVER = 0
CHELEM_OVERWHELMING = 1
CHELEM_SEARCH = 2
