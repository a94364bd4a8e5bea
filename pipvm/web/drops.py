"""Where a card may be dragged on the web table: the areas a drop answers for.

A card decision (a plain `play`) moves the chosen card to one place, the
play's destination: the decision gets `to`, that area's name, when it is
an area the table shows.

An ask whose option names a card (`targets`, pipvm/game/view.py) is
answered on the table by clicking the card, then, if the game asks where
it goes, the area.  A drag does the same in one gesture, so the page must
know beforehand which areas each such option leads to.  The game says so
only once the first answer is given; the server finds it by giving that
answer to a copy of the game (Game.fork) and looking at what follows:

- the same seat asked again, the card not moved: each option of that ask
  that names an area (its `targets`) is a drop there, answered by the two
  choices; an option that names none is followed one step further, and is
  a drop on the area the card lands in;
- otherwise the card's new area, if it moved to one: a drop answered by the
  first choice alone.

So `drops` is, per option, None or [{"area": NAME, "then": J}] (J: the
follow-up choice, None for none), exactly the answers the clicks give.  A
way that draws from the game's random stream (a shuffle) is left out: its
outcome is not for the page to know before it happens.

Playing ahead reads the real game, hidden cards and all, so a drop could
tell a place that hangs on a card the seat cannot see (a card put away to
the bin of a face-down card's rank), which the clicks tell only after the
first answer.  So each option is also played ahead in WORLDS other worlds:
copies of the game in which the cards the seat cannot see now (all but its
hand, the shown cards of faceup areas and the cards the ask's options
bind) trade places at random, and a drop is offered only if every world
offers it too, with the same follow-up choice.  A drop that hangs on
shown cards only is the same in every world and is kept (all of
Klondike's); one that hangs on where a hidden card is now is withheld
unless each world happens to put a card there that decides it alike
(with two worlds, the square of that chance; each world costs one more
lookahead).  With nothing hidden, each world is the real game.  What
this does not catch: a place that hangs on a value the
game computed from a hidden card before and kept (a Number, a Boolean): a
world consistent with all the seat has seen would need the game replayed
from its start with a new deal (pipvm/game/determinize.py), which costs a
replay of every answer so far at every step (over a second an answer
late in a game of Klondike), or the bots' Belief (pipvm/game/belief/: some
100 ms an answer on Klondike, spikes of a second); benchmarks/results/
drag.tsv.  The worlds are drawn with a generator seeded by the step
count, so a page reloaded at the same step is told the same.  The server
checks every answer as it checks any: a drop is only a shortcut for
clicks, never trusted.
"""
import random

from pipvm.core.runtime import Card, card_index
from pipvm.game.view import areas, decision, option_targets, seen_cards

LOOKAHEAD_STEPS = 100_000      # a copy that runs longer than this before the next decision offers no drop
WORLDS = 2                     # the worlds, the hidden cards dealt anew, that each drop must be found in too


def served_decision(game, seat):
    """decision(game, seat) with `to` (a card decision) or `drops` (an ask
    whose options name cards), as the web table sends it."""
    out = decision(game, seat)
    if out is None:
        return None
    pending = game.machine.pending
    if out['kind'] == 'card':
        to = _area_of_list(game.machine, pending.dest)
        if to is not None:
            out['to'] = to
    elif out.get('targets'):
        drops = [_drops(game, seat, i) if t and 'card' in t else None
                 for i, t in enumerate(out['targets'])]
        if any(drops):
            rng = random.Random(len(game.history))
            for _ in range(WORLDS):
                if not any(drops):
                    break           # nothing left to confirm: no further world need be dealt
                world = _dealt_anew(game, seat, rng)
                drops = [_agreed(ds, world, game, i) if ds else None for i, ds in enumerate(drops)]
            if any(drops):
                out['drops'] = drops
    return out


def _dealt_anew(game, seat, rng):
    """A quiet copy of game in which the cards seat cannot see now trade
    places at random: each such card object takes another's identity (so
    every list and variable that held one holds the other), and the deck is
    put back in deck order, by which the machine finds a card (card_of)."""
    world = game.fork(quiet=True)
    m = world.machine
    kept = {id(c) for c in seen_cards(m, seat)}
    kept.update(id(b[1]) for b in m.pending.binds or () if b is not None and type(b[1]) is Card)
    hidden = [c for c in m.deck if id(c) not in kept]
    who = [(c.rank, c.suit, c.last_played_by, c.born_rank, c.born_suit, c.name) for c in hidden]
    rng.shuffle(who)
    for c, (rank, suit, by, born_rank, born_suit, name) in zip(hidden, who):
        c.rank, c.suit, c.last_played_by = rank, suit, by
        c.born_rank, c.born_suit, c.name = born_rank, born_suit, name
    m.deck.sort(key=lambda c: card_index(c.born_rank, c.born_suit))
    m.consts = m.image.consts_for(m.deck)
    return world


def _agreed(drops, world, game, i):
    """The drops of game's option i that world offers too."""
    there = _drops(world, game.decision.seat, i) or ()
    return [x for x in drops if x in there] or None


def _area_of_list(machine, cards):
    return next((a.name for a in areas(machine) if a.cards is cards), None)


def _drops(game, seat, i):
    """The drops of option i, whose bound item is a card."""
    card = _deck_place(game.machine, game.machine.pending.binds[i][1])
    if card is None:
        return None
    where = _area_holding(game, card)
    after = _ahead(game, i)
    if after is None:
        return None
    d = after.decision
    if (d is not None and d.seat == seat and d.kind == 'action'
            and _area_holding(after, card) == where):
        out, taken = [], set()
        targets = option_targets(after.machine, seat) or [None] * len(d.options)
        for j, t in enumerate(targets):
            area = (t['area'] if 'area' in t else None) if t else _landing(after, j, card, where)
            if area is not None and area not in taken:
                taken.add(area)
                out.append({'area': area, 'then': j})
        return out or None
    area = _area_holding(after, card)
    return [{'area': area, 'then': None}] if area is not None and area != where else None


def _landing(game, j, card, where):
    """The area the card lands in once option j is chosen, if it moves to one."""
    after = _ahead(game, j)
    area = None if after is None else _area_holding(after, card)
    return area if area != where else None


def _ahead(game, choice):
    """A copy of game with choice answered; None if getting there drew from
    the random stream, or took more than LOOKAHEAD_STEPS, or failed."""
    copy = game.fork(quiet=True)
    m = copy.machine
    m.steps_left = min(m.steps_left, LOOKAHEAD_STEPS)
    copy.answer(choice)
    if (m.rng.idx, m.rng.state) != (game.rng.idx, game.rng.state):
        return None
    if copy.ending is not None and copy.ending.kind in ('error', 'step limit'):
        return None
    return copy


def _deck_place(machine, card):
    """The card's place in the game's deck (a copy has its own cards, in
    the same order), or None for a card of no deck."""
    return next((k for k, c in enumerate(machine.deck) if c is card), None)


def _area_holding(game, place):
    """The name of the area that holds the card at this place of the deck, or None."""
    card = game.machine.deck[place]
    return next((a.name for a in areas(game.machine) if any(c is card for c in a.cards)), None)
