"""Belief: the worlds a seat believes in, carried from decision to decision
(a particle filter, as POMCP's: docs/metrics.md, "Beliefs").

worlds(game, n) is the face the bots and Game.determinize use: up to n
forks of worlds in which the seat would have observed exactly what it did
at every decision (none while only the nearest miss is kept), each with
its future drawn from the belief's rng.  update is the step at each
decision: the particles played on, the dead ones repaired or replaced by
fresh deals, the living copied and moved apart by Metropolis steps.  The
parts it is made of are the package's other modules."""
from pipvm.game.determinize import _future, nothing_hidden

from .budgets import (CHAIN, FRESH, FRESH_MISSES, FRESH_SOME, GATHER, MOVES, REPAIRED, REPAIRS, STILL,
                      WIDTH)
from .clues import Clues
from .particles import Particle, Particles, distinct
from .repairs import Repairs
from .replay import Replay
from .sight import Sight
from .walk import Walk


class Belief(Sight, Particles, Clues, Walk, Replay, Repairs):
    """The worlds seat (from 0) believes in, for one game."""

    def __init__(self, seat, size, rng, repairs=REPAIRS, fresh=FRESH):
        self.seat, self.size, self.rng = seat, size, rng
        self.repairs = repairs      # the budget of replays for a repair (REPAIRS)
        self.fresh = fresh          # fresh deals tried when no particle is left (FRESH),
                                    # and at most FRESH_SOME of them while some live
        # the real game as the seat saw it (Sight.follow_real sets them anew
        # for each new game)
        self.real = None            # the game followed
        self.states = None          # its shuffles' rng states, as it drew them
        self.shadow = None          # a replay of it, played on to each decision
        self.observe = None         # the seat's observer of the shadow
        self.trace = []             # the seat's observation at each history position
        self.sightings = None       # when the seat saw each card (determinize.Sightings)
        self.pins = []              # the cards seen since each shuffle, at this decision
        self.pins_before = []       # the same at the decision before
        self.shuffled_at = {}       # shuffle number -> history position it happened at
        self.unseen_plays = set()   # history positions that played a card the seat did not see
        self.played_by = {}         # such a position -> the name of the player who played
        self.blind = None           # another seat's asks naming a card it did not see (Blind)
        self.history = []           # the real game's answers, as of this decision
        # the worlds
        self.particles = []
        self.lost = False           # whether particles holds only the nearest miss
        self.checked = 0            # history position the particles are checked to

    def worlds(self, game, n, quiet=True):
        """Up to n forks consistent with what the seat observed in game, each
        with its future drawn from rng (empty if none could be found);
        quiet: forks that keep no events (a playout's)."""
        self.follow_real(game)
        self.update()
        rng = self.rng
        out = []
        for i in range(0 if self.lost else min(n, len(self.particles))):
            out.append(_future(self.particles[i].game.fork(quiet=quiet), rng))
        return out

    def update(self):
        """The step at a decision (docs/metrics.md, "Beliefs", steps 1-5):
        the particles played on to the real game's end; where none lives,
        redealt and fresh deals; the dead that got furthest repaired; with
        no world still, the last resorts in turn from the nearest miss; then
        the living copied up to size and the copies nudged apart.  With no
        world at all, only the nearest miss is kept (lost)."""
        end = len(self.history)
        if nothing_hidden(self.real, self.unseen_plays) and not (self.blind and self.blind.at):
            self.particles = [Particle(self.real.fork(), [], 0)]
            self.checked = end
            return
        alive, dead = [], []
        # The real game's copy taken while nothing was hidden is no particle:
        # it has no deal to replay nor observer (a game dealt without a
        # shuffle hides cards only later): fresh deals take its place.
        self.particles = [p for p in self.particles if p.obs is not None]
        if self.lost:       # the world that got furthest last time, replayed in full
            self.particles = [self.restart(p, 0, p.deal.copy()) for p in self.particles]
        for p in self.particles:
            p.base = None if self.lost else (p.game.fork(), p.obs.shown, len(p.deal.orders))
            (alive if self.check(p, end) == end + 1 else dead).append(p)
        self.lost = False
        # the dead that a card played face up killed, mended (Repairs.forward):
        # the played card moved into the player's hand, before any redeal
        for p in distinct(sorted(dead, key=lambda p: p.score, reverse=True)):
            if len(alive) >= self.size:
                break
            if self.forward(p, end):
                alive.append(p)
        dead = [p for p in dead if all(p is not q for q in alive)]
        fresh = []
        if len(alive) * 2 < self.size:
            # the last shuffle dealt anew in the dead particles that got past
            # it (their games before it match), then fresh deals from the
            # start, as determinize draws them: most fail within a few
            # decisions, so they cost little beside a repair.  While some
            # live (mended), only until half do, and given up if the first
            # few all fail (Go Fish late in a game: a fresh deal replays it
            # all and seldom matches); early in a hand (Oh Hell) they are
            # cheaper than the repairs below, and exact draws
            some = bool(alive)
            want = (self.size + 1) // 2 if some else self.size
            found = 0
            for k in range(min(FRESH_SOME, self.fresh) if some else self.fresh):
                p = self.redealt(dead, k) or self.fresh_particle()
                lives = self.check(p, end) == end + 1
                found += lives
                (alive if lives else fresh).append(p)
                if len(alive) >= want or (some and not found and k + 1 >= FRESH_MISSES):
                    break
        # repair the particles that got furthest, until half are alive (briefly
        # while some are: copies of those will do; the first at length when
        # none is)
        dead.sort(key=lambda p: p.score, reverse=True)
        for k, p in enumerate(distinct(dead)[:REPAIRED]):
            if len(alive) * 2 >= self.size:
                break
            if self.repair(p, end, self.repairs // 10 if alive or k else self.repairs):
                alive.append(p)
        if not alive and fresh:
            # else the fresh deal that got furthest, repaired as well
            p = max(fresh, key=lambda p: p.score)
            if self.directed(p, end, self.repairs // 2) \
                    or self.replayed(p, end, self.repairs // WIDTH // 2):
                alive.append(p)
            dead.append(p)
        if not alive and dead:
            # the last resort, only where no world is found otherwise: a walk
            # half of whose trades are between cards still where the deal put
            # them (as the only walk it lost worlds the plain one finds)
            p = max(dead, key=lambda p: p.score)
            q, r = self.copy_particle(p), self.copy_particle(p)
            q.diff = r.diff = p.diff
            if self.walk(p, end, self.repairs // 2, STILL, chain=CHAIN):
                alive.append(p)
            # and after it, from the same nearest miss, a walk that also
            # gathers a whole rank at once (instead of the last walk, it lost
            # one of the worlds that walk finds: random seats, Go Fish seed
            # 1's 27th decision)
            elif self.walk(q, end, self.repairs, STILL, chain=CHAIN, gathers=GATHER):
                alive.append(q)
            # and last, from the same nearest miss again, the unseen plays made
            # the cards the seat was shown, several at once (Cheat); only here,
            # so that until then the belief draws as before
            elif self.shown(r, end):
                alive.append(r)
            # and then a card the difference names brought into the hand it
            # concerns by a draw in the window where it must come (Go Fish),
            # from the furthest of them
            else:
                s = max((p, q, r), key=lambda x: x.score)
                if self.window(s, end):
                    alive.append(s)
                # and last, every unseen play up to the difference solved for
                # at once (Cheat: a card turned over that the world sent
                # elsewhere long before)
                elif self.relabel_plays(s, end):
                    alive.append(s)
                # and after all, a player who played a card the world
                # forbids it (Spades: it showed out of the suit led) made
                # void of every card the world lets it play there, at once
                elif self.void(s, end):
                    alive.append(s)
                else:
                    dead.extend((q, r))
        if not alive:
            # no world: the one that got furthest is kept, not handed out, and
            # its repair goes on from there at the next decision
            self.particles = [max(dead, key=lambda p: p.score)] if dead else []
            self.lost = True
            return
        # the dead are replaced by copies of the living, which Metropolis
        # steps then move apart (MOVES replays per copy, at most)
        copies = []
        while len(alive) + len(copies) < self.size:
            copies.append(self.copy_particle(alive[self.rng.randrange(len(alive))]))
        for _ in range(MOVES):
            for p in copies:
                self.nudge(p, end)
        self.particles = alive + copies
        self.checked = end
