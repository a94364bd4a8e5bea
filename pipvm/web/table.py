"""One game at a served table: its seats' secret tokens, the answers people
send, the bots that play on the server, and the record.

Everything here runs on the server's event loop, one step at a time, so a
game is never changed by two requests at once.  Each change bumps `version`
and wakes whoever waits for one (the live channels, the bot loop).
"""
import asyncio
import collections
import hashlib
import json
import os
import secrets
import sys
from typing import NamedTuple

from pipvm.core import plain
from pipvm.core.dialogue import check_unasked, fitting
from pipvm.core.rng import OCamlRandom
from pipvm.isa.pipc import write_file
from pipvm.play import loader
from pipvm.records import record
from pipvm.game.game import Game
from pipvm.game.view import event, hand, view
from pipvm.records.record import CHOICE, NAME, Answer, Record
from pipvm.play.seats import Seating, parse_kind
from pipvm.play.terminal import random_seed
from pipvm.web.deciders import decider
from pipvm.web.drops import served_decision
from pipvm.web.patch import diff
from pipvm.web.requests import BadRequest, Conflict, check_against, parse_answer

MAX_STEPS = 1_000_000          # a program that never asks again cannot hold the server forever
LOG_PAGE = 100                 # events a view carries; older ones come by GET log
STEPS_KEPT = 64                # a channel further behind than this is sent the whole view


def hashed(token):
    """What is kept of a token: its SHA-256 (a stolen table of them opens no seat)."""
    return hashlib.sha256(token.encode('utf-8', 'replace')).hexdigest()


class Own(NamedTuple):
    """What of a seat's view is its own, at one version."""
    hand: list                 # its hand's card names (None: a spectator, or no player yet)
    decision: dict             # the decision it faces, as view() gives it with its drops (drops.py)
    size: int                  # how many events its log holds


class Step:
    """The patch of the common part of the views from version start to end."""

    def __init__(self, start, end, ops):
        self.start, self.end, self.ops = start, end, ops
        self.text = _dumps(ops)[1:-1]          # its JSON, once for every seat
        # the paths at which an op sets a whole player, or the list of them
        self._wide = {op['path'] for op in ops if op['path'].count('/') <= 2}
        self.whole = '' in self._wide          # (never from diff: it would drop seat, decision)

    def resets(self, player):
        """Whether an op sets this player (its path, '/players/I') as a whole:
        its hand is then to be put in again."""
        return bool(self._wide) and bool(self._wide & {'/players', '/players/-', player})


def _dumps(data):
    return json.dumps(data, separators=(',', ':'))


def links_path(record_path):
    """Where a record's links are kept: game.json -> game.links.json."""
    return os.path.splitext(record_path)[0] + '.links.json'


def write_links(record_path, links):
    write_file(links_path(record_path), json.dumps({
        'format': 'pipvm links', 'links': {'watch' if n is None else str(n + 1): h
                                           for h, n in links.items()}}, indent=1).encode())


def read_links(record_path):
    """{hashed token: seat} kept beside a record, or None if there is no such file."""
    path = links_path(record_path)
    try:
        with open(path, 'rb') as f:
            obj = json.loads(f.read().decode('utf-8'))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as e:
        raise record.RecordError(path, 'cannot read the links (%s)' % e) from None
    kept = obj.get('links') if type(obj) is dict and obj.get('format') == 'pipvm links' else None
    if type(kept) is not dict or not all(
            type(h) is str and len(h) == 64 and (k == 'watch' or k.isdigit() and 0 < int(k) < 1000)
            for k, h in kept.items()):
        raise record.RecordError(path, 'not a pipvm links file')
    return {h: None if k == 'watch' else int(k) - 1 for k, h in kept.items()}


