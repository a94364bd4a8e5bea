"""Extension: endings beyond `winner X.` -- several winners, a loser, a
ranking -- and players taken out of the turn order and brought back.  Both
engines take them from here: the VM's instruction bodies and the reference
(compiler/reference/pip.py).

An ending places every seat: `place` 0 is the best.  `winner L.` puts the
seats of L first and every other seat second; `loser L.` puts them last,
after every other seat; `ranking L.` puts L's items in order and any seat
it leaves out after them.  A team stands for its members.
"""
from pipvm.core.dialogue import set_label, won_by
from pipvm.core.errors import Fault, GameOver
from pipvm.core.runtime import Player, Team, to_str

WINNERS, LOSERS, RANKING = range(3)
HOW = ('winner', 'loser', 'ranking')     # by the `how` operand, the word that says it


def lost_by(names):
    return 'The game was lost by ' + names


def ranked(names):
    return 'The game ended in this order: ' + ', '.join(names)


def _items(value):
    return list(value) if type(value) is list else [value]


def _seats(item):
    if type(item) is Team:
        return [p.seat for p in item.members]
    if type(item) is Player:
        return [item.seat]
    raise Fault('Undefined value' if item is None else 'Expected a player or a team')


def finish(how, value):
    """End the game (raise GameOver) as `winner`, `loser` or `ranking` of
    value: a Player, a Team or a list of them."""
    items = _items(value)
    if not items:
        raise Fault("An empty list can't %s" % ('win', 'lose', 'be ranked')[how])
    names = [to_str(item) for item in items]
    groups = [_seats(item) for item in items]
    if how == WINNERS:
        raise GameOver(set_label(names), won_by(set_label(names)), [sum(groups, [])])
    if how == LOSERS:
        raise GameOver(None, lost_by(set_label(names)), [sum(groups, [])], rest_first=True,
                       loser=set_label(names))
    raise GameOver(names[0], ranked(names), groups, loser=names[-1] if len(names) > 1 else None)


def places(over, seats):
    """Each seat's place (0 best) after a GameOver with groups, or None for
    2008's `winner X.` (pipvm/core/outcome.py places it by name)."""
    if over.groups is None:
        return None
    k = len(over.groups)
    place = [0 if over.rest_first else k] * seats
    for i, group in enumerate(over.groups):
        for s in group:
            place[s] = i + 1 if over.rest_first else i
    return tuple(place)


def take_out(players, player):
    """`out p.`: p leaves the turn order (players); nothing if it has left."""
    if player is None:
        raise Fault('Undefined value')
    for i, p in enumerate(players):
        if p is player:
            del players[i]
            return


def bring_back(players, player):
    """`back p.`: p rejoins the turn order just before the player whose
    seat comes next going round the table from p's (at the end if that one
    is first: the first player stays first); nothing if p is in it."""
    if player is None:
        raise Fault('Undefined value')
    if any(p is player for p in players):
        return
    if not players:
        players.append(player)
        return
    m = 1 + max([player.seat] + [p.seat for p in players])
    after = min(range(len(players)), key=lambda i: (players[i].seat - player.seat) % m)
    players.insert(after or len(players), player)
