"""Bots that think: determinized flat Monte Carlo (`mc`) and single-observer
information-set MCTS (`ismcts`, Cowling, Powley and Whitehouse 2012).

Both are fair: they see the game only through the deciding seat's eyes.
Each decision they take a pool of at most POOL worlds from the seat's
belief (pipvm/game/belief/: particles consistent with everything the seat
observed, carried from decision to decision; the future shuffles drawn from
the bot's own generator), reused round robin (OpenSpiel's
`max_world_samples`), and think only in forks of those.  If the belief
holds no world, the bot answers at random, and counts it (`stats`).

Playouts finish a quiet fork (no events kept) with uniformly random answers;
a bot built with `cut` ends them at the game's next shuffle where the
standing tells the seats apart, and reads the reward from it; one built
with cut 'deep' also ends them, in a game that never shuffles again, after
standing.DEPTH answers a seat, rewarded by an evaluation of scores and
hands (pipvm/game/standing.py, docs/metrics.md).
An ISMCTS built with reuse keeps its tree between the seat's decisions.
Every random draw comes from the bot's own `random.Random`, which the seat
seeds from the game's generator, so a seed fixes a game with thinking bots.

At each decision with more than one option, a bot notes its estimate of
every seat's chance of winning (`lead`): the lead history of the drama
metrics (pipvm/design/metrics.py).
"""
import math
import time

import attrs

from pipvm.game.belief import Belief
from pipvm.game import standing

POOL = 20              # worlds drawn per decision, at most
PLAYOUT_STEPS = 100_000  # as pipvm sim's default --max-steps
UCB_C = 0.7            # ismcts's exploration constant (docs/metrics.md)
DEFAULTS = {'mc': 50, 'ismcts': 80}   # the budget without N (a bare `ismcts` is cut: seats.BARE)


def playout(g, rng):
    """Finish game g with uniformly random answers.  Random play may never
    end a game; a playout of a game with no step limit stops after
    PLAYOUT_STEPS steps (a game without a winner, for the rewards)."""
    g.limit_steps(PLAYOUT_STEPS)
    return g.play_out(rng)


def rewards(g, rng, cut=False):
    """Each seat's reward for a random playout of g: the ended game's
    returns, or with cut the standing's where the playout stops at a shuffle,
    and with cut 'deep' also where a one-deal game's stops at its depth
    (standing.cut_playout)."""
    if cut:
        return standing.cut_playout(g, rng, playout, cut == 'deep')
    return playout(g, rng).returns()


@attrs.define
class ThinkingStats:
    """What a thinking bot counts, so that no blind decision goes unseen
    (read by pipvm sim's --json and the design report)."""
    decisions: int = 0     # decisions with more than one option it thought about
    no_world: int = 0      # of those, decisions where no consistent world was found
    seconds: float = 0.0   # time spent thinking (time.perf_counter)


class Thinker:
    """What the two bots share: the pool of worlds, the lead history, the stats."""

    def __init__(self, iterations, rng, cut=False, pool=None):
        self.iterations = iterations
        self.rng = rng
        self.cut = cut         # True: playouts end at the next shuffle; 'deep': at a depth too
        self.pool = min(POOL, iterations) if pool is None else pool   # the belief's size
        self.lead = []         # (decision id, each seat's estimated chance of winning)
        self.stats = ThinkingStats()
        self.belief = None

    def choose(self, game, decision):
        """The index of the option to take at decision (of seat decision.seat)."""
        if len(decision.options) == 1:
            return 0
        start = time.perf_counter()
        try:
            return self._choose(game, decision)
        finally:
            self.stats.seconds += time.perf_counter() - start

    def _choose(self, game, decision):
        self.stats.decisions += 1
        pool = self.worlds(game, decision.seat)
        if not pool:
            self.stats.no_world += 1
            return self.rng.randrange(len(decision.options))
        i, estimate = self.think(pool, decision, game.seats)
        self.lead.append((decision.id, tuple(round(x, 4) for x in estimate)))
        return i

    def worlds(self, game, seat):
        """Up to POOL worlds consistent with what seat has observed, from the
        seat's belief, carried from decision to decision (pipvm/game/belief/)."""
        if self.belief is None or self.belief.seat != seat:
            self.belief = Belief(seat, self.pool, self.rng)
        return self.belief.worlds(game, self.pool)


class MonteCarlo(Thinker):
    """For each option, `iterations` playouts in the pooled worlds; the option
    with the best mean reward for the deciding seat (the first, on a tie)."""

    def think(self, pool, decision, seats):
        n, rng = self.iterations, self.rng
        best = None
        for k in range(len(decision.options)):
            total = [0.0] * seats
            for j in range(n):
                g = pool[(k * n + j) % len(pool)].fork(quiet=True)
                g.answer(k)
                for s, r in enumerate(rewards(g, rng, self.cut)):
                    total[s] += r
            if best is None or total[decision.seat] > best[1][decision.seat]:
                best = (k, total)
        return best[0], [t / n for t in best[1]]


class _Node:
    __slots__ = ('children', 'visits', 'avail', 'total')

    def __init__(self, seats):
        self.children = {}     # option label -> _Node
        self.visits = 0
        self.avail = 0         # how often it could have been chosen (ISMCTS's UCB)
        self.total = [0.0] * seats


