"""What one seat may see of a game, as plain (JSON-serialisable) data.

Pip has no notion of hidden information of its own; pipvm defines it from
the language (docs/api.md, "What a seat may see"):

- a seat sees the cards of its own hand, and every card of a `faceup` area
  (a `squaredup` faceup area: its top card and its size);
- of every other hand, every `facedown` area, every stash and every card
  list in no area (a `Deck` variable, a list), it sees the size only;
- it sees the messages addressed to everyone or to it, the table's
  announcements, and who played a card; it reads the card's name if the
  card lands face up or it played the card itself (dialogue.played);
- a spectator (seat None) sees what every seat sees in common.

Cards appear by the names the game prints (`Queen of Spades`).
"""
from pipvm.core.runtime import Area, Card, areas_in, to_str

SPECTATOR = None


def view(game, seat, log=True, since=0):
    """The view of seat (from 0), or of a spectator (None), as plain data
    (log=False: without the log, which a served table pages itself; since:
    the log from event number since on, as determinize.py compares news)."""
    m = game.machine
    d = game.decision
    out = {
        'game': game.program.name,
        'seat': seat,
        'players': [_player(p, seat, m.program.owns) for p in m.seated],
        'teams': None if m.teams is None else [_team(t, m.program.owns) for t in m.teams],
        'areas': [_area(a) for a in areas(m)],
        'lists': [{'name': name, 'size': len(v)} for name, v in card_lists(m)],
        'log': [event(e) for e in visible_events(game, seat, since)] if log else None,
        'turn': None if d is None else {'seat': d.seat, 'kind': d.kind, 'player': d.player},
        'decision': decision(game, seat),
        'ending': None if game.ending is None else game.ending.to_json(),
    }
    if not log:
        del out['log']
    return out


def hand(game, seat):
    """The names of the cards in seat's hand, the one part of `players` only
    that seat sees (None: a spectator, or a seat with no player)."""
    if seat is not None:
        for p in game.machine.seated:
            if p.seat == seat:
                return _names(p.hand)
    return None


def decision(game, seat):
    """The decision seat faces now, as plain data (None: none, or a
    spectator); an ask whose options come from lists of cards or areas also
    says which card or area each option names (`targets`), so the web table
    lets the player click it: a card only where the seat sees it."""
    d = game.decision
    if d is None or d.seat != seat or seat is None:
        return None
    out = d.to_json()
    if d.kind == 'action':
        targets = option_targets(game.machine, d.seat)
        if targets is not None:
            out['targets'] = targets
    return out


def option_targets(machine, seat):
    """Per option of the ask machine waits at, {'card': name} (a card seat
    sees now), {'area': name} or None; None if no option names one."""
    binds = getattr(machine.pending, 'binds', None)
    if not binds:
        return None
    seen = {id(c) for c in seen_cards(machine, seat)}
    out = []
    for bind in binds:
        item = None if bind is None else bind[1]
        if type(item) is Card and id(item) in seen:
            out.append({'card': str(item)})
        elif type(item) is Area:
            out.append({'area': item.name})
        else:
            out.append(None)
    return out if any(out) else None


def visible_events(game, seat, since=0):
    """The events as seat reads them (dialogue.Event.seen_by), in order
    (from event number since on)."""
    seen = [e.seen_by(seat) for e in (game.events or ())[since:]]
    return [e for e in seen if e is not None]


def areas(machine):
    """The game's areas, in the order their globals are declared (a list of
    areas, an extension, in its order)."""
    return areas_in(machine.globals)


def card_lists(machine):
    """(name, list) of each global card list in no area (a Deck, a CardList)."""
    names = machine.program.global_names
    return [(names[i], v) for i, v in enumerate(machine.globals)
            if type(v) is list and all(type(c) is Card for c in v)]


def seen_cards(machine, seat):
    """The cards seat sees now: its hand and the visible cards of faceup areas."""
    seen = []
    for p in machine.seated:
        if p.seat == seat:
            seen += p.hand
    for a in areas(machine):
        seen += _shown(a)
    return seen


def _shown(area):
    if area.is_facedown:
        return []
    if area.is_squaredup:
        return area.cards[:1]
    return area.cards


def _seat(player):
    return player.seat


def _names(cards):
    return [str(c) for c in cards]


def _player(p, seat, owns):
    out = {'seat': p.seat, 'name': p.name, 'hand_size': len(p.hand),
           'stash_size': len(p.stash), 'score': _number(p.score),
           'values': _values(p, 'Player', owns)}
    if seat is not None and p.seat == seat:
        out['hand'] = _names(p.hand)           # as hand() gives it
    return out


def _team(t, owns):
    return {'name': to_str(t), 'members': [p.seat for p in t.members], 'stash_size': len(t.stash),
            'score': _number(t.score), 'values': _values(t, 'Team', owns)}


def _values(obj, owner, owns):
    """Its values `for each player` (or team), the extension, by name, as
    `score` is shown: a Number or Boolean as itself, others as the game
    prints them, undefined as None.  A Card is not shown: it may be hidden;
    nor an Area or a card list (a RECYCLE location held for each player):
    the view shows areas and lists by their own rules."""
    out = {}
    for k, (kind, name, t) in enumerate(owns):
        if kind == owner and t not in ('Card', 'Area', 'CardList'):
            v = obj.own.get(k)
            out[name] = v if v is None or type(v) in (int, bool) else to_str(v)
    return out


def _area(a):
    out = {'name': a.name, 'facedown': a.is_facedown, 'squaredup': a.is_squaredup,
           'size': len(a.cards)}
    if not a.is_facedown:
        shown = _shown(a)
        out['cards'] = _names(shown)
        # who last played each (its seat; None: never played): a trick's seats
        out['by'] = [None if c.last_played_by is None else c.last_played_by.seat for c in shown]
    return out


def _number(v):
    # A score is a Number (a Rank is one too), or undefined.
    return int(v) if isinstance(v, int) else None


def event(e):
    """An event as plain data."""
    out = {'kind': e.kind, 'text': e.text, 'to': e.to}
    if e.kind == 'played':
        out['card'], out['by'] = e.card, e.by
    return out
