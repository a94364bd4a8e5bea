"""The game API against oracles that share no code with it.

Views: the reference interpreter (compiler/reference/pip.py) is replayed with
the answers the Game was given, and at each decision its own table says
what each seat may see (docs/api.md, "What a seat may see": its hand, the
sizes of the others', every card of a faceup area or the top card of a
squared-up one, the size of a facedown one; every stash's size and every
score; the messages to everyone or to it; whose turn it is and, for its
own decision, the options; how the game ended).
view(seat), made by pipvm/game/view.py from the VM's state, must show
exactly that; and the
cards determinization treats as seen (determinize.real_trace) must be the
ones the seat held or saw face up at a decision, or was told of.

Determinization as bots use it: several decisions, every seat, several
samples each, in one game; and its distribution on a small game.
"""
import random

from hypothesis import event, example, given, strategies as st

from compiler.pip import frontend
from compiler.reference import pip as reference
from compiler.ir import types as T
from pipvm.core.errors import InputEnded, PipError, StepLimit
from pipvm.core.rng import OCamlRandom
from pipvm.core.runtime import Area, Card
from pipvm.engine.vm import Dealer
from pipvm.game import determinize, view
from pipvm.game.determinize import NoSample
from pipvm.game.game import Game
from pipvm.game.kinds import NAME
from pipvm.play.table import Seat, SilentConsole, Table

from . import belief_contract, harness, view_oracle
from .budget import fuzz
from .programs import Case, cases
from .test_fuzz import REPLAY
from .test_game_object import decisions_in, feed, start
from ..privacy import CARD_NAMES        # by deck index

# The replays a determinization's repairs may spend here (the bots' belief: 400):
# a generated game where no repair succeeds would spend the whole budget at
# every seat and stop (minutes at some seeds), and a twentieth reaches the same code.
REPAIRS = 20
MORE = 40           # property 11's random answers after a case's
DECK = {name: i for i, name in enumerate(CARD_NAMES)}     # a card's deck index, by name


class HistorySeat(Seat):
    """Answers the reference's questions as the Game's were answered (its
    history), noting the reference's table before each."""

    def __init__(self, history, note):
        self.history, self.note = list(history), note

    def name(self, prompt, waiting_for):
        self.note()
        if not self.history:
            raise InputEnded(waiting_for)
        return self.history.pop(0)[1]

    def choose(self, heading, options, waiting_for):
        self.note()
        if not self.history:
            raise InputEnded(waiting_for)
        return self.history.pop(0)[0]


class RecordingTable(Table):
    """The reference's table, keeping what its message statements said to
    whom and which seat each choice was asked of."""

    def __init__(self, seat):
        super().__init__(SilentConsole(), default=lambda number: seat)
        self.messages, self.in_message, self.asked = [], False, None

    def show(self, text):
        if self.in_message:
            self.messages.append((None, str(text), shown(text)))

    def tell(self, player, text):
        if self.in_message:
            self.messages.append((player.seat, '%s: %s' % (player.name, text), shown(text)))

    def choose(self, seat, heading, options, waiting_for, game=None, decision=None):
        self.asked = (seat, list(options), self.kind, self.player)
        try:
            return super().choose(seat, heading, options, waiting_for)
        finally:
            self.asked = None


class Recording(reference.Interpreter):
    set_choice = False

    def choose(self, player, kind, options):
        # docs/api.md: a choice of sets of cards or a pass is kind 'cards',
        # single cards or a pass included, though headed "Choose a card:".
        # Only the play's own choice: the pass's block may ask in its turn.
        self.table.kind = 'cards' if self.set_choice else kind
        self.set_choice = False
        self.table.player = player.name
        return super().choose(player, kind, options)

    def stmt_PlaySet(self, s, frame):
        self.set_choice = True
        try:
            return super().stmt_PlaySet(s, frame)
        finally:
            self.set_choice = False

    def stmt_Message(self, s, frame):
        self.table.in_message = True
        try:
            return super().stmt_Message(s, frame)
        finally:
            self.table.in_message = False

    def string(self, parts, frame=None):
        """The reference's text, noting the cards its parts show: a Card, or
        a String made so (Shown)."""
        out, cards = [], []
        for p in parts:
            v = p if isinstance(p, str) else self.load(p, frame)
            if type(v) is Shown:
                cards += v.cards
            elif type(v) is Card:
                cards.append(DECK[str(v)])
            try:
                out.append(v if isinstance(v, str) else reference.text(v, p.pos))
            except ValueError:  # as the reference's own string(): past the digit limit
                reference.fail(self.at, 'Number too large to show')
        text = Shown(''.join(out))
        text.cards = cards
        return text


