"""Determinization: a game that could be the real one as far as a seat knows.

A thinking bot must not look at cards its seat has not seen, nor at the
real game's future shuffles.  It plays instead in sampled worlds, each
made by replaying the game from its start:

- every shuffle draws exactly what it drew in the real game (the machine
  keeps its generator's state before each one), and then the cards the
  seat has not seen since that shuffle trade places among themselves at
  random (a card seen before a shuffle and not since is hidden again:
  keeping it where the real shuffle put it would show the seat the real
  deal; Sightings);
- every answer given so far is given again, matched by its option's label,
  except a card another seat played where this seat could not see it: the
  sample's player plays any of its cards there, chosen at random (matched by
  label, the card would be known); and likewise another seat's answer to an
  `ask` whose option names a card this seat does not see (a RECYCLE choice of
  a hidden card, docs/recycle.md): the sample answers one of the options
  alike but for the card they name, a card it does not see there either,
  chosen at random (Blind);
- the sample is accepted only if the seat observes exactly what it observed
  in the real game, at every decision: its views (pipvm/game/view.py) and the
  events addressed to it.

So whatever the game derived from hidden cards (`let high be c->rank > 10`,
a score, how many cards were dealt) is recomputed from the new deal, and a
sample whose derived values would show differently is refused.  After the
replay the sample's generator is drawn from the caller's `rng`: the future
is hidden too.  When no sample in `tries` is accepted, NoSample is raised;
a bot then has no consistent world to think in (docs/api.md).
"""
from pipvm.core.errors import PipError
from pipvm.game.kinds import ACTION, NAME
from pipvm.core.rng import OCamlRandom
from pipvm.core.runtime import Card, new_deck
from pipvm.engine.vm import Dealer
from pipvm.game.view import seen_cards, view

TRIES = 100

# a card's index in the deck, by name: the same card in every replay (a
# machine's deck is always new_deck()'s, one card a name)
DECK_INDEX = {c.name: i for i, c in enumerate(new_deck())}


def deck_indexes(machine):
    """Each card object of machine's deck (by id) -> its index there."""
    return {id(c): i for i, c in enumerate(machine.deck)}


class NoSample(PipError):
    """No replay with other deals matched what the seat observed."""

    def __init__(self, seat, tries):
        super().__init__(None, 'no deal consistent with what seat %d observed in %d tries'
                         % (seat + 1 if seat is not None else 0, tries))


def determinize(game, seat, rng, tries=None):
    """A fork of game in which the cards seat has never seen are dealt anew
    (rng: a random.Random); see the module's docstring."""
    tries = TRIES if tries is None else tries
    trace, _, unseen_plays, pins, blind = real_trace(game, seat)
    if nothing_hidden(game, unseen_plays | blind.at):
        return _future(game.fork(), rng)
    for _ in range(tries):
        sample = replay(game, seat, trace, Resampled(game, pins, rng), (unseen_plays, rng, blind))
        if sample is not None:
            return _future(sample, rng)
    raise NoSample(seat, tries)


def nothing_hidden(game, unseen_plays):
    """Whether the real game is the one world the seat can be in: nothing was
    dealt at random and no card was played out of its sight (a fork of it
    would otherwise show the seat a face-down card it never saw)."""
    return not game.machine.shuffles and not unseen_plays


def real_trace(game, seat):
    """(the seat's observations at each decision of the real game, the
    cards it has seen, the answers that played a card it did not see, the
    cards it has seen since each shuffle: Sightings.pinned, the asks it
    answers blind: Blind), replaying the real game once (kept on the game)."""
    key = (seat, len(game.history))
    if key not in game.traces:
        trace = []
        unseen_plays = set()
        shown = 0
        observe = _Observer(seat)
        g = _replay_game(game, None)
        sightings = Sightings(seat, g)
        blind = Blind(seat)

        def note(g):
            nonlocal shown
            if len(trace) < len(game.history):
                blind.note(g, len(trace), game.history[len(trace)])
            sightings.note(g)
            trace.append(observe(g))
            # the answer before this decision played a card the seat may not read
            if any(e.kind == 'played' and e.seen_by(seat).card is None
                   for e in g.events[shown:]):
                unseen_plays.add(len(trace) - 2)
            shown = len(g.events)
        ok = _answer_all(game, g, note, None)
        assert ok, 'a replay of the real game diverged'
        game.traces[key] = (trace, sightings.seen(), frozenset(unseen_plays),
                            sightings.pinned(), blind)
    return game.traces[key]


