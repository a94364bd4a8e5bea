"""A playout cut at the game's next shuffle, and its reward read from the
standing there (a truncated rollout with an evaluation, as CardStock's and
OpenSpiel's evaluators do): in a game of many deals, the cards of a later
deal are random anyway, and three quarters of a full playout's answers
come after the next shuffle (benchmarks/playout_shuffles.py).

The standing is what every Pip game has: each side's score (a team's: its
own score and its members'; without teams, each player's).  Which way a
score counts (high wins, as in Euchre; low, as in Hearts) and how far
apart the sides usually end are read once per program and player count
from SAMPLES random games played to the end from fixed seeds, so they
depend on the game alone, never on the bot's generator or on what this
process played before.  A side's reward at a cut is

    1/k + sense * (its value - the mean value) / spread

clipped to 0..1 (k sides; sense +1 or -1; spread the mean of the sample
games' last max - min): a side ahead by a usual final margin counts as
having won.  A team's reward is each member's, as for a won game.

A playout is cut only at a shuffle where the sides' values differ;
otherwise it deals on.  A game whose sample games never end with the
winner's score apart (scores unused, or all equal) is played out in full.

A game that never shuffles again (one deal: Go Fish, President; no sample
game shuffles more than once) has no such cut: it is played out in full,
or for a `:deep` bot cut by depth instead: after DEPTH answers per seat,
and each side's reward is then its
chance of winning under an Evaluation of what every Pip game has (each
side's score, cards in hand, and whether it is still in the turn order),
a conditional logit fitted on every position of the same sample games
(evaluation.py).
"""
import random

from pipvm.engine.vm import DEALER
from pipvm.game.evaluation import fit, features

SAMPLES = 16           # random games that read a program's sense and spread
DEPTH = 4              # a one-deal game's playout: answers per seat before the cut
_KNOWN = {}            # (id(image), seats) -> [image, Sense or None, positions or Evaluation or None]


class Shuffled(BaseException):
    """The playout reached a shuffle with the standing told apart; args[0]:
    the sides there.  (Not an Exception: nothing the machine catches may
    swallow it.)"""


def sides(machine):
    """(value, seats) of each side: a team's score with its members', or
    each player's score."""
    if machine.teams:
        return [(t.score + sum(p.score for p in t.members), [p.seat for p in t.members])
                for t in machine.teams]
    return [(p.score, [p.seat]) for p in machine.seated]


class Sense:
    """Which way a program's scores count and their usual final spread."""

    def __init__(self, sense, spread):
        self.sense, self.spread = sense, spread

    def rewards(self, values, seats):
        """Each seat's reward for the sides' values (sides)."""
        mean = sum(v for v, _ in values) / len(values)
        out = [0.0] * seats
        for v, members in values:
            r = min(1.0, max(0.0, 1 / len(values) + self.sense * (v - mean) / self.spread))
            for s in members:
                out[s] = r
        return out


def known(game, playout):
    """[image, Sense or None, a one-deal game's sample positions (a list) or
    their Evaluation, or None] of the game's program for its player count,
    read once from its sample games; playout(g, rng) finishes a sample game
    at random.  Only a one-deal game (no sample game shuffles more than
    once) keeps its positions; evaluation_of fits them."""
    key = id(game.image), game.seats
    k = _KNOWN.get(key)
    if k is None:
        k = _KNOWN[key] = [game.image, *_read(game, playout)]
    return k


def sense_of(game, playout):
    """The game's program's Sense for its player count, or None when its
    scores do not tell the winner (play out in full)."""
    return known(game, playout)[1]


def evaluation_of(game, playout):
    """The Evaluation of a one-deal game's positions, or None; fitted at
    the first call (only a `:deep` bot reads it: a Go Fish fit is 0.1 s)."""
    k = known(game, playout)
    if type(k[2]) is list:
        k[2] = fit(k[2]) if k[2] else None
    return k[2]


class _Recorder(random.Random):
    """random.Random(k) whose playout draws are the plain ones, noting each
    side's features before every answer (Game.play_out draws each answer
    with _randbelow)."""

    def _randbelow(self, n):
        self.positions.append(features(self.machine))
        return super()._randbelow(n)


def _read(game, playout):
    from pipvm.game.game import Game
    seats = game.seats
    names = [game.names.get(s, 'P%d' % s) for s in range(seats)]
    up = down = 0
    spreads, samples = [], []
    one_deal = True
    for k in range(1, SAMPLES + 1):
        g = Game(game.image, seed=k, players=seats, names=names, quiet=True)
        rng = _Recorder(k)
        rng.machine, rng.positions = g.machine, []
        g = playout(g, rng)
        one_deal = one_deal and len(g.machine.shuffles) <= 1
        if g.ending is None or g.ending.kind != 'winner':
            continue
        returns = g.returns()
        won = [i for i, (_, members) in enumerate(features(g.machine))
               if returns[members[0]] == 1.0]
        if len(won) == 1:
            samples.extend((sides, won[0]) for sides in rng.positions)
        values = sides(g.machine)
        won = [v for v, members in values if returns[members[0]] == 1.0]
        lost = [v for v, members in values if returns[members[0]] != 1.0]
        if not won or not lost:
            continue
        up += max(won) > max(lost)
        down += min(won) < min(lost)
        spreads.append(max(v for v, _ in values) - min(v for v, _ in values))
    sense = None
    if up != down and any(spreads):
        sense = Sense(1 if up > down else -1, sum(spreads) / len(spreads))
    return sense, samples if one_deal else None


class _Cutter:
    """A vm.Dealer that ends the playout at a shuffle where the sides'
    values differ, and deals on through the plain dealer otherwise."""

    def shuffle(self, machine, items):
        values = sides(machine)
        if len({v for v, _ in values}) > 1:
            raise Shuffled(values)
        DEALER.shuffle(machine, items)


CUTTER = _Cutter()


class Deep(BaseException):
    """A one-deal game's playout answered its DEPTH answers per seat.  (Not
    an Exception, as Shuffled.)"""


class _Depth:
    """Game.play_out's rng for a playout cut by depth: the bot's own draws
    (rng._randbelow, as play_out takes them from a random.Random), one an
    answer, until `left` answers are given; then Deep, before the next."""
    __slots__ = ('below', 'left')

    def __init__(self, rng, left):
        self.below, self.left = rng._randbelow, left

    def randrange(self, n):
        if not self.left:
            raise Deep
        self.left -= 1
        return self.below(n)


def cut_playout(g, rng, playout, deep=False):
    """Each seat's reward for a playout of g (played by playout(g, rng))
    that stops at the next shuffle where the standing tells the sides apart
    or, with deep in a one-deal game, after DEPTH answers per seat (the
    Evaluation's chances there); the ended game's returns if it ends first,
    or if the game's scores do not tell its winner (known).  The depth cut
    is asked for apart (`:deep`): it measured weaker than full playouts in
    President (docs/metrics.md)."""
    sense = sense_of(g, playout)
    evaluation = evaluation_of(g, playout) if deep else None
    if evaluation is not None:
        try:
            playout(g, _Depth(rng, DEPTH * g.seats))
        except Deep:
            return evaluation.rewards(g.machine, g.seats)
        return g.returns()
    if sense is None:
        return playout(g, rng).returns()
    g.machine.dealer = CUTTER
    try:
        playout(g, rng)
    except Shuffled as cut:
        return sense.rewards(cut.args[0], g.seats)
    return g.returns()