class Table:
    def __init__(self, program, seating=Seating(), seed=None, pause=0.0, record_path=None,
                 path=None, max_steps=MAX_STEPS, links=None, resumed=False):
        """seating: who sits where (people unless a seat kind says otherwise);
        links: {hashed token: seat} of links given before (else new ones);
        pause: seconds a bot waits before it answers, so people can follow;
        record_path: the record every answer is written to, as `pipvm run
        --record` writes it (pipvm/records/record.py; path: the game's file);
        resumed: a record's table, whose seats were checked when it began.
        An error (one line) here if the seating cannot fit the game: a
        served table's seat 1 may answer any count the game allows."""
        seats = seating.check(program)
        size = program.team_size or 1
        if seats is None and not resumed:   # (a record resumed has its count already)
            check_unasked(program.counts, program.team_size, seating.specs)
        self._offered = fitting(program.counts, program.team_size, seating.specs)
        if seats is None and len(program.counts) == 1:
            # a game for one number of players: nobody is asked how many play
            seats = program.counts[0] * size
            seating = plain.evolve(seating, players=seats)
        self.seats = seats or max(program.counts) * size
        self.seed = random_seed() if seed is None else seed
        self.game = Game(program, seed=self.seed, players=seating.players, max_steps=max_steps)
        start = OCamlRandom(self.seed)       # the game's generator before it drew
        self.deciders = {n: d for n in range(self.seats)
                         if (d := decider(seating.specs.get(n, seating.default), n, start))}
        if links is None:
            # {token: seat}, only while it is new: the table keeps their hashes
            self.tokens = {secrets.token_urlsafe(18): n for n in range(self.seats)
                           if n not in self.deciders}
            self.tokens[secrets.token_urlsafe(18)] = None      # the spectators' link
            links = {hashed(t): n for t, n in self.tokens.items()}
        else:
            self.tokens = {}
        self.links = {h: n for h, n in links.items() if n is None or n < self.seats}
        if record_path:
            write_links(record_path, self.links)
        self.pause = pause
        self.record_path = record_path
        self.record = Record(
            record.relative(path, record_path) if record_path else path,
            loader.fingerprint(program) if record_path else None, self.seed, seating.players,
            max_steps, bots=str(seating.default),
            seats={n: str(s) for n, s in seating.specs.items()})
        self.history = self.record.answers         # of record.Answer, in order
        self.version = 0
        self.lobby = False         # started from a lobby: a rematch can be asked for
        self.spectators = collections.Counter()   # name (None: unnamed) -> live channels open now
        self.listeners = []        # f(answer) called after each answer taken (a lobby's store)
        self._waiters = []         # futures to wake at the next change
        self._logs = {n: [] for n in [*range(self.seats), None]}    # each seat's events
        self._read = 0             # how many of the game's events are in _logs
        self._shared = None        # (version, the common part of the views) last made
        self._steps = collections.deque(maxlen=STEPS_KEPT)     # Steps between those versions
        self._owns = {}            # seat -> its Own parts at this version
        self._before = {}          # the same at the version before (an answer's reply patches it)
        self._frames = {}          # (seat, base version) -> a live message, at this version

    @classmethod
    def resume(cls, path, pause=0.0, new_links=False):
        """The table of a record, every answer in it given again (bots answer
        again, and must answer as recorded); its answers go on being added.
        The links given before still work (their hashes are kept beside the
        record) unless new_links."""
        kept = record.read(path)
        links = None if new_links else read_links(path)
        game = record.resolve(kept.game, path)
        program = loader.load_program(game)
        if loader.fingerprint(program) != kept.fingerprint:
            raise record.RecordError(path, 'the game %s has changed since it was recorded '
                                           '(its fingerprint differs)' % kept.game)
        seating = Seating({n: parse_kind(k) for n, k in kept.seats.items()},
                          parse_kind(kept.bots), kept.players)
        table = cls(program, seating, kept.seed, pause, path, game,
                    kept.max_steps or MAX_STEPS, links, resumed=True)
        for number, answer in enumerate(kept.answers, 1):
            if answer.kind != record.REFUSED:      # a line the terminal refused changed nothing
                table._replay(number, answer, path)
        table._save()
        return table

    def _replay(self, number, answer, path):
        d = self.game.decision
        seat = answer.seat
        value = answer.text if answer.kind == NAME else answer.option
        if d is not None and d.kind == 'count' and answer.kind != NAME:
            # (a count's choice in a record indexes the counts offered: the
            # terminal offers only those that seat every --seat, a table all)
            value = self._offered[value] if value < len(self._offered) else len(d.options)
        try:
            if d is None or d.seat != seat:
                raise Conflict('the game does not wait for seat %d' % (seat + 1))
            if seat in self.deciders and self.deciders[seat](self.game, d) != value:
                raise Conflict('the bot at seat %d answers otherwise' % (seat + 1))
            check_against(d, seat, d.id, 'text' if answer.kind == NAME else 'choice', value)
        except (BadRequest, Conflict) as e:
            raise record.RecordError(path, 'answer %d does not fit the game: %s'
                                     % (number, e)) from None
        self._apply(d, value, save=False)

    # --- what a seat may see and do ----------------------------------------------

    @property
    def watchers(self):
        """How many spectators' live channels are open now."""
        return sum(self.spectators.values())

    def watching(self):
        """The spectators who gave a name, in order, each once."""
        return sorted(name for name in self.spectators if name is not None)

    def seat_of(self, token):
        """The seat (None: a spectator) a token stands for; KeyError if none.
        Looked up by its hash, so timing tells nothing about the tokens."""
        return self.links[hashed(token)]

    def view(self, seat):
        """What /state returns: the seat's view with the last LOG_PAGE events
        of its log (`log_start`: the place of the first in the whole log), the
        seats the server plays (`bots`) and how many seats the table has;
        its decision says where a card may be dragged (pipvm/web/drops.py)."""
        own = self._own(seat)
        size = own.size
        state = view(self.game, seat, log=False)
        state.update(self._extras(), decision=own.decision)
        start = max(0, size - LOG_PAGE)
        return dict(state, log=self._logs[seat][start:size], log_start=start)

    def _extras(self):
        return {'bots': sorted(self.deciders), 'seats': self.seats, 'lobby': self.lobby}

    def log(self, seat, before):
        """(start, events): up to LOG_PAGE of the seat's events before `before`."""
        self._read_events()
        before = min(before, len(self._logs[seat]))
        start = max(0, before - LOG_PAGE)
        return start, self._logs[seat][start:before]

    def frame(self, seat, base):
        """The live message (JSON text) that takes a seat from version base
        (None: from nothing) to now: the whole view, or a patch to its view
        at base, which the caller keeps as (version, the seat's Own parts)."""
        own = self._own(seat)
        key = (seat, None if base is None else base[0])
        if key not in self._frames:
            text = None if base is None else self._patch(seat, base[0], base[1], own)
            self._frames[key] = text or _dumps({'version': self.version, 'view': self.view(seat)})
        return self._frames[key], (self.version, own)

    def reply(self, seat, base):
        """The reply to a seat's answer (JSON text): a patch from its view at
        version base (the one it answered from, just before its answer) to
        now; or the whole view if it holds another (base None: it did not say)."""
        held = self._before.get(seat) if base is not None and base == self.version - 1 else None
        if held is None:
            return _dumps(self.view(seat))
        frame, _ = self.frame(seat, (base, held))
        return frame

    # --- patches, from each step's changes -----------------------------------------
    #
    # A seat's view is the part every seat sees alike (the spectators' view:
    # the table, the sizes, the scores, whose turn) with the seat's own parts
    # put in: its hand, its decision, the events it is told.  So a step's
    # patch is built once for the common part, from that part before the
    # step (compared piece by piece: what did not change costs a comparison
    # in C), and its JSON is shared by every seat; each seat adds only what
    # is its own: the events of the step as it reads them (Event.seen_by,
    # the one place an event's audience is decided), its hand if it
    # changed, its decision.  No whole view is built or compared per seat.

    def _common(self):
        """The common part at this version.  The first time at a version, the
        Step from the version it was last made at is kept (a channel or an
        answer's reply that holds that version patches from it)."""
        if self._shared is None or self._shared[0] != self.version:
            state = view(self.game, None, log=False)
            del state['seat'], state['decision']       # each seat's own
            state.update(self._extras())
            if self._shared is not None:
                self._steps.append(Step(self._shared[0], self.version, diff(self._shared[1], state)))
            self._shared = (self.version, state)
        return self._shared[1]

    def _own(self, seat):
        """The seat's Own parts at this version (made once a version)."""
        own = self._owns.get(seat)
        if own is None:
            self._read_events()
            self._common()         # the common part at each version a seat was given
            own = self._owns[seat] = Own(hand(self.game, seat), served_decision(self.game, seat),
                                         len(self._logs[seat]))
        return own

    def _patch(self, seat, base, was, own):
        """The JSON text {version, base, patch} taking the seat from its view at
        version base (its Own parts then: was) to now; None if the steps
        since base are no longer kept (the caller sends the whole view)."""
        steps = [s for s in self._steps if s.start >= base]
        if (base > self.version or base < self.version and (not steps or steps[0].start != base)
                or any(s.whole for s in steps)):
            return None
        parts = [s.text for s in steps if s.ops]
        ops = []
        if own.hand is not None:
            where = '/players/%d' % [p['seat'] for p in self._common()['players']].index(seat)
            if was.hand is None or any(s.resets(where) for s in steps):
                ops.append({'op': 'add', 'path': where + '/hand', 'value': own.hand})
            else:
                ops += diff(was.hand, own.hand, where + '/hand')
        if own.decision != was.decision:
            ops.append({'op': 'replace', 'path': '/decision', 'value': own.decision})
        ops += [{'op': 'add', 'path': '/log/-', 'value': e}
                for e in self._logs[seat][was.size:own.size]]
        if ops:
            parts.append(_dumps(ops)[1:-1])
        return '{"version":%d,"base":%d,"patch":[%s]}' % (self.version, base, ','.join(parts))

    def _read_events(self):
        """Each seat's log takes the game's new events as it reads them."""
        events = self.game.events
        for e in events[self._read:]:
            if e.to is None:           # (read alike by all: one copy)
                told = event(e)
                for log in self._logs.values():
                    log.append(told)
                continue
            for n, log in self._logs.items():
                seen = e.seen_by(n)            # as seat n reads it, or None
                if seen is not None:
                    log.append(event(seen))
        self._read = len(events)

    def answer(self, seat, body):
        """Apply a POSTed answer (bytes) for seat; BadRequest or Conflict if it
        cannot be, and then nothing changes."""
        decision_id, field, value = parse_answer(body)
        d = self.game.decision
        value = check_against(d, seat, decision_id, field, value)
        self._own(seat)            # the view it answered from: its reply is a patch to it
        self._apply(d, value)

    def _apply(self, d, value, save=True):
        self.game.answer(value)
        self.history.append(Answer(d.seat, NAME, value) if d.kind == 'name'
                            else Answer(d.seat, CHOICE, d.options[value], value))
        if save:
            self._save()
            for listener in self.listeners:
                listener(self.history[-1])
        self.version += 1
        self._before, self._owns, self._frames = self._owns, {}, {}
        waiters, self._waiters = self._waiters, []
        for waiter in waiters:
            if not waiter.done():      # (a waiter whose task was cancelled is)
                waiter.set_result(None)

    def _save(self):
        if self.record_path:
            record.write(self.record_path, self.record)

    # --- waiting ------------------------------------------------------------------

    async def change(self, version):
        """Return once the table has moved past version."""
        while self.version == version:
            # A future of the running loop: a table outlives a server that
            # stops, and may be served again by another loop.
            waiter = asyncio.get_running_loop().create_future()
            self._waiters.append(waiter)
            await waiter

    async def finished(self):
        while self.game.ending is None:
            await self.change(self.version)

    async def run_bots(self):
        """Play the bots' decisions as they come, until the game ends.  A
        decider runs off the event loop (a thinking bot may take a while)."""
        game = self.game
        while game.ending is None:
            d = game.decision
            decide = self.deciders.get(d.seat)
            if decide is None:
                await self.change(self.version)
                continue
            await asyncio.sleep(self.pause)
            try:
                value = await asyncio.to_thread(decide, game, d)
            except Exception as e:         # a bot's own fault: say so, leave the rest served
                sys.stderr.write('Error: the bot at seat %d failed (%s)\n' % (d.seat + 1, e))
                return
            if game.decision is d:
                self._apply(d, value)