class Blind:
    """Another seat's answers to an `ask` whose option names a card (its
    binding, never its text) that this seat does not see when it is asked.
    Replayed by its label, a sample would hold that card where the real
    game does: the seat would learn it.  A sample answers instead one of
    the options whose labels are the same but for the card they name, a
    card the seat does not see there either, at random; the observations
    then refuse a sample its consequences show wrong."""

    def __init__(self, seat):
        self.seat = seat
        self.masked = {}            # history position -> the label, its card's name masked
        self.at = frozenset()       # those positions

    def __eq__(self, other):        # (a trace is compared whole: tests/test_game.py)
        return type(other) is Blind and (self.seat, self.masked) == (other.seat, other.masked)

    __hash__ = None

    def note(self, g, h, answer):
        """At the decision g waits at, history position h, answered answer."""
        d = g.decision
        if d is None or d.seat == self.seat or d.kind is not ACTION:
            return
        choice, label = answer
        card = _named(g, choice)
        if card is not None and all(c is not card for c in seen_cards(g.machine, self.seat)):
            self.masked[h] = _masked(label, card)
            self.at = frozenset(self.masked)

    def answer(self, g, h, rng):
        """The option a sample answers at position h, or None if it has none alike."""
        seen = seen_cards(g.machine, self.seat)
        alike = [i for i, label in enumerate(g.decision.options)
                 for card in [_named(g, i)]
                 if card is not None and all(c is not card for c in seen)
                 and _masked(label, card) == self.masked[h]]
        return rng.choice(alike) if alike else None


def _masked(label, card):
    """label with every mention of card's name masked: a seat that does not
    see the card learns nothing of it from a label that names it twice."""
    return label.replace(card.name, '\0')


def _named(g, i):
    """The card option i of the ask g waits at is bound to, or None."""
    binds = getattr(g.machine.pending, 'binds', None)
    bind = binds[i] if binds and i < len(binds) else None
    return bind[1] if bind is not None and type(bind[1]) is Card else None


class Sightings:
    """When a seat saw each card (deck indexes: the same in every replay) and
    when each shuffle was made, on one clock: (2h, 0) for what the seat sees
    at the decision at history position h, (2h + 1, k) for event k and for
    a shuffle made while the game answered it with k events so far (-1 for
    the set-up before the first decision).  A card in the seat's view at a
    decision is seen then; a card an event shows it (a card played, "You
    drew {c}": named_to) at that event.  A shuffle's deal keeps where
    the real shuffle put them only the cards seen since it (pinned): a card
    seen before the shuffle and not since is hidden again, and where the
    real shuffle put it is exactly what the seat does not know (Euchre
    deals the same 24 cards every hand).  The game's events alone cannot
    order them: a decision and the shuffle after it may have no event
    between them."""

    def __init__(self, seat, g):
        self.seat, self.read, self.last = seat, 0, {}
        self.decisions, self.shuffles = 0, []

    def note(self, g):
        """At each decision of g (a loud replay of the real game, its dealer a
        Recorded) and at its end."""
        h = self.decisions
        self.decisions += 1
        since = 2 * h - 1           # what the game did since the last decision
        for k in g.machine.dealer.clocks[len(self.shuffles):]:
            self.shuffles.append((since, k))
        events = g.events
        for k in range(self.read, len(events)):
            for i in named_to(events[k], self.seat):
                self.last[i] = (since, k)
        self.read = len(events)
        for c in seen_cards(g.machine, self.seat):
            self.last[DECK_INDEX[c.name]] = (2 * h, 0)

    def seen(self):
        """Every card the seat has seen."""
        return frozenset(self.last)

    def pinned(self):
        """For each shuffle, the cards seen since it."""
        return [frozenset(i for i, t in self.last.items() if t >= at) for at in self.shuffles]


def named_to(event, seat):
    """The cards (deck indexes) event shows seat: the card played, or those
    a message shows ("You drew {c}": Event.shows).  Never read from the
    text, where a player's name or a literal may spell a card's."""
    e = event.seen_by(seat)
    if e is None:
        return ()
    if e.card is not None:
        return (DECK_INDEX[e.card],)
    return tuple(DECK_INDEX[name] for name in e.shows)