class ISMCTS(Thinker):
    """`iterations` iterations, each in a world forked from the pool: select
    by UCB1 among the options that world offers (children keyed by the
    option's label), expand one untried option, play out at random, and back
    the reward of every seat up the path; a node's value is the reward of the
    seat that chose its move.  Takes the most visited root option.

    With reuse, the tree is kept from one of the seat's decisions to its
    next, as POMCP keeps its own (Silver and Veness 2010): the new root is
    the node the answers since lead to, by their labels, and its visits
    count in the budget, so that `settled` may stop the search sooner.  It
    is kept only when the seat saw every one of those answers: none played
    a card it did not see or asked for a card it does not see (the
    positions its belief answers freely, Sight.freed), so the node chosen
    reads nothing the worlds do not already hold."""

    def __init__(self, iterations, rng, cut=False, pool=None, reuse=False):
        super().__init__(iterations, rng, cut, pool)
        self.reuse = reuse
        self.kept = None       # (game, history position of the decision, its root)
        self.reused = 0        # root visits carried over, over all decisions
        self.fresh = 0         # iterations the last decision ran
        self.game = None       # the real game, while a decision is thought about

    def _choose(self, game, decision):
        self.game = game
        try:
            return super()._choose(game, decision)
        finally:
            self.game = None

    def subtree(self, game, seat):
        """The kept tree's node for game's decision, if the seat saw every
        answer since the kept root's; else None."""
        kept, self.kept = self.kept, None
        if kept is None or kept[0] is not game:
            return None
        _, at, node = kept
        history = game.history
        belief = self.belief
        if belief is None or belief.seat != seat or belief.real is not game:
            return None
        for h in range(at, len(history)):
            if belief.freed(None, h) is not None:
                return None
            node = node.children.get(history[h][1])
            if node is None:
                return None
        return node

    def think(self, pool, decision, seats):
        rng = self.rng
        labels = decision.options
        game = self.game if self.reuse else None
        root = self.subtree(game, decision.seat) if game is not None else None
        if root is None or not any(label in root.children for label in labels):
            root = _Node(seats)
        self.reused += root.visits
        n = max(1, self.iterations - root.visits)
        if root.visits and settled(root, labels, n):
            n = 0
        self.fresh = 0
        for i in range(n):
            self.fresh += 1
            g = pool[i % len(pool)].fork(quiet=True)
            node, path = root, [root]
            while g.decision is not None:
                d = g.decision
                options = d.options
                children = node.children
                # one pass: the untried options, and each tried one was available
                untried, tried = [], []
                for k, label in enumerate(options):
                    child = children.get(label)
                    if child is None:
                        untried.append(k)
                    else:
                        child.avail += 1
                        tried.append((k, child))
                if untried:
                    k = untried[rng.randrange(len(untried))]
                    child = children[options[k]] = _Node(seats)
                    child.avail = 1
                    g.answer(k)
                    path.append(child)
                    break
                k, child = _best(tried, d.seat)
                g.answer(k)
                node = child
                path.append(child)
            reward = rewards(g, rng, self.cut)
            for node in path:
                node.visits += 1
                t = node.total
                for s in range(seats):
                    t[s] += reward[s]
            if settled(root, labels, n - i - 1):
                break
        if game is not None:
            self.kept = game, len(game.history), root
        visits = _visits(root, labels)
        best = visits.index(max(visits))
        return best, [t / root.visits for t in root.total]


def _visits(root, labels):
    """Each root option's visits (-1 for one never tried)."""
    children = root.children
    return [children[label].visits if label in children else -1 for label in labels]


def settled(root, labels, left):
    """Whether the most visited option (the first, on a tie) is already the
    one `left` more iterations would take: each iteration adds one visit to
    one root option, so none of the others can reach it.  Stopping then
    takes the same option as the whole budget would (from the same
    generator state), only sooner (docs/metrics.md)."""
    visits = _visits(root, labels)
    top = max(visits)
    lead = visits.index(top)
    for k, v in enumerate(visits):
        if k != lead and max(v, 0) + left >= top + (k > lead):
            return False
    return True


def _best(tried, seat):
    """The (option, child) of highest UCB1 (the first, on a tie)."""
    log, sqrt = math.log, math.sqrt
    best, top = None, None
    for kc in tried:
        node = kc[1]
        visits = node.visits
        ucb = node.total[seat] / visits + UCB_C * sqrt(log(node.avail) / visits)
        if best is None or ucb > top:
            best, top = kc, ucb
    return best


THINKERS = {'mc': MonteCarlo, 'ismcts': ISMCTS}


def make(kind, iterations, rng, cut=False):
    """The Thinker of a seat `kind[:iterations][:cut|:deep]` (iterations None: the
    default budget).  A cut bot's belief holds a twentieth of its budget in
    particles (at most POOL): its iterations are cheap, and the belief is
    what a decision then costs most."""
    n = iterations or DEFAULTS[kind]
    return THINKERS[kind](n, rng, cut, max(1, min(POOL, n // 20)) if cut else None)
