"""The shuffle's random numbers: OCaml 4.13's `Random`, bit for bit.

The reference interpreter seeds OCaml's generator with `Random.init N`
(`PIP_SEED=N`); using the same generator means `pipvm run --seed N` deals
exactly the cards the reference deals with that seed, so whole games can be
compared with it.  The algorithm is a lagged-Fibonacci generator over 55
30-bit words, seeded through MD5 (OCaml's stdlib/random.ml).
"""
import operator
import struct

try:            # (hashlib's import loads OpenSSL: 3 ms of a start-up for one MD5)
    from _md5 import md5 as _md5
except ImportError:                 # a Python built without its own MD5
    from hashlib import md5 as _md5

_MASK30 = 0x3FFFFFFF
# Seeding's last step on 55 words at once, as integers of 55 little-endian
# 32-bit lanes (C-level xor and mask on one big int instead of 55 rounds in
# Python: 4 us less a game, a simulation seeds one per game): the words i,
# the mask in each lane, and the lanes back to the state.
_lanes = struct.Struct('<55I')
_INDEXES = int.from_bytes(_lanes.pack(*range(55)), 'little')
_MASKS = int.from_bytes(_lanes.pack(*[_MASK30] * 55), 'little')
assert struct.calcsize('I') == 4        # (a digest's first word by memoryview.cast)
# bits()'s next index and the lagged word's, (idx + 1) % 55 and (idx + 24) % 55
_NEXT = tuple(range(1, 55)) + (0,)
_LAG = tuple((i + 24) % 55 for i in range(55))


_PLANS = {}             # a list's length -> _plan


