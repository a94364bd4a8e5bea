"""uvicorn's HTTP and WebSocket protocols, refusing as the app does: the few
requests uvicorn answers itself, before any route (a request line that is
not HTTP, a WebSocket handshake that is malformed), get the JSON error of
every other refusal, {"error": "one line"}, not uvicorn's text/plain."""
import json

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.datastructures import Headers
from websockets.http11 import Response


def error_body(reason):
    return json.dumps({'error': reason}).encode()


class HTTPProtocol(H11Protocol):
    def send_400_response(self, msg):
        body = error_body('the request is not HTTP/1.1')
        event = h11.Response(status_code=400, reason='Bad Request', headers=[
            (b'content-type', b'application/json'), (b'content-length', b'%d' % len(body)),
            (b'connection', b'close')])
        self.transport.write(self.conn.send(event))
        self.transport.write(self.conn.send(h11.Data(data=body)))
        self.transport.write(self.conn.send(h11.EndOfMessage()))
        self.transport.close()


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
