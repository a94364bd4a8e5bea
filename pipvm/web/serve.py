"""`pipvm serve GAME`: print a link per person's seat and one for spectators,
then serve the table until the game ends and a while more (or Ctrl-C)."""
import asyncio
import socket

from pipvm.core.errors import PipError

NEEDS = "pipvm serve needs the web extra: pip install 'pipvm[web]'"


def require():
    """PipError (one line saying what to install) when the web extra is missing."""
    try:
        import starlette  # noqa: F401
        import uvicorn  # noqa: F401
        import websockets  # noqa: F401
    except ImportError:
        raise PipError(None, NEEDS) from None


def main(args, seating):
    require()
    from pipvm.play import loader
    from pipvm.web.table import Table
    if args.resume:
        table = Table.resume(args.resume, args.bot_pause, args.new_links)
    else:
        program = loader.load_program(args.file, args.lang)
        table = Table(program, seating, args.seed, args.bot_pause, args.record, args.file)
    sock = listen(args.host, args.port)
    host, port = sock.getsockname()[:2]
    base = 'http://%s:%d/play/' % ('[%s]' % host if ':' in host else host, port)
    # flushed line by line: piped to a file or a program, the links are
    # needed while the server runs, not when it exits
    for token, seat in table.tokens.items():
        print(('watch: ' if seat is None else 'seat %d: ' % (seat + 1)) + base + token + '/',
              flush=True)
    if not table.tokens:
        print('the links given before work again at %s... (--new-links for new ones)' % base,
              flush=True)
    server = make_server([table])

    async def run():
        async def stop_after_game():
            await table.finished()
            await asyncio.sleep(args.linger)
            server.should_exit = True
        stopper = asyncio.ensure_future(stop_after_game())
        await server.serve(sockets=[sock])
        stopper.cancel()
    asyncio.run(run())
    return 0


def lobby_main(args):
    """`pipvm serve --lobby GAMES...`: serve the lobby until Ctrl-C (or kill:
    every table comes back from --db on the next start)."""
    require()
    import sqlite3

    from pipvm.web.lobby import Lobby
    from pipvm.web.lobby_app import make_lobby_app
    try:
        lobby = Lobby(args.lobby, args.db)
    except sqlite3.Error as e:
        raise PipError(None, '%s: %s' % (args.db, e)) from None
    sock = listen(args.host, args.port)
    host, port = sock.getsockname()[:2]
    print('lobby: http://%s:%d/lobby/' % ('[%s]' % host if ':' in host else host, port),
          flush=True)
    make_server(None, make_lobby_app(lobby)).run(sockets=[sock])
    return 0


def make_server(tables, app=None, **config):
    """A uvicorn server of these Tables (or of app); config: other settings
    of uvicorn.Config (a test's own HTTP protocol)."""
    import uvicorn

    from pipvm.web.app import make_app
    from pipvm.web.protocols import HTTPProtocol, WebSocketProtocol
    settings = dict(log_level='warning', http=HTTPProtocol, ws=WebSocketProtocol, lifespan='on',
                    ws_per_message_deflate=False,
                    proxy_headers=False)     # (no proxy in front: one layer less a request)
    settings.update(config)
    return uvicorn.Server(uvicorn.Config(app or make_app(tables), **settings))


def listen(host, port):
    """A socket bound to host:port, so the links printed carry the real port
    (with --port 0, one the system picks)."""
    try:
        family = socket.AF_INET6 if ':' in host else socket.AF_INET
        # IPPROTO_TCP named, so asyncio sets TCP_NODELAY on each connection
        # (with proto 0 it does not, and every response waits ~40 ms for an ACK).
        sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except (OSError, OverflowError) as e:
        raise PipError(None, 'cannot listen on %s port %d (%s)'
                       % (host, port, getattr(e, 'strerror', None) or e)) from None
    return sock