class Shown(str):
    """A String the reference made, with the cards (deck indexes) it shows."""
    cards = ()


def shown(text):
    return set(getattr(text, 'cards', ()))


def reference_tables(checked, seed, history):
    """The reference's table at each decision of the game, and at its end if
    it ended: [(hands by seat, areas, stashes and scores, teams, card lists,
    how many messages so far, who is asked what)], cards as (deck index, name)."""
    tables = []
    table = RecordingTable(None)
    interp = Recording(checked, table, OCamlRandom(seed), harness.MAX_STEPS)

    def note():
        index = {id(c): i for i, c in enumerate(interp.deck)}

        def cards(lst):
            return [(index[id(c)], str(c)) for c in lst]
        g = [(v.var.name, interp.globals[v.var.slot]) for v in checked.globals]
        teams = interp.teams or []
        tables.append(({p.seat: (p.name, cards(p.hand)) for p in interp.seated},
                       [(a.name, cards(a.cards), a.is_facedown, a.is_squaredup,
                         [None if c.last_played_by is None else c.last_played_by.seat
                          for c in a.cards])
                        for _, v in g for a in (v if type(v) is list else [v])
                        if type(a) is Area],        # (a list of areas: each of its areas)
                       {p.seat: (len(p.stash), number(p.score), values(checked, p, T.PLAYER))
                        for p in interp.seated},
                       None if interp.teams is None else
                       [(reference.text(t, None), [p.seat for p in t.members], len(t.stash),
                         number(t.score), values(checked, t, T.TEAM)) for t in teams],
                       [(name, len(v)) for name, v in g
                        if type(v) is list and all(type(c) is Card for c in v)],
                       len(table.messages), table.asked, ending, ''.join(checked.name)))
    seat = HistorySeat(history, note)
    table.default = lambda number: seat
    ending = None
    try:
        winner = interp.play()
        if interp.over is not None and interp.over.loser is not None and winner is None:
            ending = ('loser', None, None)      # `loser X.` (docs/api.md: kind 'loser')
        else:
            ending = ('no winner', None, None) if winner is None else ('winner', winner, None)
    except InputEnded:
        return tables, table.messages   # stopped at the decision the Game waits for
    except StepLimit as e:
        ending = ('step limit', None, str(e))
    except PipError as e:
        ending = ('error', None, str(e))
    note()
    return tables, table.messages


def number(v):
    return int(v) if isinstance(v, int) else None


def values(checked, obj, owner):
    """Its values `for each player` (or team) as docs/api.md shows them: a
    Number or Boolean as itself, others as `message` prints them, undefined
    as None, a Card not at all."""
    return {o.name: v if v is None or type(v) in (int, bool) else reference.text(v, None)
            for o in checked.owns if o.owner == owner and o.type != T.CARD
            for v in [obj.own.get(o.index)]}


def visible(table, seat, messages=()):
    """What the spec lets seat see of this table: (the seen part of the
    view, the cards it sees as deck indexes)."""
    hands, areas, stashes, teams, lists, told, asked, ending, game = table
    players = sorted((s, who, len(h), stashes[s], [name for _, name in h] if s == seat else None)
                     for s, (who, h) in hands.items())
    shown, seen = [], {i for i, _ in hands.get(seat, (None, ()))[1]}
    for name, cards, facedown, squaredup, by in areas:
        faceup = [] if facedown else cards[:1] if squaredup else cards
        seen.update(i for i, _ in faceup)
        shown.append((name, facedown, squaredup, len(cards),
                      None if facedown else [n for _, n in faceup],
                      None if facedown else by[:len(faceup)]))
    log = [(to, text) for to, text, _ in messages[:told] if to is None or to == seat]
    decision = asked[1] if asked is not None and asked[0] == seat else None
    turn = None if asked is None else (asked[0], asked[2], asked[3])
    return (game, seat, players, shown, teams, lists, log, decision, turn, ending), seen


