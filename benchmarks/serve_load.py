"""Load on `pipvm serve`'s server: many games at once on one server, every
seat a scripted client on localhost (the live WebSocket for views, POST for
answers).  Bounded in time; it reports answers per second and the answers'
latency, and checks that every game reached its winner with nothing lost
(every answer taken once, no refusal, the server's count equal to the
clients').  Each client keeps its view as the page does: the whole view
first, then the patches the live channel sends; it answers as the page
does, saying the version it answers from (Pip-Base), so the reply is a
patch too.  A run that passes --limit ends with a summary of what was
done, not a traceback.  Beside answers per second, which move with what
else the machine runs, it reports the CPU time the server and the clients
each spent per answer (from /proc), the measure of the server itself.

It also measures the update after an answer in a long game (--long
answers of Crazy Eights): its size and the time to build it, against the
whole view that was sent before patches.

    python benchmarks/serve_load.py [--games 50] [--game examples/euchre.pip] [--long 6000]

The server runs in a child process (its own interpreter and GIL), the
clients on asyncio in this one.  Needs the web and test extras.
"""
import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import time

from common import ROOT

from pipvm.web.patch import apply

import httpx2
from websockets.asyncio.client import connect
from websockets.exceptions import WebSocketException


def serve(path, games, players):
    """The child: serve `games` tables and print their links as one JSON line."""
    from pipvm.play import loader
    from pipvm.play.seats import Seating
    from pipvm.web.serve import listen, make_server
    from pipvm.web.table import Table
    program = loader.load_program(path)
    tables = [Table(
        program, Seating(players=players), seed=i + 1) for i in range(games)]
    sock = listen('127.0.0.1', 0)
    links = [{str(seat): token for token, seat in t.tokens.items() if seat is not None}
             for t in tables]
    print(json.dumps({'port': sock.getsockname()[1], 'links': links}), flush=True)
    make_server(tables).run(sockets=[sock])


class Tally:
    def __init__(self):
        self.latencies, self.refused, self.taken = [], [], {}
        self.frames = self.frame_bytes = 0
        self.reply_bytes = self.patch_replies = 0     # the answers' replies: patches, as the page asks
        self.errors = []           # (game, seat, the exception) of a seat that lost its server


class Poster:
    """One seat's keep-alive HTTP/1.1 connection for its answers: the least a
    client does (a general client took more CPU an answer than the server,
    and the benchmark measured the clients).  An idle connection is opened
    again before the server's keep-alive (5 s) would end it under a request."""

    IDLE = 2.0

    def __init__(self, base):
        self.host, port = base.split('//', 1)[1].split(':')
        self.port, self.streams, self.used = int(port), None, 0.0

    async def post(self, path, body, headers):
        """(status, body bytes) of a POST of this JSON body."""
        if self.streams is None or time.monotonic() - self.used > self.IDLE:
            self.close()
            self.streams = await asyncio.open_connection(self.host, self.port)
        reader, writer = self.streams
        data = json.dumps(body).encode()
        writer.write(b'POST %s HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\n'
                     b'Content-Length: %d\r\n%s\r\n%s' % (
                         path.encode(), self.host.encode(), len(data),
                         b''.join(b'%s: %s\r\n' % (k.encode(), v.encode())
                                  for k, v in headers.items()), data))
        head = await reader.readuntil(b'\r\n\r\n')
        length = next(int(line.split(b':', 1)[1]) for line in head.split(b'\r\n')
                      if line.lower().startswith(b'content-length:'))
        reply = await reader.readexactly(length)
        self.used = time.monotonic()
        return int(head[9:12]), reply

    def close(self):
        if self.streams is not None:
            self.streams[1].close()
            self.streams = None


async def seat(base, token, game, number, tally):
    """One scripted seat: answer each decision the live channel shows it, at
    random from a seed of its own, until the game ends; its last view."""
    rng = random.Random(game * 100 + number)
    poster = Poster(base)
    try:
        return await play(poster, base, token, game, number, tally, rng)
    finally:
        poster.close()