class _Observer:
    """The seat's observations, one per decision: its view, with the events
    addressed to it since the last observation instead of the whole log."""

    def __init__(self, seat):
        self.seat, self.shown = seat, 0     # events before the last observation

    def __call__(self, g):
        v = view(g, self.seat, since=self.shown)
        self.shown = len(g.events)
        return v


def replay(game, seat, trace, dealer, free):
    """The game replayed with dealer's shuffles, or None as soon as the
    seat observes something it did not observe in the real game.  free:
    (the cards played to give at random, a random.Random, Blind)."""
    g = _replay_game(game, dealer)
    return g if _answer_all(game, g, None, (_Observer(seat), trace), free) else None


def _replay_game(game, dealer):
    return game.replayed(OCamlRandom.at(*_START), Recorded(game) if dealer is None else dealer)


_START = ([0] * 55, 0)          # never drawn from: every shuffle restores its state


def _answer_all(real, g, note, check, free=(frozenset(), None, None)):
    """Give g the real game's answers, matched by label (those in free[0]:
    chosen at random with free[1]; those free[2] masks: one alike, Blind).
    note(g) is called at each decision and at the end; check = (observer,
    trace) compares the seat's observation there with the real game's.
    False if they differ."""
    at_random, rng, blind = free
    k = 0
    for choice, label in real.history:
        if not _same(g, k, note, check):
            return False
        k += 1
        d = g.decision
        if d is None:
            return False
        if d.kind is NAME:
            g.answer(label)
        elif k - 1 in at_random:
            g.answer(rng.randrange(len(d.options)))
        elif blind is not None and k - 1 in blind.at:
            i = blind.answer(g, k - 1, rng)
            if i is None:
                return False
            g.answer(i)
        else:
            i = _same_option(d.options, label, choice)
            if i is None:
                return False
            g.answer(i)
    return _same(g, k, note, check)


def _same_option(options, label, choice):
    """The option to answer with: the real game's choice when it has the
    same label (an ask may offer two questions of the same text), else the
    first option with that label; None if there is none."""
    if choice < len(options) and options[choice] == label:
        return choice
    return options.index(label) if label in options else None


def _same(g, k, note, check):
    if note is not None:
        note(g)
        return True
    observe, trace = check
    return k < len(trace) and observe(g) == trace[k]


class Recorded(Dealer):
    """The real game's shuffles, again; clocks: the number of events before
    each (Sightings.pinned); orders: the cards each put in order (deck
    indexes)."""

    def __init__(self, game):
        self.states = game.machine.shuffles
        self.clocks, self.orders = [], []

    def shuffle(self, machine, items):
        j = len(machine.shuffles)
        # a sample may shuffle where the real game did not (its hidden cards
        # decided so): that shuffle draws on from the last one's generator,
        # and Resampled then deals every card anew (none seen since it)
        if j < len(self.states):
            state, idx = self.states[j]
            machine.rng = OCamlRandom.at(state, idx)
        self.clocks.append(len(machine.events or ()))
        super().shuffle(machine, items)
        index = deck_indexes(machine)
        self.orders.append([index.get(id(c)) for c in items])     # (None: a player)


class Resampled(Recorded):
    """The real game's shuffles, after each of which the cards the seat has
    not seen since (pins: deck indexes, a set per shuffle) trade places at
    random."""

    def __init__(self, game, pins, rng):
        super().__init__(game)
        self.pins, self.rng = pins, rng

    def shuffle(self, machine, items):
        j = len(machine.shuffles)
        super().shuffle(machine, items)
        pinned = self.pins[j] if j < len(self.pins) else ()
        hidden = {id(c) for i, c in enumerate(machine.deck) if i not in pinned}
        places = [i for i, c in enumerate(items) if id(c) in hidden]
        cards = [items[i] for i in places]
        self.rng.shuffle(cards)
        for i, c in zip(places, cards):
            items[i] = c


def _future(g, rng):
    """The sample's generator for what is still to come, drawn from rng."""
    g.machine.deal_anew(OCamlRandom.at([rng.getrandbits(30) for _ in range(55)], 0))
    g.traces = {}
    return g