def seen_in_view(v):
    """The same parts of a view made by pipvm/game/view.py."""
    players = sorted((p['seat'], p['name'], p['hand_size'],
                      (p['stash_size'], p['score'], p['values']), p.get('hand'))
                     for p in v['players'])
    areas = [(a['name'], a['facedown'], a['squaredup'], a['size'], a.get('cards'), a.get('by'))
             for a in v['areas']]
    teams = None if v['teams'] is None else [
        (t['name'], t['members'], t['stash_size'], t['score'], t['values']) for t in v['teams']]
    lists = [(x['name'], x['size']) for x in v['lists']]
    log = [(e['to'], e['text']) for e in v['log'] if e['kind'] == 'message']
    assert all(('card' in e and 'by' in e) == (e['kind'] == 'played') for e in v['log'])
    d, t, e = v['decision'], v['turn'], v['ending']
    if t is not None and t['kind'] in ('count', 'name'):
        t = None                        # a count or a name, before the game begins
    return (v['game'], v['seat'], players, areas, teams, lists, log,
            None if t is None else d and d['options'],
            None if t is None else (t['seat'], t['kind'], t['player']),
            None if e is None else (e['kind'], e['winner'], e['error']))


def named(game, plays, seat, since=0, messages=False):
    """Deck indexes of the cards shown to seat since event `since`: a card
    played that the view oracle lets it read (plays: view_oracle.note_plays,
    by where the card landed, not by the engine's events); with messages,
    those the Texts of the messages to it show (Event.shows; the audience is
    the one the program gave, event.to).  Determinization counts them as seen."""
    out = {DECK[p.card] for p in plays if p.at >= since and p.read_by(seat)}
    if messages:
        for e in game.events[since:]:
            if e.kind == 'message' and (e.to is None or e.to == seat):
                out.update(DECK[n] for n in e.shows)
    return out


def told(messages, seat):
    """The cards the reference's messages to seat showed (RecordingTable)."""
    return set().union(*(cards for to, _, cards in messages if to is None or to == seat))


def every_view(game):
    """Every seat's view, a spectator's last: with the whole log (since=0,
    the default); without its log, the view a served table asks for
    (log=False)."""
    out = [game.view(s) for s in range(game.seats or 0)] + [game.view(None)]
    for s, v in zip(list(range(game.seats or 0)) + [None], out):
        assert view.view(game, s, since=0) == v, REPLAY
        assert view.view(game, s, log=False) == {k: x for k, x in v.items() if k != 'log'}, REPLAY
    return out


# Found by the fuzz (PIPVM_FUZZ_SEED=102): an `ask` in the block of a pass
# is an ask (kind 'action'); the oracle called it 'cards', the play's kind.
ASK_IN_A_PASS = Case(source='''Game "Fuzz" requires 2 players.
Deck stock = standard.
Area heap labeled "heap" is faceup, squaredup.
Rule same(p, c, d) = c->rank == d->top->rank.
Action main {
  deal 1 from stock to heap.
  play same from players->first to heap or pass {
    ask players->first {
      "a" { message "a". }
      "b" { message "b". }
    }
  }
}
''', seed=0, answers=(0, 0, 0, 0))


@fuzz
@given(cases())
@example(ASK_IN_A_PASS)
def test_views_show_what_the_reference_table_lets_each_seat_see(case):
    checked = frontend.check_text(case.source)
    game = start(case, harness.vm_image(checked))
    plays = view_oracle.note_plays(game)
    views = {}                  # decision number -> every seat's view, a spectator's last
    answers = list(case.answers)
    while True:
        if len(game.history) not in views:
            views[len(game.history)] = every_view(game)
        if not answers or game.decision is None:
            break
        feed(game, answers[:1])
        del answers[:1]
    views = [views[k] for k in sorted(views)]
    tables, messages = reference_tables(checked, case.seed, game.history)
    assert len(tables) == len(views), REPLAY
    seen = {}
    for table, at in zip(tables, views):
        for s, v in enumerate(at[:-1]):
            want, cards = visible(table, s, messages)
            assert seen_in_view(v) == want, REPLAY
            seen.setdefault(s, set()).update(cards)
        assert seen_in_view(at[-1]) == visible(table, None, messages)[0], REPLAY
    for s, cards in seen.items():
        traced = determinize.real_trace(game, s)[1]
        assert traced == cards | named(game, plays, s) | told(messages, s), \
            ('seen cards counted wrongly', REPLAY)
    event('views compared at %s decisions' % min(len(tables), 5))


