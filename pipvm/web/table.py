"""One game at a served table: its seats' secret tokens, the answers people
send, the bots that play on the server, and the record.

Everything here runs on the server's event loop, one step at a time, so a
game is never changed by two requests at once.  Each change bumps `version`
and wakes whoever waits for one (the live channels, the bot loop).
"""
import asyncio
import hmac
import secrets
import sys

from pipvm.core.rng import OCamlRandom
from pipvm.play import loader
from pipvm.records import record
from pipvm.game.game import Game
from pipvm.records.record import CHOICE, NAME, Answer, Record
from pipvm.play.seats import Seating, parse_kind
from pipvm.play.terminal import random_seed
from pipvm.web.deciders import decider
from pipvm.web.requests import BadRequest, Conflict, check_against, parse_answer

MAX_STEPS = 1_000_000          # a program that never asks again cannot hold the server forever


class Table:
    def __init__(self, program, seating=Seating(), seed=None, pause=0.0, record_path=None,
                 path=None, max_steps=MAX_STEPS):
        """seating: who sits where (people unless a seat kind says otherwise);
        pause: seconds a bot waits before it answers, so people can follow;
        record_path: the record every answer is written to, as `pipvm run
        --record` writes it (pipvm/records/record.py; path: the game's file)."""
        seats = seating.check(program)
        size = program.team_size or 1
        self.seats = seats or max(program.counts) * size
        self.seed = random_seed() if seed is None else seed
        self.game = Game(program, seed=self.seed, players=seating.players, max_steps=max_steps)
        start = OCamlRandom(self.seed)       # the game's generator before it drew
        self.deciders = {n: d for n in range(self.seats)
                         if (d := decider(seating.specs.get(n, seating.default), n, start))}
        self.tokens = {secrets.token_urlsafe(18): n for n in range(self.seats)
                       if n not in self.deciders}
        self.tokens[secrets.token_urlsafe(18)] = None          # the spectators' link
        self.pause = pause
        self.record_path = record_path
        self.record = Record(
            record.relative(path, record_path) if record_path else path,
            loader.fingerprint(program) if record_path else None, self.seed, seating.players,
            max_steps, bots=str(seating.default),
            seats={n: str(s) for n, s in seating.specs.items()})
        self.history = self.record.answers         # of record.Answer, in order
        self.version = 0
        self._waiters = []         # futures to wake at the next change

    @classmethod
    def resume(cls, path, pause=0.0):
        """The table of a record, every answer in it given again (bots answer
        again, and must answer as recorded); its answers go on being added."""
        kept = record.read(path)
        game = record.resolve(kept.game, path)
        program = loader.load_program(game)
        if loader.fingerprint(program) != kept.fingerprint:
            raise record.RecordError(path, 'the game %s has changed since it was recorded '
                                           '(its fingerprint differs)' % kept.game)
        seating = Seating({n: parse_kind(k) for n, k in kept.seats.items()},
                          parse_kind(kept.bots), kept.players)
        table = cls(program, seating, kept.seed, pause, path, game,
                    kept.max_steps or MAX_STEPS)
        for number, answer in enumerate(kept.answers, 1):
            if answer.kind != record.REFUSED:      # a line the terminal refused changed nothing
                table._replay(number, answer, path)
        table._save()
        return table

    def _replay(self, number, answer, path):
        d = self.game.decision
        seat = answer.seat
        value = answer.text if answer.kind == NAME else answer.option
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

    def seat_of(self, token):
        """The seat (None: a spectator) a token stands for; KeyError if none.
        Compared in constant time, so timing tells nothing about the tokens."""
        found = [seat for t, seat in self.tokens.items()
                 if hmac.compare_digest(t.encode(), token.encode('utf-8', 'replace'))]
        if not found:
            raise KeyError(token)
        return found[0]

    def view(self, seat):
        return self.game.view(seat)

    def answer(self, seat, body):
        """Apply a POSTed answer (bytes) for seat; BadRequest or Conflict if it
        cannot be, and then nothing changes."""
        decision_id, field, value = parse_answer(body)
        d = self.game.decision
        self._apply(d, check_against(d, seat, decision_id, field, value))

    def _apply(self, d, value, save=True):
        self.game.answer(value)
        self.history.append(Answer(d.seat, NAME, value) if d.kind == 'name'
                            else Answer(d.seat, CHOICE, d.options[value], value))
        if save:
            self._save()
        self.version += 1
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