async def play(poster, base, token, game, number, tally, rng):
    async with connect(base.replace('http', 'ws') + '/play/%s/live' % token) as ws:
        view = None
        async for message in ws:
            live = json.loads(message)
            tally.frames += 1
            tally.frame_bytes += len(message)
            view = live['view'] if 'view' in live else apply(view, live['patch'])
            version = live['version']
            d = view['decision']
            if view['ending'] is not None:
                return view
            if d is None:
                continue
            body = ({'decision': d['id'], 'text': 'P%d' % (number + 1)} if d['kind'] == 'name'
                    else {'decision': d['id'], 'choice': rng.randrange(len(d['options']))})
            start = time.perf_counter()
            # Pip-Base: the version it answers from, so the reply is a patch, as the page's is
            status, reply = await poster.post('/play/%s/answer' % token, body,
                                              {'Pip-Base': str(version)})
            tally.latencies.append(time.perf_counter() - start)
            if status != 200:
                tally.refused.append((game, number, status, reply.decode('utf-8', 'replace')))
            else:
                tally.taken[game] = tally.taken.get(game, 0) + 1
                tally.reply_bytes += len(reply)
                tally.patch_replies += b'"patch":' in reply[:40]


async def guarded(seat, game, number, tally):
    """A seat's last view, or None if its connection failed (said in the summary)."""
    try:
        return await seat
    except (OSError, asyncio.IncompleteReadError, httpx2.HTTPError, WebSocketException) as e:
        tally.errors.append((game, number, e))
        return None


async def load(base, links, limit):
    tally = Tally()
    async with httpx2.AsyncClient(timeout=limit) as client:        # for the last counts
        tasks = [guarded(seat(base, token, g, int(n), tally), g, int(n), tally)
                 for g, seats in enumerate(links) for n, token in seats.items()]
        start = time.perf_counter()
        try:
            views = await asyncio.wait_for(asyncio.gather(*tasks), limit)
        except asyncio.TimeoutError:
            views = None           # the summary says how far it got
        elapsed = time.perf_counter() - start
        counts = []
        for seats in links:
            r = await client.get('%s/play/%s/state' % (base, next(iter(seats.values()))))
            counts.append(int(r.headers['Pip-Version']))
    return tally, views, elapsed, counts


def long_game(answers):
    """(bytes, ms) of the update after one more answer in a game of this many
    answers, and of the whole view (what was sent before patches)."""
    from pipvm.play import loader
    from pipvm.play.seats import Seating
    from pipvm.web.table import Table
    program = loader.load_program(os.path.join(ROOT, 'examples', 'crazy_eights.pip'))
    table = Table(program, Seating(players=2), seed=1)       # seed 1 goes on past 6,000
    rng = random.Random(1)

    def step():
        d = table.game.decision
        table._apply(d, 'P%d' % d.seat if d.kind == 'name' else rng.randrange(len(d.options)))
    while len(table.history) < answers - 1 and table.game.ending is None:
        step()
    assert table.game.ending is None, 'the long game ended early'
    _, base = table.frame(0, None)
    step()
    start = time.perf_counter()
    frame, _ = table.frame(0, base)
    patch_ms = (time.perf_counter() - start) * 1000
    start = time.perf_counter()
    whole = json.dumps({'version': table.version, 'view': table.game.view(0)})
    whole_ms = (time.perf_counter() - start) * 1000
    return len(table.history), len(frame), patch_ms, len(whole), whole_ms


