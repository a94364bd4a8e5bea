"""uvicorn's HTTP and WebSocket protocols, refusing as the app does: the few
requests uvicorn answers itself, before any route (a request line that is
not HTTP, a WebSocket handshake that is malformed), get the JSON error of
every other refusal, {"error": "one line"}, not uvicorn's text/plain."""
import json

from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.datastructures import Headers
from websockets.http11 import Response


def error_body(reason):
    return json.dumps({'error': reason}).encode()


class Corked:
    """A transport whose writes of one turn of the event loop leave in one
    system call: a response's head and body (uvicorn writes each as it
    comes) go out together, one send instead of two."""

    def __init__(self, transport, loop):
        self._transport, self._loop, self._out = transport, loop, []

    def write(self, data):
        if not data:
            return
        if not self._out:
            self._loop.call_soon(self._flush)
        self._out.append(data)

    def _flush(self):
        if self._out:
            data = b''.join(self._out)
            self._out.clear()
            if not self._transport.is_closing():
                self._transport.write(data)

    def close(self):
        self._flush()
        self._transport.close()

    def __getattr__(self, name):       # everything else as the transport does it
        return getattr(self._transport, name)


class _Refusing:
    """What both HTTP protocols share: corked writes, a JSON 400."""

    def connection_made(self, transport):
        super().connection_made(Corked(transport, self.loop))

    def send_400_response(self, msg):
        body = error_body('the request is not HTTP/1.1')
        self.transport.write(b'HTTP/1.1 400 Bad Request\r\ncontent-type: application/json\r\n'
                             b'content-length: %d\r\nconnection: close\r\n\r\n%s'
                             % (len(body), body))
        self.transport.close()


try:            # httptools parses in C (uvicorn's `standard` choice); h11 is pure Python
    from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol as _Base
except ImportError:
    _Base = H11Protocol


class HTTPProtocol(_Refusing, _Base):
    pass


class WebSocketProtocol(WebSocketsSansIOProtocol):
    def handle_connect(self, event):
        accept = self.conn.accept

        def accept_or_refuse(request):
            response = accept(request)
            if response.status_code == 101:
                return response
            body = error_body('not a WebSocket handshake (%s)' % response.reason_phrase.lower())
            return Response(response.status_code, response.reason_phrase, Headers([
                ('Content-Type', 'application/json'), ('Content-Length', str(len(body))),
                ('Connection', 'close')]), body)
        self.conn.accept = accept_or_refuse
        super().handle_connect(event)
