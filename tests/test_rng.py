"""OCamlRandom's seeding and Random.int, written for speed, against OCaml's
stdlib/random.ml written plainly."""
import hashlib
import random

from pipvm.core.rng import OCamlRandom


def plain_init(seed):
    """Random.full_init [| seed |], as random.ml writes it."""
    state = list(range(55))
    accu, key = b'x', str(seed).encode()
    for i in range(55 + 55):
        accu = hashlib.md5(accu + key).digest()
        word = accu[0] | accu[1] << 8 | accu[2] << 16 | accu[3] << 24
        state[i % 55] = (state[i % 55] ^ word) & 0x3FFFFFFF
    return state


def plain_int(rng, bound):
    """Random.int bound: rng.bits() until one is below the largest multiple of bound."""
    while True:
        r = rng.bits()
        v = r % bound
        if r - v <= 0x3FFFFFFF - bound + 1:
            return v


def test_seeding_is_random_ml_s():
    draw = random.Random(7)
    for seed in [0, 1, -5, 2 ** 40, 'random:1,2:3:0'] + [draw.randrange(2 ** 30)
                                                        for _ in range(200)]:
        rng = OCamlRandom(seed)
        assert rng.state == plain_init(seed) and rng.idx == 0


def test_int_draws_as_bits_does():
    draw = random.Random(11)
    for seed in range(60):
        fast, slow = OCamlRandom(seed), OCamlRandom(seed)
        for _ in range(300):
            bound = draw.choice([1, 2, 3, 7, 52, 2 ** 29 + 1, 2 ** 30, draw.randrange(1, 2 ** 30)])
            assert fast.int(bound) == plain_int(slow, bound)
        assert (fast.state, fast.idx) == (slow.state, slow.idx)
