"""In-process CPU microseconds per answer of a served table: the answer,
then the seat's live frame (its view's patch, with its decision and, since
the drag, the drops found by playing ahead: pipvm/web/drops.py).  Klondike
(an ask whose options name cards: every decision plays ahead) and Euchre
(card decisions: only `to`), the same random answers each run.  Run it with
PYTHONPATH set to each tree in turn, alternating; best of 5 runs."""
import os
import random
import sys
import time

from pipvm.play import loader
from pipvm.play.seats import Seating
from pipvm.web.table import Table

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GAMES = {'klondike_full': (1, 3, 300), 'euchre': (4, 1, 300)}


def run(name, players, seed, answers):
    path = os.path.join(ROOT, 'examples', name + '.pip')
    table = Table(loader.load_program(path), Seating(players=players), seed, path=path)
    rng = random.Random(seed)
    held = {n: None for n in range(table.seats)}
    spent = taken = 0
    while table.game.decision is not None and taken < answers:
        d = table.game.decision
        if d.kind == 'name':
            body = '{"decision": %d, "text": "P%d"}' % (d.id, d.seat + 1)
        else:
            ok = [i for i, o in enumerate(d.options) if o != 'Give up']
            body = '{"decision": %d, "choice": %d}' % (d.id, rng.choice(ok))
        start = time.perf_counter()
        table.answer(d.seat, body.encode())
        for seat in held:
            _, held[seat] = table.frame(seat, held[seat])
        spent += time.perf_counter() - start
        taken += 1
    return spent / taken * 1e6, taken


for name in sys.argv[1:] or GAMES:
    best = min(run(name, *GAMES[name]) for _ in range(5))
    print('%s\t%.0f\t%d' % (name, best[0], best[1]))
