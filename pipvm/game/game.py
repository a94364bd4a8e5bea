"""A game as data: it runs until it needs a decision and stops there.

    game = Game(image, seed=7)
    while game.decision:
        d = game.decision                  # who decides what, among which options
        game.answer(0 if d.kind != 'name' else 'Ada')
    game.ending                            # how it ended; game.events: what was shown

Nothing is called from inside the game: whoever drives it (the terminal,
bots, a web server, a simulation) reads `decision` and `events` and calls
`answer`.  `fork()` copies a game; `view(seat)` and `determinize(seat, rng)`
(pipvm/game/view.py, pipvm/game/determinize.py) say what one seat may know.
docs/api.md describes it all.
"""
import functools
import operator
import random

from pipvm.core import plain
from pipvm.core.plain import NamedTuple
from pipvm.core import dialogue, endings
from pipvm.core.errors import GameOver, PipError, StepLimit
from pipvm.core.outcome import rewards
from pipvm.core.rng import OCamlRandom
from pipvm.core.runtime import Player, Team
from pipvm.engine import engines
from pipvm.engine.vm import DEALER, PAUSED, Image, Machine
from pipvm.game.kinds import ACTION, CARD, COUNT, NAME, SETS
_HEADING = {kind: dialogue.choice_question('%s', kind) for kind in (CARD, ACTION, SETS)}


_card_name = operator.attrgetter('name')


@functools.lru_cache(maxsize=256)
def _texts(kind, name):
    """A decision's prompt and what it waits for (the same for each turn of a player)."""
    return _HEADING[kind] % name, "%s's choice" % name


class Decision(NamedTuple):
    """What the game waits for.  (A tuple: games make one per decision.)"""
    id: int                    # how many decisions came before it
    seat: int                  # who decides (from 0); a count is asked of seat 0
    kind: str                  # 'count', 'name', 'card', 'action' or 'cards' (a set)
    prompt: str                # the question as the terminal shows it
    options: tuple             # the labels to choose from (none for a name)
    waiting_for: str           # what it waits for, as `input ended while waiting for ...`
    player: str = None         # the deciding player's name (a card or action)

    def to_json(self):
        return {'id': self.id, 'seat': self.seat, 'kind': self.kind, 'prompt': self.prompt,
                'options': list(self.options), 'player': self.player}


def _below(rng):
    """rng.randrange for an n > 0, as randrange itself draws it: random.Random's
    randrange(n) is _randbelow(n) after checks an option count always passes."""
    if type(rng).randrange is random.Random.randrange:
        return rng._randbelow
    return rng.randrange


def _bits(rng):
    """rng.getrandbits where rng.randrange(n) is random.Random's own draw,
    getrandbits(n.bit_length()) until one is below n (_randbelow's
    algorithm: the machine draws so where it answers, without a call a
    draw), else None (the machine calls _below(rng))."""
    kind = type(rng)
    if (kind.randrange is random.Random.randrange
            and kind._randbelow is random.Random._randbelow_with_getrandbits):
        return rng.getrandbits
    return None


# A Decision made as tuples are, in C (a NamedTuple's own constructor is Python code).
_decision = functools.partial(tuple.__new__, Decision)


@plain.frozen
class Ending:
    kind: str                  # 'winner', 'loser', 'no winner', 'error' or 'step limit'
    winner: str = None         # the winner's name as announced ("A and B": several)
    error: Exception = None    # the PipError or StepLimit (str() is its Error: line)
    # extension (pipvm/core/endings.py): `loser`, `ranking`, several winners
    loser: str = None          # the loser's name(s) as announced
    places: tuple = None       # each seat's place, 0 best; None: `winner X.` places by name

    def to_json(self):
        out = {'kind': self.kind, 'winner': self.winner,
               'error': None if self.error is None else str(self.error)}
        if self.places is not None:
            out.update(loser=self.loser, places=list(self.places))
        return out


class Setup(NamedTuple):
    """What a Game was started with, for a game replayed with other deals."""
    players: int               # None: the first decision asks
    names: list                # the players' names by seat; None: each is asked
    max_steps: int             # None: no limit