class Still(random.Random):
    """A generator whose shuffles leave everything in place, and which picks
    the real game's card where the seat did not see which was played: the
    sample it makes is the real game again, which is always consistent
    (blind: the real answers to asks naming a card the seat did not see,
    determinize.Blind, which picks with choice)."""

    def __init__(self, choices, blind=()):
        super().__init__(0)
        self.choices = list(choices)
        self.blind = list(blind)

    def shuffle(self, x):
        pass

    def randrange(self, n):
        return self.choices.pop(0)

    def choice(self, seq):
        return self.blind.pop(0)


def feed_noting(game, answers, marks, log):
    """feed(), noting at each decision how many events had been shown
    (marks: decision number -> that count) and, in log, how many shuffles
    had been made and each seat's view (decision number -> (shuffles,
    {seat: view}))."""
    def note():
        k = len(game.history)
        marks[k] = len(game.events)
        log[k] = (len(game.machine.shuffles), {s: game.view(s) for s in range(game.seats or 0)})
    answers = list(answers)
    while answers and game.decision is not None:
        note()
        answers = feed(game, answers[:1]) + answers[1:]
    note()
    return answers


def unseen_plays(game, plays, marks, seat):
    """The answers of game's history that played a card the view oracle
    does not let seat read (plays: view_oracle.note_plays)."""
    return {k for k in range(len(game.history)) if any(
        marks[k] <= p.at < marks[k + 1] and not p.read_by(seat) for p in plays)}


class Reverser(Still):
    """At each unseen play, the option after the real game's choice; its
    shuffles reverse the cards they are given, noting them (given: a list of
    deck indexes a shuffle)."""

    def __init__(self, choices):
        super().__init__(choices)
        self.given = []

    def shuffle(self, x):
        self.given.append([DECK[c.name] for c in x])
        x.reverse()

    def randrange(self, n):
        return (super().randrange(n) + 1) % n   # the next card: not the real game's

    def choice(self, seq):
        return seq[0]           # the first option alike (mirrored picks it too)


def cards_in(v):
    """The cards (deck indexes) a view shows: the seat's hand, the faceup cards."""
    return {DECK[n] for part in (v['players'], v['areas'])
            for x in part for n in x.get('hand', x.get('cards')) or ()}


def pinned_since(game, plays, seat, marks, log, clocks):
    """For each shuffle of the real game, the cards seat has seen since it:
    in its view at a decision after the step that made it, or shown by an
    event after it (clocks: the events before each shuffle, as the real
    game's own dealer noted them: harness.NotingDealer)."""
    now = len(game.history)
    out = []
    for j, c in enumerate(clocks):
        k = min(d for d in range(now + 1) if log[d][0] > j)     # the first decision after it
        seen = named(game, plays, seat, c, messages=True)
        for d in range(k, now + 1):
            seen |= cards_in(log[d][1][seat]) if seat in log[d][1] else set()
        out.append(seen)
    return out


class Mirror(Dealer):
    """What determinize's dealer must do with a Reverser, written apart: each
    shuffle of the real game again (from the generator state it started
    from), and then the cards the Reverser was given reversed in their
    places.  Checks that those are the shuffle's cards, in its order, but
    the ones seen since it (pinned: pinned_since); after the real game's
    shuffles, every card.  wrong: what was not (an exception here would
    be the game's error)."""

    def __init__(self, states, given, pinned):
        self.states, self.given, self.pinned = states, given, pinned
        self.wrong, self.beyond = [], False

    def shuffle(self, machine, items):
        j = len(machine.shuffles)
        if j < len(self.states):
            machine.rng = OCamlRandom.at(*self.states[j])
        super().shuffle(machine, items)
        if j >= len(self.given):
            self.beyond = True          # the sample did not get here: it was refused before
            return
        index = {id(c): i for i, c in enumerate(machine.deck)}
        order = [index.get(id(c)) for c in items]          # (None: a player)
        hidden = set(self.given[j])
        kept = set(order) - hidden - {None}
        if self.given[j] != [i for i in order if i in hidden]:
            self.wrong.append('shuffle %d: not its cards in its order' % j)
        if j < len(self.pinned) and kept != set(order) & self.pinned[j]:
            self.wrong.append('shuffle %d: pins %s, seen since %s'
                              % (j, sorted(kept), sorted(self.pinned[j])))
        if j >= len(self.pinned) and kept:
            self.wrong.append('shuffle %d, not in the real game: kept %s' % (j, sorted(kept)))
        places = [p for p, i in enumerate(order) if i in hidden]
        cards = [items[p] for p in places]
        for p, c in zip(places, reversed(cards)):
            items[p] = c


