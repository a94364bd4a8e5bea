"""`pipvm serve --lobby GAMES...`: a lobby where people start tables of these
games, join open ones by name, watch any, and ask for a rematch at the end.

Tables, seats and answers live in SQLite (the standard library's sqlite3,
WAL mode), so a server that restarts, even after kill -9, brings every
table back on the same links: each table is its game replayed from its
seed and answers.  Of a seat's token only its SHA-256 is stored.  A seat's
name, given when joining, answers the game's name decision for that seat.
"""
import os
import secrets
import sqlite3
import time

from pipvm.play import loader
from pipvm.play.seats import Seating
from pipvm.play.terminal import random_seed
from pipvm.records.record import Answer
from pipvm.web.requests import BadRequest, Conflict, NotFound, check_name
from pipvm.web.table import Table, hashed

SCHEMA = '''
CREATE TABLE IF NOT EXISTS tables (id TEXT PRIMARY KEY, game INTEGER NOT NULL, seed INTEGER NOT NULL,
    players INTEGER NOT NULL, created REAL NOT NULL, rematch TEXT);
CREATE TABLE IF NOT EXISTS seats (tab TEXT NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL,
    token_hash TEXT UNIQUE, PRIMARY KEY (tab, seat));
CREATE TABLE IF NOT EXISTS answers (tab TEXT NOT NULL, n INTEGER NOT NULL, seat INTEGER NOT NULL,
    kind TEXT NOT NULL, text TEXT NOT NULL, option INTEGER, PRIMARY KEY (tab, n));
'''
MAX_TABLES = 200               # open at once: a lobby anyone can reach is not a disk to fill


