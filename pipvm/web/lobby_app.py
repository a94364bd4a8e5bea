"""The lobby's routes (pipvm/web/lobby.py), added to the tables' app:

    GET  /                    -> /lobby/
    GET  /lobby/              the page
    GET  /lobby/state         {"games": [...], "tables": [...]}
    POST /lobby/new           {"game": I, "players": N} -> {"table": ID}
    POST /lobby/join          {"table": ID, "name": NAME} -> {"link": "/play/TOKEN/"}
    POST /play/TOKEN/rematch  {} -> {"link": "/play/TOKEN/"}: the seat at the rematch
"""
import contextlib
import json
import os

from starlette.requests import ClientDisconnect
from starlette.responses import FileResponse, JSONResponse, RedirectResponse
from starlette.routing import Route

from pipvm.web.app import HEADERS, STATIC, _body, _error, make_app
from pipvm.web.requests import BadRequest, Conflict


def make_lobby_app(lobby):
    async def home(request):
        return RedirectResponse('/lobby/', status_code=303)

    async def page(request):
        return FileResponse(os.path.join(STATIC, 'lobby.html'), headers=HEADERS)

    async def state(request):
        return JSONResponse(lobby.state(), headers=HEADERS)

    def handler(act, keys):
        async def handle(request):
            try:
                if request.headers.get('content-type', '').split(';')[0].strip() \
                        != 'application/json':
                    raise BadRequest('the body must be sent as application/json')
                obj = _object(await _body(request), keys)
                return JSONResponse(act(request, obj), headers=HEADERS)
            except BadRequest as e:
                return _error(400, str(e))
            except ClientDisconnect:
                return _error(400, 'the body was cut short')
            except KeyError:
                return _error(404, 'no such seat')
            except Conflict as e:
                return _error(409, str(e))
        return handle

    def new(request, obj):
        return {'table': lobby.new(obj['game'], obj['players'])}

    def join(request, obj):
        if type(obj['table']) is not str:
            raise BadRequest('"table" must be a string')
        return {'link': '/play/%s/' % lobby.join(obj['table'], obj['name'])}

    def rematch(request, obj):
        table, seat = lobby.seat_of(request.path_params['token'])
        return {'link': '/play/%s/' % lobby.rematch(table, seat)}

    routes = [
        Route('/', home),
        Route('/lobby/', page),
        Route('/lobby/state', state),
        Route('/lobby/new', handler(new, {'game', 'players'}), methods=['POST']),
        Route('/lobby/join', handler(join, {'table', 'name'}), methods=['POST']),
        Route('/play/{token}/rematch', handler(rematch, set()), methods=['POST']),
    ]

    @contextlib.asynccontextmanager
    async def nothing_to_run(app):         # people only: no bots to play
        yield
    return make_app(lobby, routes, nothing_to_run)


def _object(body, keys):
    try:
        obj = json.loads(body.decode('utf-8'))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise BadRequest('the body is not JSON') from None
    if type(obj) is not dict or set(obj) != keys:
        raise BadRequest('the body must be a JSON object of %s' % (
            ', '.join('"%s"' % k for k in sorted(keys)) or 'no keys'))
    return obj
