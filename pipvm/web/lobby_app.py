"""The lobby's routes (pipvm/web/lobby.py), added to the tables' app:

    GET  /                    -> /lobby/
    GET  /lobby/              the page
    GET  /lobby/state         {"games": [...], "tables": [...]}
    POST /lobby/new           {"game": I, "players": N[, "name": NAME]} -> {"table": ID[, "link": ...]}
    POST /lobby/join          {"table": ID, "name": NAME} -> {"link": "/play/TOKEN/"}
    POST /play/TOKEN/rematch  {} -> {"link": "/play/TOKEN/"}: the seat at the rematch

Each seat given also goes back to the browser as its table's seat cookie
(`pip-seat-ID`, sent to /lobby/ only): with it, joining again under the
seat's name gives the seat back, on its link, from a new tab; someone else
typing that name is still refused.
"""
import contextlib
import json
import os

from starlette.requests import ClientDisconnect
from starlette.responses import FileResponse, JSONResponse, RedirectResponse
from starlette.routing import Route

from pipvm.web.app import HEADERS, STATIC, _body, _error, make_app
from pipvm.web.requests import BadRequest, Conflict, NotFound


def make_lobby_app(lobby):
    async def home(request):
        return RedirectResponse('/lobby/', status_code=303)

    async def page(request):
        return FileResponse(os.path.join(STATIC, 'lobby.html'), headers=HEADERS)

    def handler(act, *keys):
        """A POST route taking a JSON object of one of these sets of keys."""
        async def handle(request):
            try:
                if request.headers.get('content-type', '').split(';')[0].strip() \
                        != 'application/json':
                    raise BadRequest('the body must be sent as application/json')
                obj = _object(await _body(request), keys)
                seated = []            # (table, token) of each seat given: its cookie
                response = JSONResponse(act(request, obj, seated), headers=HEADERS)
                for tab, token in seated:
                    response.set_cookie(COOKIE + tab, token, max_age=KEEP, path='/lobby/',
                                        httponly=True, samesite='strict')
                return response
            except BadRequest as e:
                return _error(400, str(e))
            except ClientDisconnect:
                return _error(400, 'the body was cut short')
            except KeyError:
                return _error(404, 'no such seat')
            except NotFound as e:
                return _error(404, str(e))
            except Conflict as e:
                return _error(409, str(e))
        return handle

    def new(request, obj, seated):
        if 'name' not in obj:
            return {'table': lobby.new(obj['game'], obj['players'])}
        tab, token = lobby.new(obj['game'], obj['players'], obj['name'])
        seated.append((tab, token))
        return {'table': tab, 'link': '/play/%s/' % token}

    def join(request, obj, seated):
        tab = obj['table']
        if type(tab) is not str:
            raise BadRequest('"table" must be a string')
        token = lobby.join(tab, obj['name'], request.cookies.get(COOKIE + tab))
        seated.append((tab, token))
        return {'link': '/play/%s/' % token}

    def rematch(request, obj, seated):
        table, seat = lobby.seat_of(request.path_params['token'])
        token = lobby.rematch(table, seat)
        seated.append((lobby.table_id(token), token))
        return {'link': '/play/%s/' % token}

    async def state(request):
        held = lambda tab: request.cookies.get(COOKIE + tab)      # noqa: E731
        return JSONResponse(lobby.state(held), headers=HEADERS)

    routes = [
        Route('/', home),
        Route('/lobby/', page),
        Route('/lobby/state', state),
        Route('/lobby/new', handler(new, {'game', 'players'}, {'game', 'players', 'name'}),
              methods=['POST']),
        Route('/lobby/join', handler(join, {'table', 'name'}), methods=['POST']),
        Route('/play/{token}/rematch', handler(rematch, set()), methods=['POST']),
    ]

    @contextlib.asynccontextmanager
    async def nothing_to_run(app):         # people only: no bots to play
        yield
    return make_app(lobby, routes, nothing_to_run)


COOKIE = 'pip-seat-'            # + a table's id: the token of this browser's seat there
KEEP = 30 * 24 * 3600          # seconds a seat cookie is kept


def _object(body, keys):
    """The body's JSON object, which must hold exactly one of the sets of keys."""
    try:
        obj = json.loads(body.decode('utf-8'))
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise BadRequest('the body is not JSON') from None
    if type(obj) is not dict or set(obj) not in keys:
        raise BadRequest('the body must be a JSON object of %s' % ' or of '.join(
            ', '.join('"%s"' % k for k in sorted(ks)) or 'no keys' for ks in keys))
    return obj