class Lobby:
    def __init__(self, paths, db_path):
        self.paths = [os.path.abspath(p) for p in paths]
        self.programs = [loader.load_program(p) for p in self.paths]
        self.db = sqlite3.connect(db_path, isolation_level=None, check_same_thread=False)
        self.db.execute('PRAGMA journal_mode=WAL')
        self.db.executescript(SCHEMA)
        self.tables = {}           # id -> Table
        self.seats = {}            # id -> {seat: name}
        self.rematches = {}        # id -> the id of its rematch
        self.links = {}            # hashed token -> (id, seat)
        for tab, game, seed, players, rematch in self.db.execute(
                'SELECT id, game, seed, players, rematch FROM tables ORDER BY created'):
            self._open(tab, game, seed, players)
            if rematch:
                self.rematches[tab] = rematch
        for tab, seat, name, token_hash in self.db.execute(
                'SELECT tab, seat, name, token_hash FROM seats'):
            self.seats[tab][seat] = name
            if token_hash:
                self.links[token_hash] = (tab, seat)
        for tab, table in self.tables.items():
            rows = self.db.execute('SELECT seat, kind, text, option FROM answers WHERE tab = ? '
                                   'ORDER BY n', (tab,)).fetchall()
            for number, (seat, kind, text, option) in enumerate(rows, 1):
                table._replay(number, Answer(seat, kind, text, option), db_path)
            table.listeners.append(self._keeper(tab))
            self._name(tab)

    def _open(self, tab, game, seed, players):
        if not 0 <= game < len(self.programs):
            raise BadRequest('no such game')
        table = Table(self.programs[game], Seating(players=players), seed, pause=0,
                      path=self.paths[game], links={})
        table.game_index = game
        table.lobby = True
        self.tables[tab] = table
        self.seats[tab] = {}
        return table

    def _keeper(self, tab):
        def keep(answer):
            n = len(self.tables[tab].history)
            self.db.execute('INSERT INTO answers VALUES (?, ?, ?, ?, ?, ?)',
                            (tab, n, answer.seat, answer.kind, answer.text, answer.option))
        return keep

    def _name(self, tab):
        """Answer the game's name decisions with the names given on joining."""
        table = self.tables[tab]
        while True:
            d = table.game.decision
            if d is None or d.kind != 'name' or d.seat not in self.seats[tab]:
                return
            table._apply(d, self.seats[tab][d.seat])

    # --- what the routes do ------------------------------------------------------

    def seat_of(self, token):
        """(table, seat) of a token: a seat's secret one, or `watch-ID` (public)."""
        if token.startswith('watch-') and token[6:] in self.tables:
            return self.tables[token[6:]], None
        tab, seat = self.links[hashed(token)]
        return self.tables[tab], seat

    def table_id(self, token):
        return self.links[hashed(token)][0]

    def new(self, game, players, name=None):
        """A new table of game (an index) for this many players: its id; and
        with a name, that person seated at it: (id, token).  Everything is
        checked first: a refused name or number creates no table."""
        if type(game) is not int or type(players) is not int:
            raise BadRequest('"game" and "players" must be whole numbers')
        if not 0 <= game < len(self.programs):
            raise BadRequest('no such game')
        if name is not None:
            name = check_name(name, 'name')
        program = self.programs[game]
        size = program.team_size or 1
        if players not in [c * size for c in program.counts]:
            raise BadRequest('%s is for %s players' % (program.name, ' or '.join(
                str(c * size) for c in program.counts)))
        if sum(1 for t in self.tables.values() if t.game.ending is None) >= MAX_TABLES:
            raise Conflict('the lobby has %d open tables already' % MAX_TABLES)
        tab, seed = secrets.token_urlsafe(6), random_seed()
        self.db.execute('INSERT INTO tables VALUES (?, ?, ?, ?, ?, NULL)',
                        (tab, game, seed, players, time.time()))
        table = self._open(tab, game, seed, players)
        table.listeners.append(self._keeper(tab))
        return tab if name is None else (tab, self._seat(tab, 0, name))

    def join(self, tab, name, held=None):
        """Seat a person by name at the first free seat: its secret link's
        token.  held: the token this person's browser keeps for the table
        (its seat cookie): with the name of that seat, the seat is theirs
        again, on the same link; anyone else with a name taken is refused."""
        name = check_name(name, 'name')
        if tab not in self.tables:
            raise NotFound('no such table')
        table, seats = self.tables[tab], self.seats[tab]
        if name in seats.values():
            if held and self.links.get(hashed(held)) == (tab, self.seat_named(tab, name)):
                return held
            raise Conflict('someone at the table has that name already')
        free = [n for n in range(table.game.setup.players) if n not in seats]
        if not free:
            raise Conflict('the table is full')
        return self._seat(tab, free[0], name)

    def seat_named(self, tab, name):
        return next(n for n, given in self.seats[tab].items() if given == name)

    def held_seat(self, tab, held):
        """The seat a browser's seat cookie for this table stands for, or None."""
        if not held:
            return None
        place = self.links.get(hashed(held))
        return place[1] if place and place[0] == tab else None

    def _seat(self, tab, seat, name):
        token = secrets.token_urlsafe(18)
        self.db.execute('INSERT OR REPLACE INTO seats VALUES (?, ?, ?, ?)',
                        (tab, seat, name, hashed(token)))
        self.seats[tab][seat] = name
        self.links[hashed(token)] = (tab, seat)
        self.tables[tab].links[hashed(token)] = seat
        self._name(tab)
        return token

    def rematch(self, table, seat):
        """The seat's token at the rematch of its finished table (same seats, new deal)."""
        tab = next(t for t, x in self.tables.items() if x is table)
        if table.game.ending is None:
            raise Conflict('the game is not over')
        if seat is None:
            raise Conflict('a spectator has no seat at a rematch')
        if tab not in self.rematches:
            new = self.new(table.game_index, table.game.setup.players)
            self.db.execute('UPDATE tables SET rematch = ? WHERE id = ?', (new, tab))
            self.rematches[tab] = new
            for n, name in self.seats[tab].items():          # named now, linked when asked
                self.db.execute('INSERT INTO seats VALUES (?, ?, ?, NULL)', (new, n, name))
                self.seats[new][n] = name
        new = self.rematches[tab]
        token = self._seat(new, seat, self.seats[tab][seat])
        return token

    def state(self, held=lambda tab: None):
        """The lobby's page data: the games, and every table, newest first
        (held(id): the token this browser keeps for a table, whose seat is
        given as `mine`)."""
        games = [{'id': i, 'name': p.name,
                  'players': [c * (p.team_size or 1) for c in p.counts]}
                 for i, p in enumerate(self.programs)]
        tables = []
        for tab, table in reversed(self.tables.items()):
            seats = self.seats[tab]
            players = table.game.setup.players
            ending = table.game.ending
            tables.append({
                'id': tab, 'game': table.game.program.name, 'players': players,
                'names': [seats.get(n) for n in range(players)],
                'open': len(seats) < players, 'over': ending is not None,
                'winner': ending.winner if ending else None, 'watchers': table.watchers,
                'spectators': table.watching(),
                'watch': '/play/watch-%s/' % tab, 'mine': self.held_seat(tab, held(tab))})
        return {'games': games, 'tables': tables[:100]}
