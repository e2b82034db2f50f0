import random

import numpy as np

from tarotsim.engine.kernels.bits import highest_bit, kth_bit, lowest_bit, popcount, select_bit


def test_bit_helpers_match_python():
    rng = random.Random(11)
    for _ in range(5000):
        value = rng.getrandbits(rng.choice([8, 22, 56, 64])) | 1
        word = np.uint64(value)
        bits = [i for i in range(64) if value >> i & 1]
        assert popcount(word) == len(bits)
        assert lowest_bit(word) == bits[0]
        assert highest_bit(word) == bits[-1]
        k = rng.randrange(len(bits))
        assert kth_bit(word, k) == bits[k]
        assert select_bit(word, k) == bits[k]
    assert lowest_bit(np.uint64(0)) == 64 and highest_bit(np.uint64(0)) == -1
