"""Where RECYCLE's locations and storages live in the checked program.

Visibility follows RECYCLE's words on Pip's areas (docs/recycle.md,
"Locations"), so that views, bots and the web table hide what RECYCLE hides:

- `(game iloc X)` and `(game hloc X)`: an area face down (the game is no
  one: nobody sees it); `(game vloc X)` and `(game mem X)`: an area face
  up, spread out (seed 001: a memory's copies are visible to all; a card
  remembered stays where it is too, an area being only a list of cards).
- a player's first `iloc` is its hand (only its owner sees it); its first
  `hloc` is its stash (no one sees it, its size is shown); each `vloc` and
  `mem` (and each further `hloc`) is one area per seat, face up (face
  down), named `X 1`, `X 2`... and held in a value for each player.
- a team's first `iloc` or `hloc` is its stash; the rest as for players.
- `(game sto X)` is a global Number, `(P sto X)` a Number for each player
  (for each team), starting at 0; `SCORE` is the player's (team's) score.
"""
from compiler.ir import checked as c
from compiler.ir import types as T

from ..errors import PipError


def field(owner, name):
    for index, (o, n, t) in enumerate(c.FIELDS):
        if o == owner and n == name:
            return c.Field(owner, index, name, t)
    raise KeyError(name)


def as_expr(ref):
    return c.Ref(ref, ref.type, ref.pos)


def cards_of(ref):
    """The card list of a location's reference (an area's cards)."""
    if ref.type == T.AREA:
        return c.PropRef(as_expr(ref), field('Area', 'cards'), T.CARDS, ref.pos)
    return ref


class Frame:
    """The locals of `main`, where the whole game runs."""

    def __init__(self):
        self.size = 0

    def new(self, name, type_):
        self.size += 1
        return c.Local(self.size - 1, type_, name)


class Layout:
    def __init__(self, players, teams):
        self.players = players         # how many
        self.teams = teams             # how many; 0 in a players game
        self.globals = []
        self.owns = []
        self.game_locs, self.game_stos = {}, {}
        self.locs = {'Player': {}, 'Team': {}}     # (vis, name) -> Field or Own
        self.stos = {'Player': {}, 'Team': {}}
        self.per_seat = []                         # (Own, [Global per seat]) to join at the start
        self.mems = []                             # the Owns that are memories (mem)
        self.mem_areas = []                        # and the global areas, one a seat, they hold
        self.seats = {}                            # owner -> a global per seat: who sits there

    def global_(self, name, type_, pos, init=None):
        var = c.Global(len(self.globals), type_, name)
        self.globals.append(c.VarInit(var, init, pos))
        return var

    def area(self, name, label, facedown, pos):
        var = c.Global(len(self.globals), T.AREA, name)
        self.globals.append(c.AreaInit(var, [label], facedown, facedown, pos))
        return var

    def own(self, owner, name, type_, pos, init=None):
        own = c.Own(owner, len(self.owns), name, type_, init, 0, pos)
        self.owns.append(own)
        return own

    def seat_globals(self, owner, pos):
        """The players (teams) by seat, in globals set at the start: turn
        order is then a comparison per seat, not a loop."""
        if owner not in self.seats:
            count = self.players if owner == 'Player' else self.teams
            self.seats[owner] = [self.global_('%s %d' % (owner, k + 1), owner, pos)
                                 for k in range(count)]
        return self.seats[owner]

    def game_loc(self, vis, name, pos):
        key = (vis, name)
        if key not in self.game_locs:
            label = name.title()
            self.game_locs[key] = self.area(label, label, vis not in ('vloc', 'mem'), pos)
        var = self.game_locs[key]
        return c.VarRef(var, var.type, pos)

    def owner_loc(self, owner, obj, vis, name, pos):
        """A player's or team's location: obj is the owner's expression."""
        table = self.locs[owner]
        key = (vis, name)
        if key not in table:
            table[key] = self.new_loc(owner, vis, name, pos)
        prop = table[key]
        area = self.seat_area(owner, obj, prop)
        if area is not None:
            return c.VarRef(area, T.AREA, pos)
        return c.PropRef(obj, prop, prop.type, pos)

    def seat_area(self, owner, obj, prop):
        """The global area a seat's own location is, when the owner is
        written as that seat's global (an all/any written out per seat):
        one load, not the player's, its value for each player and a lookup.
        The prologue sets both, in the same test of the seat."""
        if type(obj) is not c.Ref or type(obj.ref) is not c.VarRef:
            return None
        seats = self.seats.get(owner, ())
        k = next((k for k, g in enumerate(seats) if g is obj.ref.var), None)
        if k is None:
            return None
        return next((areas[k] for own, areas in self.per_seat if own is prop), None)

    def new_loc(self, owner, vis, name, pos):
        taken = [v.name for v in self.locs[owner].values() if isinstance(v, c.Field)]
        names = {'iloc': ['hand'], 'hloc': ['stash']}.get(vis, [])
        if owner == 'Team':
            names = ['stash'] if vis in ('iloc', 'hloc') else []
        for n in names:
            f = field(owner, n)
            if n not in taken:
                return f
        if vis == 'iloc' and owner == 'Player':
            raise PipError(pos, "A player's only iloc is its hand: the VM has no second location "
                           'that only its owner sees (docs/recycle.md)')
        own = self.own(owner, name.title(), T.AREA, pos)
        count = self.players if owner == 'Player' else self.teams
        seats = [self.area('%s %d' % (name.title(), k + 1), '%s %d' % (name.title(), k + 1),
                           vis not in ('vloc', 'mem'), pos) for k in range(count)]
        if vis == 'mem':
            self.mems.append(own)
            self.mem_areas += seats
        self.per_seat.append((own, seats))
        return own

    def sto(self, owner, obj, name, pos):
        if owner is None:
            if name not in self.game_stos:
                self.game_stos[name] = self.global_(name.title(), T.NUMBER, pos,
                                                    c.Literal(0, T.NUMBER, pos))
            var = self.game_stos[name]
            return c.VarRef(var, T.NUMBER, pos)
        table = self.stos[owner]
        if name not in table:
            table[name] = field(owner, 'score') if name == 'SCORE' else \
                self.own(owner, name.title(), T.NUMBER, pos, c.Literal(0, T.NUMBER, pos))
        prop = table[name]
        return c.PropRef(obj, prop, T.NUMBER, pos)

    def player_places(self):
        """The properties of a player that hold its cards (owner: where a card is)."""
        return [p for p in self.locs['Player'].values()]

    def prologue(self, pos):
        """Statements that give each player (team) its areas (memories too),
        and the seats' globals their players: seat by seat, the player the
        seat's item of the list (a game's count of seats is a constant)."""
        out = []
        for owner, builtin, list_type in (('Player', 'players', T.PLAYERS), ('Team', 'teams', T.TEAMS)):
            joins = [(own, seats) for own, seats in self.per_seat if own.owner == owner]
            seats = self.seats.get(owner, [])
            count = self.players if owner == 'Player' else self.teams
            group = as_expr(c.VarRef(c.Builtin(builtin, list_type), list_type, pos))
            for i in range(count if joins or seats else 0):
                who = c.Item(c.Literal(i + 1, T.NUMBER, pos), group, owner, pos)
                if seats:
                    out.append(c.Assign(c.VarRef(seats[i], owner, pos), who, pos))
                    who = as_expr(c.VarRef(seats[i], owner, pos))
                out += [c.Assign(c.PropRef(who, own, own.type, pos),
                                 as_expr(c.VarRef(areas[i], T.AREA, pos)), pos) for own, areas in joins]
        return out
