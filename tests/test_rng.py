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


def plain_shuffle(rng, items):
    """Utils.shuffle: for n = len .. 2, swap item n - 1 with item Random.int n."""
    for n in range(len(items), 1, -1):
        v = plain_int(rng, n)
        items[n - 1], items[v] = items[v], items[n - 1]


def test_shuffle_draws_as_int_does():
    # lists of many lengths, from states where some words are made to be
    # refused (a word of all ones from a zero one: the draw is tried again)
    draw = random.Random(13)
    refused = 0
    for t in range(400):
        fast = OCamlRandom(draw.randrange(10 ** 6))
        fast.idx = draw.randrange(55)
        if t % 2:
            for _ in range(draw.randrange(1, 4)):
                i = draw.randrange(55)
                fast.state[i], fast.state[(i + 24) % 55] = 0, 0x3FFFFFFF
        slow = OCamlRandom.at(fast.state, fast.idx)
        n = draw.choice([0, 1, 2, 3, 24, 31, 32, 52, 55, 56, 57, 80, draw.randrange(60)])
        a, b = list(range(n)), list(range(n))
        before = slow.idx
        fast.shuffle(a)
        plain_shuffle(slow, b)
        refused += (slow.idx - before) % 55 != max(n - 1, 0) % 55
        assert (a, fast.state, fast.idx) == (b, slow.state, slow.idx)
    assert refused > 10


def test_a_short_list_s_draws_are_made_at_once_and_a_refused_one_leaves_them_to_the_loop():
    # lists of 2 .. 56 items: all draws computed together (rng._batch), the
    # same as Random.int's one by one; where one would be refused, nothing
    # is changed and the plan's loop shuffles instead
    draw = random.Random(7)
    for n in range(2, 57):
        rng = OCamlRandom(draw.randrange(10 ** 6))
        rng.idx = draw.randrange(55)
        slow = OCamlRandom.at(rng.state, rng.idx)
        a, b = list(range(n)), list(range(n))
        assert rng._batched(a)
        plain_shuffle(slow, b)
        assert (a, rng.state, rng.idx) == (b, slow.state, slow.idx), n
    rng = OCamlRandom(5)
    rng.idx = 0
    rng.state[1], rng.state[25] = 0, 0x3FFFFFFF     # (the first draw: all ones)
    state, items = list(rng.state), list(range(52))
    assert not rng._batched(items)
    assert (items, rng.state, rng.idx) == (list(range(52)), state, 0)


def test_a_shuffle_that_draws_leaves_the_old_state_list_as_it_was():
    # vm.Dealer keeps the state before each shuffle without copying it: a
    # shuffle that draws (batched, by the plan's loop, or refused there)
    # puts its state in a new list; one of fewer than two items draws nothing
    from types import SimpleNamespace
    from pipvm.engine.vm import DEALER
    draw = random.Random(17)
    for t in range(300):
        rng = OCamlRandom(draw.randrange(10 ** 6))
        rng.idx = draw.randrange(55)
        if t % 3 == 0:
            i = draw.randrange(55)
            rng.state[i], rng.state[(i + 24) % 55] = 0, 0x3FFFFFFF
        n = draw.choice([0, 1, 2, 13, 52, 57, 80])
        machine = SimpleNamespace(rng=rng, shuffles=[])
        old, before, idx = rng.state, list(rng.state), rng.idx
        DEALER.shuffle(machine, list(range(n)))
        rng.int(7), rng.bits()
        (state, at), = machine.shuffles
        assert (state, at) == (before, idx) and state is not rng.state
        assert (old is state) == (n >= 2)       # (kept, not copied, where it drew)


def test_shuffles_draw_on_from_the_packed_state_and_the_dealer_keeps_it():
    # a shuffle leaves the words packed (no list made), the next shuffle
    # draws from them: the same draws as int's one by one, whatever comes
    # between (int, bits, a copy, `state` read or written); vm.Dealer keeps
    # the packed state before a shuffle, from which OCamlRandom.at deals the same
    from types import SimpleNamespace
    from pipvm.engine.vm import DEALER
    draw = random.Random(19)
    for t in range(60):
        fast = OCamlRandom(draw.randrange(10 ** 6))
        slow = OCamlRandom.at(fast.state, fast.idx)
        machine = SimpleNamespace(rng=fast, shuffles=[])
        for k in range(12):
            n = draw.choice([0, 1, 2, 13, 24, 31, 32, 52, 56, 57])
            a, b = list(range(n)), list(range(n))
            packed = fast.saved()[0]
            DEALER.shuffle(machine, a)
            plain_shuffle(slow, b)
            assert a == b
            if n >= 2 and n <= 56 and (slow.idx - machine.shuffles[-1][1]) % 55 == n - 1:
                assert fast._words is None      # (left packed: not refused, batched)
            state, idx = machine.shuffles[-1]
            # (an int kept as it is; a list where the shuffle drew: it has another)
            assert (state is packed) == (type(packed) is int or n >= 2)
            again = OCamlRandom.at(state, idx)
            c = list(range(n))
            again.shuffle(c)
            assert c == a and again.state == slow.state
            step = draw.randrange(6)
            if step == 0:
                assert fast.int(7) == plain_int(slow, 7)
            elif step == 1:
                assert fast.bits() == slow.bits()
            elif step == 2:
                fast = machine.rng = fast.copy()
            elif step == 3:
                assert (fast.state, fast.idx) == (slow.state, slow.idx)
            elif step == 4:
                fast.state = list(slow.state)
        assert (fast.state, fast.idx) == (slow.state, slow.idx)


def test_the_written_out_swaps_are_the_generator_s_and_shuffle_a_deck_as_the_loop():
    # pipvm/core/swaps.py is rng.swaps_source's text (`python -m
    # pipvm.core.rng` after a change); a shuffle of one of its lengths
    # runs its function, the same swaps as the loop for lengths it has not
    import os
    from pipvm.core import rng as module
    with open(module.OUT, encoding='utf-8') as f:
        assert f.read() == module.swaps_source()
    assert sorted(module.SWAPS) == sorted(module.SWAPPED) and 52 in module.SWAPS
    draw = random.Random(11)
    for n in module.SWAPPED:
        places = [draw.randrange(k + 1) for k in range(n - 1, 0, -1)]
        a, b = list(range(n)), list(range(n))
        module.SWAPS[n](a, iter(places))
        for k, v in zip(range(n - 1, 0, -1), places):
            b[k], b[v] = b[v], b[k]
        assert a == b != list(range(n)), n
    calls = []
    real = dict(module.SWAPS)
    try:
        for n in module.SWAPPED:
            module.SWAPS[n] = lambda items, places, f=real[n]: calls.append(len(items)) or f(
                items, places)
        for n in (13, 24, 52, 53):
            OCamlRandom(n).shuffle(list(range(n)))
    finally:
        module.SWAPS.update(real)
    assert calls == [24, 52] and os.path.exists(module.OUT)