def mirrored(game, seat, plays, dealer, log, blind):
    """The real game replayed through dealer (a Mirror), each answer given
    again by its label (the option after the real choice where the seat did
    not see the card played, as the Reverser picks; at an ask naming a card
    it did not see, the first option alike: determinize.Blind); whether the
    seat's view matches the real one at every decision."""
    g = game.replayed(OCamlRandom(0), dealer)
    for k, (choice, label) in enumerate(game.history):
        d, want = g.decision, log[k][1].get(seat)      # (no view before the count)
        if d is None or want is not None and g.view(seat) != want:
            return g, False
        if d.kind is NAME:
            g.answer(label)
        elif k in plays:
            g.answer((choice + 1) % len(d.options))
        elif k in blind.at:
            i = blind.answer(g, k, Reverser(()))
            if i is None:
                return g, False
            g.answer(i)
        elif choice < len(d.options) and d.options[choice] == label:
            g.answer(choice)
        elif label in d.options:
            g.answer(d.options.index(label))
        else:
            return g, False
    return g, g.view(seat) == log[len(game.history)][1][seat]


def check_reversed_world(game, played, seat, plays, marks, log, clocks):
    """determinize with one try and a Reverser against the Mirror's replay:
    refused exactly when the Mirror's world shows the seat something else,
    and else that world."""
    reverser = Reverser(game.history[k][0] for k in sorted(plays))
    try:
        sample = determinize.determinize(game, seat, reverser, tries=1)
    except NoSample:
        sample = None
    dealer = Mirror(game.machine.shuffles, reverser.given,
                    pinned_since(game, played, seat, marks, log, clocks))
    world, matched = mirrored(game, seat, plays, dealer, log, determinize.real_trace(game, seat)[4])
    assert not dealer.wrong, (dealer.wrong, REPLAY)
    if sample is None:
        assert not matched, ('a consistent world refused', REPLAY)
        event('reversed: refused')
        return
    assert matched and not dealer.beyond, ('an inconsistent world accepted', REPLAY)
    assert len(reverser.given) == len(world.machine.shuffles), REPLAY
    assert harness.snapshot(sample.machine) == harness.snapshot(world.machine), REPLAY
    event('reversed: accepted')


