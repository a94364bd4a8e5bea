"""The HTTP side of a served table (Starlette): the page, the JSON API and
the live channel.  docs/web.md documents the API.

    GET  /play/TOKEN/         the page
    GET  /play/TOKEN/state    view(seat) as JSON, with the last page of its log
    GET  /play/TOKEN/log?before=I   the page of the log before event I
    POST /play/TOKEN/answer   {"decision": ID, "choice": I} or {"decision": ID, "text": NAME};
                              the reply: the new view, or with `Pip-Base: B` (the version
                              answered from) {"version": N, "base": B, "patch": OPS}
    WS   /play/TOKEN/live     {"version": N, "view": VIEW} on connecting, then
                              {"version": N, "base": B, "patch": OPS} each time the game moves on

The table's version (how many answers it has taken) comes with every view,
in the live message and as the Pip-Version header of /state and /answer, so
a page can tell an old view that arrives late from a new one.

A token stands for one seat of one table (or for its spectators); the live
channel sends what /state returns, or a patch between two such views, so
what a seat may see is decided in one place, pipvm/game/view.py.  Every
error, routed or not, is JSON: {"error": "one line"}.
"""
import asyncio
import contextlib
import gzip
import os
import re

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.requests import ClientDisconnect, Request
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocketDisconnect

from pipvm.web.requests import MAX_BODY, BadRequest, Conflict, check_name
from pipvm.web.table import hashed

STATIC = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'static')
# The page runs only its own files: no inline script, so program text that
# slipped into markup still could not run; and the token never leaves in a Referer.
HEADERS = {
    'Content-Security-Policy': "default-src 'none'; script-src 'self'; style-src 'self'; "
                               "connect-src 'self'; img-src 'self'; base-uri 'none'; "
                               "form-action 'none'; frame-ancestors 'none'",
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
    'Cache-Control': 'no-store',
}


def make_app(tables, routes=(), lifespan=None):
    """The app serving these Tables (one for `pipvm serve`; many for a load
    test; a lobby's, which it adds to, with routes of its own), an ASGI
    app.  tables: a list, or anything with seat_of(token) -> (table, seat)."""

    def seat(request):
        """(table, seat) of the request's token; KeyError if it has none."""
        token = request.path_params['token']
        if hasattr(tables, 'seat_of'):
            return tables.seat_of(token)
        key = hashed(token)            # once, not once a table
        for table in tables:
            if key in table.links:
                return table, table.links[key]
        raise KeyError(token)

    async def page(request):
        try:
            seat(request)
        except KeyError:
            return _error(404, 'no such seat')
        return FileResponse(os.path.join(STATIC, 'table.html'), headers=HEADERS)

    async def state(request):
        try:
            table, n = seat(request)
        except KeyError:
            return _error(404, 'no such seat')
        return _view(table, n)

    async def log(request):
        try:
            table, n = seat(request)
        except KeyError:
            return _error(404, 'no such seat')
        before = request.query_params.get('before', '')
        if not before.isdigit() or len(before) > 9:
            return _error(400, '"before" must be a whole number')
        start, events = table.log(n, int(before))
        return JSONResponse({'start': start, 'log': events}, headers=HEADERS)

    async def answer(request):
        try:
            table, n = seat(request)
        except KeyError:
            return _error(404, 'no such seat')
        try:
            if request.headers.get('content-type', '').split(';')[0].strip() != 'application/json':
                raise BadRequest('the body must be sent as application/json')
            table.answer(n, await _body(request))
            base = request.headers.get('pip-base', '')
            reply = table.reply(n, int(base) if base.isdigit() and len(base) < 10 else None)
        except BadRequest as e:
            return _error(400, str(e))
        except ClientDisconnect:           # gone before its body came: nothing to answer
            return _error(400, 'the body was cut short')
        except Conflict as e:
            return _error(409, str(e))
        return _reply(request, reply.encode(), dict(HEADERS, **{'Pip-Version': str(table.version)}))

    async def live(websocket):
        try:
            table, n = seat(websocket)
        except KeyError:
            await _deny(websocket, 404, 'no such seat')
            return
        await websocket.accept()
        # The channel waits for the table's next change alone; a watcher
        # cancels it when the client leaves (a task and a wait for each
        # change, to watch both, cost more than the frame itself).
        sending = asyncio.current_task()
        gone = []

        async def watch():
            with contextlib.suppress(Exception):
                await _until_closed(websocket)
            gone.append(True)
            sending.cancel()
        closed = asyncio.ensure_future(watch())
        spectator = _spectator(websocket) if n is None else None
        if n is None:
            table.spectators[spectator] += 1
        try:
            sent = None            # (version, view without log, log size) last sent
            while True:
                message, sent = table.frame(n, sent)
                await websocket.send_text(message)
                await table.change(sent[0])
        except asyncio.CancelledError:
            if not gone:
                raise                  # the server stops: not ours to swallow
            sending.uncancel()
        except (WebSocketDisconnect, RuntimeError):
            pass                       # the client went away while we were sending
        finally:
            if n is None:
                table.spectators[spectator] -= 1
                if not table.spectators[spectator]:
                    del table.spectators[spectator]
            closed.cancel()

    @contextlib.asynccontextmanager
    async def run_bots(app):
        bots = [asyncio.ensure_future(t.run_bots()) for t in tables]
        yield
        for task in bots:
            task.cancel()

    async def no_such_channel(websocket):
        await _deny(websocket, 404, 'no such page')

    async def no_icon(request):
        return Response(status_code=204)

    async def http_error(request, e):
        return _error(e.status_code, REASONS.get(e.status_code, 'the request failed'))

    async def server_error(request, e):
        return _error(500, 'the server failed')

    routes = [
        Route('/favicon.ico', no_icon),
        Route('/play/{token}/', page),
        Route('/play/{token}/state', state),
        Route('/play/{token}/log', log),
        Route('/play/{token}/answer', answer, methods=['POST']),
        WebSocketRoute('/play/{token}/live', live),
        *routes,
        WebSocketRoute('/{path:path}', no_such_channel),     # (else a bare 403)
        Mount('/static', StaticFiles(directory=STATIC), name='static'),
    ]
    app = Starlette(
        routes=routes, lifespan=lifespan or run_bots,
        # Full views and pages compress well; live frames are small already.
        middleware=[Middleware(GZipMiddleware, minimum_size=COMPRESS_FROM)],
        exception_handlers={HTTPException: http_error, Exception: server_error})

    async def served(scope, receive, send):
        """The app, answers taken straight to their handler: they are most of
        the requests, and Starlette's layers round a route (the error pages,
        compression, the routes tried in turn) were a fifth of the server's
        time an answer.  The handler's refusals are its own, JSON as the
        app's; an error past it is the app's 500."""
        if scope['type'] == 'http' and scope['method'] == 'POST':
            found = ANSWER.fullmatch(scope['path'])
            if found:
                scope['path_params'] = {'token': found[1]}
                try:
                    response = await answer(Request(scope, receive))
                except Exception:
                    response = _error(500, 'the server failed')
                await response(scope, receive, send)
                return
        await app(scope, receive, send)
    return served


