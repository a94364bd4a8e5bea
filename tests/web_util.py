"""Helpers shared by the web tests: a served table with Starlette's test client."""
import contextlib

from starlette.testclient import TestClient

from pipvm.play import loader
from pipvm.play.seats import Seating, parse_kind
from pipvm.web.app import make_app
from pipvm.web.drops import served_decision
from pipvm.web.table import Table


def seating(players=None, **seats):
    """Seating(players, seat N (from 1) = kind), e.g. seating(2, s2='random')."""
    return Seating({int(k[1:]) - 1: parse_kind(v) for k, v in seats.items()},
                   players=players)


def links(base, table):
    """{seat: its page's address under base} of a served table (None: the spectators')."""
    return {seat: '%s/play/%s/' % (base, t) for t, seat in table.tokens.items()}


@contextlib.contextmanager
def served(path, seats=Seating(), seed=1, **kwargs):
    """(table, client, {seat: URL prefix}) of a served game; None: the spectators'."""
    table = Table(loader.load_program(path), seats, seed, path=path, **kwargs)
    with TestClient(make_app([table])) as client:
        yield table, client, links('', table)


def served_view(game, seat):
    """game.view(seat) as a served table gives it: its decision says where a
    card may be dragged (pipvm/web/drops.py)."""
    return dict(game.view(seat), decision=served_decision(game, seat))


def post(client, url, body):
    return client.post(url + 'answer', json=body)
