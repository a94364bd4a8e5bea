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
way that draws from the game's random stream (a shuffle) is
left out: its outcome is not for the page to know before it happens.  (Places
that hang on cards the seat cannot see would still be told early: the
clicks tell them only after the first answer; no example has such.)  The
server checks every answer as it checks any: a drop is only a shortcut
for clicks, never trusted.
"""
from pipvm.game.view import areas, decision, option_targets

LOOKAHEAD_STEPS = 100_000      # a copy that runs longer than this before the next decision offers no drop


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
            out['drops'] = drops
    return out


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