ANSWER = re.compile(r'/play/([^/]+)/answer')     # as the route /play/{token}/answer matches
COMPRESS_FROM = 1000           # bytes: a response this long is gzipped if the client accepts it


def _reply(request, body, headers):
    """An answer's reply (JSON bytes), gzipped as the middleware would (the
    answers do not pass it)."""
    if len(body) >= COMPRESS_FROM and 'gzip' in request.headers.get('accept-encoding', ''):
        body = gzip.compress(body, 9)
        headers.update({'Content-Encoding': 'gzip', 'Vary': 'Accept-Encoding'})
    return Response(body, media_type='application/json', headers=headers)


REASONS = {404: 'no such page', 405: 'method not allowed'}


async def _body(request):
    """The body, refused as soon as it is over the limit (never read whole)."""
    length = request.headers.get('content-length', '')
    if length.isdigit() and int(length) > MAX_BODY:
        raise BadRequest('the body is over %d bytes' % MAX_BODY)
    body = b''
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise BadRequest('the body is over %d bytes' % MAX_BODY)
    return body


def _spectator(websocket):
    """The name a spectator's live channel gives (`live?name=Zoe`), checked as
    a player's name is; None (unnamed) if it gives none or one we refuse."""
    try:
        return check_name(websocket.query_params.get('name'))
    except BadRequest:
        return None


async def _until_closed(websocket):
    """What the client sends is not read (answers go by POST); wait for it to leave."""
    while (await websocket.receive())['type'] != 'websocket.disconnect':
        pass


def _view(table, seat):
    return JSONResponse(table.view(seat), headers=dict(HEADERS, **{
        'Pip-Version': str(table.version)}))


async def _deny(websocket, status, reason):
    """Refuse a WebSocket before it opens with a JSON error, as an HTTP
    request gets (the ASGI denial response; a server without it closes)."""
    try:
        await websocket.send_denial_response(_error(status, reason))
    except RuntimeError:
        await websocket.close(code=1008)


def _error(status, reason):
    return JSONResponse({'error': reason}, status_code=status, headers=HEADERS)