def cpu_seconds(pid):
    """The CPU time (user and system) a process has used, or None off Linux."""
    try:
        with open('/proc/%d/stat' % pid) as f:
            fields = f.read().rsplit(')', 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--games', type=int, default=50)
    ap.add_argument('--game', default=os.path.join(ROOT, 'examples', 'euchre.pip'))
    ap.add_argument('--players', type=int, default=4)
    ap.add_argument('--limit', type=float, default=300, help='seconds the whole may take')
    ap.add_argument('--long', type=int, default=6000, metavar='ANSWERS',
                    help='the length of the game whose update is measured; 0: none')
    ap.add_argument('--serve', action='store_true', help=argparse.SUPPRESS)
    args = ap.parse_args()
    args.game = os.path.abspath(args.game)         # the child runs in ROOT
    if args.serve:
        return serve(args.game, args.games, args.players)
    if args.long:
        n, size, ms, whole, whole_ms = long_game(args.long)
        print('after answer %d of a Crazy Eights game: the update is %.1f KB, built in %.2f ms '
              '(the whole view: %.0f KB in %.1f ms)' % (n, size / 1000, ms, whole / 1000, whole_ms))
    child = subprocess.Popen([sys.executable, __file__, '--serve', '--games', str(args.games),
                              '--game', args.game, '--players', str(args.players)],
                             stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        line = child.stdout.readline()
        if not line:
            print('FAILED: the server did not start')
            return 1
        started = json.loads(line)
        base = 'http://127.0.0.1:%d' % started['port']
        cpu, mine = cpu_seconds(child.pid), cpu_seconds(os.getpid())
        tally, views, elapsed, counts = asyncio.run(load(base, started['links'], args.limit))
        cpu = cpu_seconds(child.pid) - cpu if cpu is not None else None
        mine = cpu_seconds(os.getpid()) - mine if mine is not None else None
    finally:
        child.terminate()
        child.wait(10)
    answers = len(tally.latencies)
    lat = sorted(tally.latencies) or [0]
    print('%d games of %s, %d seats, on one server' % (
        args.games, os.path.basename(args.game), sum(map(len, started['links']))))
    print('  %d answers in %.2f s: %.0f answers/s' % (answers, elapsed, answers / elapsed))
    if cpu is not None and answers:
        # what the server itself spent: the measure of a machine others share
        print('  the server\'s CPU: %.2f ms an answer, %.0f answers per CPU second; '
              'the clients\': %.2f ms an answer' % (cpu / answers * 1000, answers / cpu,
                                                     mine / answers * 1000))
    print('  answer latency: median %.1f ms, 99th percentile %.1f ms, slowest %.1f ms' % (
        statistics.median(lat) * 1000, lat[int(len(lat) * 0.99)] * 1000, lat[-1] * 1000))
    print('  %d live messages, %.2f KB on average; answers\' replies %.2f KB on average '
          '(%d of %d patches)' % (
              tally.frames, tally.frame_bytes / max(tally.frames, 1) / 1000,
              tally.reply_bytes / max(answers, 1) / 1000, tally.patch_replies, answers))
    taken = [tally.taken.get(g, 0) for g in range(args.games)]
    if views is None:
        print('FAILED: not finished within --limit %g s (%d answers taken by the server)'
              % (args.limit, sum(counts)))
        return 1
    won = sum(v is not None and v['ending'] is not None and v['ending']['kind'] == 'winner'
              for v in views)
    problems = []
    if tally.errors:
        game, number, e = tally.errors[0]
        problems.append('%d seats lost their connection, e.g. game %d seat %d: %s'
                        % (len(tally.errors), game + 1, number + 1, type(e).__name__))
    if won != len(views):
        problems.append('%d of %d seats saw no winner' % (len(views) - won, len(views)))
    if tally.refused:
        problems.append('%d answers refused, e.g. %s' % (len(tally.refused), tally.refused[0]))
    if taken != counts:
        problems.append('answers lost: the clients had %s taken, the server counts %s'
                        % (taken, counts))
    for p in problems:
        print('FAILED: ' + p)
    if not problems:
        print('  every game reached its winner; %d answers sent, %d taken by the server'
              % (answers, sum(counts)))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main())
