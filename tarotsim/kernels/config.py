"""Layout of the ``cfg`` array (int64) that carries a run's table size and policies.

The Python layer (``tarotsim.config``) fills it; kernels read it and trust it.
"""

C_PLAYERS = 0  # 3, 4 or 5
C_HAND = 1  # cards per hand (24, 18, 15)
C_CHIEN = 2  # cards in the chien (6, 6, 3)
C_BID_POLICY = 3
C_ECART_POLICY = 4
C_POIGNEE_POLICY = 5
C_CHELEM_POLICY = 6
C_PLAY_ATTACK = 7  # card-play policy of the attack
C_PLAY_DEFENCE = 8  # card-play policy of the defence
C_BID_PRISE = 9  # bidding thresholds on Chavey's count
C_BID_GARDE = 10
C_BID_GARDE_SANS = 11
C_BID_GARDE_CONTRE = 12
C_CHELEM_THRESHOLD = 13  # Chavey count (with distribution) from which a chelem is announced
C_FORCED_TAKER = 14  # sweeps: the seat that takes, -1 for normal bidding
C_FORCED_CONTRACT = 15  # sweeps: the contract it takes (1-4), 0 for normal bidding
C_DEALING = 16  # DEALING_SHUFFLED or DEALING_UNSHUFFLED
N_CFG = 17

DEALING_SHUFFLED = 0
DEALING_UNSHUFFLED = 1
SEQUENCE_DEALS = 1024
"""Unshuffled dealing: the pack is shuffled afresh at every multiple of this many deals (a new table)."""