def _plan(length):
    """Fisher-Yates' steps for a list of length items, from a state read
    oldest word first: (n, the place n - 1, the bound a draw must be
    below, the word draw k writes, the word 31 draws back it adds), the
    bound the largest multiple of n up to 2**30 (what int's test
    `r - r % n <= 2**30 - n` accepts)."""
    plan = _PLANS.get(length)
    if plan is None:
        plan = _PLANS[length] = [(n, n - 1, (1 << 30) // n * n, k % 55, (k + 24) % 55)
                                 for k, n in enumerate(range(length, 1, -1))]
    return plan


def _batch(length):
    """A shuffle's draws for a list of 2 .. 56 items computed at once, as
    integers of 32-bit lanes (the state read oldest word first, word k in
    lane k): draw k writes word k, from word k + 24 and its own; for k up
    to 30 both are old words, then word k + 24 is draw k - 31's, so two
    steps of lane-wise operations (C-level shifts, masks and adds on a
    few big integers, no carry between lanes: 30-bit words) give them
    all.  Per length: the draws' count, the two steps' lanes and masks,
    their unpackers, each draw's n, the two steps' sizes in bytes, and the test that no draw
    is refused (a draw at or above 2**30 - 55 may be: then each is
    compared with its bound)."""
    plan = _BATCHES.get(length)
    if plan is None:
        d = length - 1
        first, second = min(d, 31), max(0, d - 31)

        def lanes(n, value):
            return int.from_bytes(struct.pack('<%dI' % n, *[value] * n), 'little')
        plan = _BATCHES[length] = (
            d, (1 << 32 * first) - 1, lanes(first, 0x1F), lanes(first, _MASK30),
            struct.Struct('<%dI' % first).unpack, lanes(first, 55),
            (1 << 32 * second) - 1, lanes(second, 0x1F), lanes(second, _MASK30),
            struct.Struct('<%dI' % second).unpack, lanes(second, 55), lanes(55, 1 << 30),
            list(range(length, 1, -1)), 4 * first, 4 * second,
            [(1 << 30) // n * n for n in range(length, 1, -1)])
    return plan


_BATCHES = {}           # a list's length -> _batch
_ge, _mod = operator.ge, operator.mod


class OCamlRandom:
    __slots__ = ('state', 'idx')

    def __init__(self, seed):
        """Random.init seed (= Random.full_init [| seed |])."""
        accu, key, md5 = b'x', str(seed).encode(), _md5
        digests = []
        add = digests.append
        for _ in range(55 + 55):          # 0 .. 54 + max 55 (length of seed)
            accu = md5(accu + key).digest()
            add(accu)
        # word i is i, then xor'ed with the first 4 bytes (little-endian) of
        # digests i and 55 + i, masked to 30 bits (once: masking commutes
        # with xor).  The cast picks each digest's first 4 bytes as they
        # are (tobytes of the strided view), read little-endian by from_bytes.
        firsts = memoryview(b''.join(digests)).cast('I')[::4]
        words = (int.from_bytes(firsts[:55], 'little') ^ int.from_bytes(firsts[55:], 'little')
                 ^ _INDEXES) & _MASKS
        self.state = list(_lanes.unpack(words.to_bytes(220, 'little')))
        self.idx = 0

    def bits(self):
        st = self.state
        self.idx = idx = (self.idx + 1) % 55
        cur = st[idx]
        new = (st[(idx + 24) % 55] + (cur ^ ((cur >> 25) & 0x1F))) & _MASK30
        st[idx] = new
        return new

    def int(self, bound):
        """Random.int bound, for 0 < bound <= 2**30: the draws of bits()
        until one is below the largest multiple of bound, bits() inlined
        (a simulation's random seats draw at every decision), the next
        index and the lagged one, mod 55, from tables (fewer instructions
        than a test and an addition each), the mask a constant."""
        st, idx = self.state, self.idx
        while True:
            idx = _NEXT[idx]
            cur = st[idx]
            r = st[idx] = (st[_LAG[idx]] + (cur ^ ((cur >> 25) & 0x1F))) & 0x3FFFFFFF
            v = r % bound
            if r - v <= 0x40000000 - bound:         # (_MASK30 - bound + 1)
                self.idx = idx
                return v

    def shuffle(self, items):
        """The reference's Fisher-Yates (Utils.shuffle), in place: the same
        draws as int(n) for n = len .. 2.  The state is read rotated, its
        oldest word first, so that draw k writes word k % 55 whatever idx
        is: one plan per length (_plan) gives each step's n, place, bound
        and words, and a refused draw (a word at or above the largest
        multiple of n: about one in 20 million for a deck) hands the rest
        to _shuffle_from.  A shuffle that draws leaves its state in a new
        list: the old one stays as it was (vm.Dealer keeps it, no copy).
        (SHUFFLE is hot: 8.2 against 10.8 us a deck.)"""
        if len(items) < 2:
            return
        idx, st, mask = self.idx, self.state, _MASK30
        words = st[idx + 1:] + st[:idx + 1]
        if len(items) <= 56 and self._batched(items, words):
            return
        for n, top, bound, i, j in _plan(len(items)):
            cur = words[i]
            r = words[i] = (words[j] + (cur ^ ((cur >> 25) & 0x1F))) & mask
            if r >= bound:
                break
            v = r % n
            items[top], items[v] = items[v], items[top]
        else:
            n = 1
        # (a new list, never the old one written: vm.Dealer keeps the old)
        self.state = words[54 - idx:] + words[:54 - idx]    # (word k back at (idx + 1 + k) % 55)
        self.idx = (idx + 1 + i) % 55
        if n > 1:           # (draw i was refused: n draws again)
            self._shuffle_from(items, n)

    def _batched(self, items, words):
        """shuffle's draws at once (_batch), then its swaps; False, with
        nothing changed, if a draw is refused (the plan's loop handles it).
        (A deck 6.7 -> 4.9 us: a step of the plan's loop is about 45
        Python instructions, here 17.)"""
        top = len(items)
        (d, low, fives, masks, unpack, near, low2, fives2, masks2, unpack2, near2, bits, ns,
         size, size2, bounds) = _BATCHES.get(top) or _batch(top)
        w = int.from_bytes(_lanes.pack(*words), 'little')
        old = w & low
        new = (((w >> 768) & low) + (old ^ ((old >> 25) & fives))) & masks
        draws = list(unpack(new.to_bytes(size, 'little')))
        if d > 31:
            old = (w >> 992) & low2
            later = ((new & low2) + (old ^ ((old >> 25) & fives2))) & masks2
            draws += unpack2(later.to_bytes(size2, 'little'))
            near_top = (later + near2) & bits
        else:
            near_top = 0
        if ((new + near) & bits or near_top) and any(map(_ge, draws, bounds)):
            return False
        for v in map(_mod, draws, ns):      # (the place counted down: no zip of places)
            top -= 1
            items[top], items[v] = items[v], items[top]
        words[:d] = draws
        idx = self.idx
        self.state = words[54 - idx:] + words[:54 - idx]     # (a new list: see shuffle)
        self.idx = (idx + d) % 55
        return True

    def _shuffle_from(self, items, n):
        """Fisher-Yates from n down, with int's draws (a refused draw's rare
        path: no plan for it)."""
        for n in range(n, 1, -1):
            v = self.int(n)
            items[n - 1], items[v] = items[v], items[n - 1]

    def copy(self):
        other = OCamlRandom.__new__(OCamlRandom)
        other.state, other.idx = self.state[:], self.idx
        return other

    @classmethod
    def at(cls, state, idx):
        """A generator in a saved state (see vm.Machine.shuffle)."""
        other = cls.__new__(cls)
        other.state, other.idx = list(state), idx
        return other