class Game:
    """One game of a program (a validated pipc.Program, played on the default
    engine, engines.DEFAULT; or a vm.Image, as it was loaded)."""

    def __init__(self, program, seed=None, rng=None, players=None, names=None,
                 max_steps=None, quiet=False, dealer=DEALER, playing_out=None):
        """seed or rng: the generator that deals (rng is used as it is, so a
        random seat can draw from the same one).  players: how many play (else
        the first decision asks).  names: the players' names by seat (else
        each is asked).  quiet: keep no events (nobody reads them).
        dealer: does the game's shuffles (a vm.Dealer; determinize.py
        replays a game with other deals through its own).  playing_out(game),
        if given, is asked once the seats are known, before the game
        starts: what answers every card, set and action decision as
        play_out(rng) would, from the start (the game runs to its end
        there), or None; its `noted`, if it has one and it is not None, a
        list that receives each of those decisions' number of options and
        deciding seat, in turn."""
        self.image = (program if isinstance(program, Image)
                      else Image(program, compiled=engines.compiled(engines.DEFAULT)))
        self.program = self.image.program
        rng = rng or OCamlRandom(0 if seed is None else seed)
        self.events = None if quiet else []
        self.machine = Machine(self.image, rng, max_steps, self.events, dealer)
        self.setup = Setup(players, names, max_steps)
        self.traces = {}               # determinize.py's cache of this game's observations
        self.history = []              # (choice or name, label) of each decision answered
        self.decision = None
        self.ending = None
        self.names = dict(enumerate(names or ()))
        self.count = None              # players, or teams of team_size
        self.playing_out = playing_out  # (asked once, then None)
        p = self.program
        if self.events is not None:     # (a quiet game's lines are never even made)
            for line in dialogue.banner(p.name):
                self._show(line)
            if p.team_size:
                self._show(dialogue.team_size_line(p.team_size))
        if players is not None:
            self.count = dialogue.fixed_count(players, p.counts, p.team_size or 1)
            self._counted()
        self._next()

    # --- what a driver reads ------------------------------------------------

    @property
    def rng(self):
        """The game's generator: shuffles, and the random seats, draw from it."""
        return self.machine.rng

    @property
    def players(self):
        """Every player, by seat (the game's `players`, its turn order, is
        machine.players: it may rotate, and leave some out)."""
        return self.machine.seated

    @property
    def teams(self):
        return self.machine.teams

    @property
    def seats(self):
        """How many seats the game has, once known."""
        return None if self.count is None else self.count * (self.program.team_size or 1)

    def returns(self):
        """Each seat's reward for the ended game (core.outcome.rewards), as
        OpenSpiel's State.returns: 1 to each winning seat, 0 to the others."""
        return rewards(self)

    def limit_steps(self, steps):
        """Give a game without a step limit one, `steps` steps from here (a
        random playout may never end)."""
        self.machine.limit_steps(steps)

    # --- answering ------------------------------------------------------------

    def answer(self, choice):
        """Answer the decision: an option's index, or a name's text.  The game
        runs on to the next decision or its end."""
        d = self.decision
        if d is None:
            raise ValueError('the game is not waiting for a decision')
        kind = d.kind
        if kind is NAME:
            if type(choice) is not str:
                raise ValueError('a name decision takes a string')
            label = choice
        elif type(choice) is int and 0 <= choice < len(d.options):
            label = d.options[choice]
        else:
            raise ValueError('choice %r is not one of the %d options' % (choice, len(d.options)))
        self.history.append((choice, label))
        self.decision = None
        if kind is CARD or kind is ACTION or kind is SETS:
            return self._go(self.machine.answer, choice)
        if kind is COUNT:
            self.count = self.program.counts[choice]
            self._counted()
        else:
            self.names[d.seat] = choice
        self._next()

    def play_out(self, rng):
        """Finish the game with uniformly random answers: the same game, and
        the same draws from rng (a random.Random), as answering
        rng.randrange(len(options)) at each decision, but the machine
        answers card, set and action decisions itself, with no Decision made
        for each (a bot's playout)."""
        while self.decision is not None and self.decision.kind not in (CARD, ACTION, SETS):
            if self.decision.kind is NAME:      # (there is nothing to choose from)
                raise ValueError('play_out cannot make up %s: answer it first'
                                 % self.decision.waiting_for)
            self.answer(rng.randrange(len(self.decision.options)))
        if self.decision is not None:
            self.decision = None
            self._go(self.machine.play_out, _below(rng), self.history, _bits(rng))
        return self

    def _counted(self):
        if self.events is not None:
            self._show(dialogue.count_line(self.count, self.program.team_size))

    def _next(self):
        """The next set-up question, or the game itself."""
        order = dialogue.name_order(self.count, self.program.team_size) if self.count else []
        if self.count is None:
            self._decide(COUNT, 0, dialogue.count_question(self.program.team_size),
                         tuple(str(n) for n in self.program.counts),
                         dialogue.count_waiting_for(self.program.team_size))
            return
        for seat, who in order:
            if seat not in self.names:
                self._decide(NAME, seat, dialogue.name_question(who), (), 'the name of ' + who)
                return
        self._seat_players(order)

    def _seat_players(self, order):
        players = [None] * len(order)
        for seat, _ in order:
            players[seat] = Player(self.names[seat], seat=seat)
        teams = None
        size = self.program.team_size
        if size:
            teams = []
            for seats in dialogue.team_seats(self.count, size):
                team = Team([players[s] for s in seats])
                for member in team.members:
                    member.team = team
                teams.append(team)
        ask, self.playing_out = self.playing_out, None
        rng = ask and ask(self)
        if rng is None:
            self._go(self.machine.start, players, teams)
        else:           # (play_out's answers, from the first instruction)
            self._go(self.machine.start, players, teams,
                     (_below(rng), self.history, getattr(rng, 'noted', None), _bits(rng)))

    def _go(self, step, *args):
        """Run the machine on; note the decision it stops at, or how it ended."""
        m = self.machine
        try:
            if step(*args) is PAUSED:
                pending = m.pending
                kind, player = pending.kind, pending.player
                try:
                    name, seat = player.name, player.seat
                    options = tuple(map(_card_name, pending.cards) if kind is CARD
                                    else pending.labels)
                except AttributeError as e:
                    # (the verifier checks no kinds: a hand-made file's hand may
                    # hold a Number, its `ask` may ask one)
                    raise m.invalid(e) from None
                texts = _texts(CARD if kind is SETS and pending.one else kind, name)
                self.decision = _decision((len(self.history), seat, kind, texts[0], options,
                                           texts[1], name))
                return
            self._end(Ending('no winner'), dialogue.NO_WINNER)
        except GameOver as g:
            if g.line is None:
                self._end(Ending('winner', g.winner), dialogue.won_by(g.winner))
            else:           # extension: pipvm/core/endings.py
                self._end(Ending('winner' if g.winner is not None else 'loser', g.winner,
                                 loser=g.loser, places=endings.places(g, self.seats)), g.line)
        except StepLimit as e:
            self.ending = Ending('step limit', error=e)
        except PipError as e:
            self.ending = Ending('error', error=e)

    def _decide(self, kind, seat, prompt, options, waiting_for, player=None):
        self.decision = _decision((len(self.history), seat, kind, prompt, options,
                                   waiting_for, player))

    def _end(self, ending, line):
        self.ending = ending
        self._show(line)

    def _show(self, text):
        if self.events is not None:
            self.events.append(dialogue.Event('show', text))

    # --- copies and views -------------------------------------------------------

    def fork(self, quiet=False):
        """An independent copy that, given the same answers, plays exactly as
        this game: the same events, state and random stream.  quiet: the copy
        keeps no events (a bot's playout, which nobody reads, runs faster)."""
        other = Game.__new__(Game)
        other.__dict__.update(self.__dict__)
        other.events = None if quiet or self.events is None else list(self.events)
        other.machine = self.machine.fork(other.events)
        other.history = list(self.history)
        other.names = dict(self.names)
        other.traces = {}
        other.playing_out = None
        return other

    # (view, determinize and the beliefs are imported where they are used: a
    # game at the terminal without thinking bots never needs them, and they
    # were a fifth of the imports of `pipvm run GAME.pipc`)

    def view(self, seat):
        """What seat (from 0; None for a spectator) may see, as plain data."""
        from pipvm.game import view as _view
        return _view.view(self, seat)

    def determinize(self, seat, rng, tries=None, repair=True, repairs=None):
        """A fork that could be the real game as far as seat knows: see
        pipvm/game/determinize.py.  rng: a random.Random.  When no fresh
        deal in tries is consistent, a belief's repairs look for one
        (pipvm/game/belief/, with a budget of `repairs` replays, by default
        belief.REPAIRS, from as many fresh deals as tries again; unless not
        repair); NoSample only if they find none either."""
        from pipvm.game import belief as _belief, determinize as _determinize
        tries = _determinize.TRIES if tries is None else tries
        repairs = _belief.REPAIRS if repairs is None else repairs
        try:
            return _determinize.determinize(self, seat, rng, tries)
        except _determinize.NoSample:
            if not repair:
                raise
            worlds = _belief.Belief(seat, 1, rng, repairs, tries).worlds(self, 1, quiet=False)
            if not worlds:
                raise
            return worlds[0]

    def replayed(self, rng, dealer):
        """A new game of the same program and set-up (players, names, step
        limit), dealt by rng through dealer, waiting for its first answer."""
        s = self.setup
        return Game(self.image, rng=rng, players=s.players, names=s.names,
                    max_steps=s.max_steps, dealer=dealer)