@fuzz
@given(cases(), st.integers(min_value=0), st.integers(min_value=0, max_value=2 ** 32))
def test_determinization_as_bots_use_it(case, where, seed):
    """At two decisions of one game, for every seat: the real deal again is
    accepted at the first try and shows the seat what it sees; random samples keep
    what the seat observed; the real game is left as it was."""
    image = harness.vm_image(frontend.check_text(case.source))
    n = decisions_in(case, image)
    game = Game(image,
                rng=OCamlRandom(case.seed), max_steps=harness.MAX_STEPS,
                dealer=harness.NotingDealer())
    played = view_oracle.note_plays(game)
    answers = list(case.answers)
    rng = random.Random(seed)
    stops = sorted({where % (n + 1), n})
    done, marks, log = 0, {}, {}
    for stop in stops:
        answers = feed_noting(game, answers[:stop - done], marks, log) + answers[stop - done:]
        done = stop
        if game.seats is None:
            continue
        before = harness.snapshot(game.machine), [game.view(s) for s in range(game.seats)]
        for s in range(game.seats):
            trace = determinize.real_trace(game, s)
            plays, blind = trace[2], trace[4]     # the cards s did not see played, and asked
            assert plays == unseen_plays(game, played, marks, s), ('unseen plays', REPLAY)
            # (no belief to fall back on: Still's world, the real one, is
            # accepted at the first of the default tries, as at every other)
            again = determinize.determinize(game, s, Still((game.history[k][0] for k in sorted(plays)),
                                                           (game.history[k][0] for k in sorted(blind.at))))
            # (its future is dealt anew: the cards still hidden may move)
            assert again.view(s) == before[1][s] and again.decision == game.decision, REPLAY
            assert again.rng.state != game.rng.state, ('the real future', REPLAY)
            again.rng.copy().shuffle(list(range(52)))       # its future can deal a whole deck
            check_reversed_world(game, played, s, plays, marks, log, game.machine.dealer.clocks)
            try:        # one fresh deal and no belief to fall back on: often none fits
                determinize.determinize(game, s, random.Random(seed), tries=1)
            except NoSample as e:   # (its own generator: the samples below draw as before)
                assert str(e) == ('Error: no deal consistent with what seat %d observed in 1 '
                                  'tries' % (s + 1)), REPLAY
                event('one try: no sample')
            for _ in range(2):
                try:    # (a belief's repairs, on a budget: a failing walk costs its whole budget)
                    sample = game.determinize(s, rng, tries=5, repairs=REPAIRS)
                except NoSample:
                    event('no sample')
                    continue
                assert sample.view(s) == before[1][s], REPLAY
                # (an ask s did not see answered, naming a hidden card, is replayed
                # at random among the options s cannot tell apart: blind)
                seen = [k for k in range(len(game.history)) if k not in plays and k not in blind.at]
                assert [sample.history[k][1] for k in seen] == [game.history[k][1] for k in seen], \
                    REPLAY
        assert (harness.snapshot(game.machine), [game.view(s) for s in range(game.seats)]) \
            == before, REPLAY


@fuzz
@given(cases(), st.integers(min_value=0), st.integers(min_value=0, max_value=2 ** 32))
def test_a_seats_belief_carried_through_a_game(case, which, seed):
    """Every seat's belief (pipvm/game/belief/) as a thinking bot carries
    it, from decision to decision of one game: at each of a seat's decisions
    with a choice, every world its belief gives shows the seat exactly what
    the real game shows it, with the same decision to make, and every
    particle is the game its deal makes (belief_contract).  (Property 11:
    the beliefs' forward steps, particles dying and their repairs in
    generated games; a world that lies fails here, one not found is
    counted.)"""
    for found in believed_through(case, which, seed):
        event('worlds: %d' % found)


def believed_through(case, which, seed):
    """Property 11's game (tests/test_beliefs.py replays its finds): a
    belief for every seat, each carried through the game, checked at each
    of its seat's decisions with a choice; how many worlds each gave there.
    Seat `which` (mod the seats) believes as a thinking bot (3 particles,
    3 worlds asked) drawing from random.Random(seed); seat which + k from
    random.Random(seed + k), keeping 5 particles of which 3 are asked for
    (the 2 others still checked: they are the next repairs' starts)."""
    from pipvm.game.belief import Belief
    image = harness.vm_image(frontend.check_text(case.source))
    game = start(case, image)
    answers, beliefs, found = list(case.answers), None, []
    # then random answers, MORE at most: a case's answers seldom give a seat
    # more than one decision, and a belief is carried from its second on
    more, left = random.Random('more %d' % seed), len(answers) + MORE
    while left and game.decision is not None:
        left -= 1
        d = game.decision
        if beliefs is None and game.seats is not None:
            n = game.seats
            beliefs = {(which + k) % n: Belief((which + k) % n, 5 if k else 3, random.Random(seed + k),
                                               repairs=REPAIRS, fresh=5) for k in range(n)}
        belief = beliefs and beliefs.get(d.seat)
        if belief and len(d.options) > 1:
            want = game.view(belief.seat)
            worlds = belief.worlds(game, 3, quiet=False)
            belief_contract.check(belief, worlds, 3)
            found.append(len(worlds))
            for w in worlds:
                assert w.view(belief.seat) == want, REPLAY
                assert w.decision == d, REPLAY
        if answers:
            answers = feed(game, answers[:1]) + answers[1:]
        elif d.kind is NAME:
            game.answer('P%d' % more.randrange(9))
        else:
            game.answer(more.randrange(len(d.options)))
    return found
