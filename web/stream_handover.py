"""Taking a live stream's connection from waitress: the request read, its socket handed
to the stream loop (``web.streams.StreamServer``), on waitress's own port.

Waitress accepts every connection and reads every request. Where a connection's one
request is a stream the loop serves (``StreamServer.route``), the socket leaves waitress —
out of its map, its buffers closed — before any worker thread sees the request; anything
else (a page, a refused stream, a request behind another on a kept-alive connection) stays
with waitress and its routes.
"""

from __future__ import annotations

from waitress.channel import HTTPChannel

from web.streams import StreamServer


def hand_streams_over(server, app) -> StreamServer:
    """Serve ``app``'s live streams from a ``StreamServer`` beside the waitress ``server``
    (as ``waitress.create_server`` made it, not yet running): waitress hands it each
    stream request it reads, with the connection's socket; closing ``server`` closes it."""
    streams = StreamServer(app.config["HUB"], app.config["OPEN_TOURNAMENT"]).start()
    plain_add_task, plain_close = server.add_task, server.close

    def add_task(channel: HTTPChannel) -> None:
        if channel.socket is None:  # handed over already: what a client sends after a stream is dropped
            return
        if not (getattr(channel, "reading", False) and _hand_over(channel, streams)):
            plain_add_task(channel)

    def close() -> None:
        streams.stop()
        plain_close()

    server.add_task, server.close = add_task, close
    server.channel_class = _Channel
    return streams


class _Channel(HTTPChannel):
    """Waitress's connection, marked while the server's loop reads a request on it: only
    then (not from a worker that finished the request before it) may the socket leave."""

    reading = False

    def received(self, data):
        self.reading = True
        try:
            return super().received(data)
        finally:
            self.reading = False


def _hand_over(channel: HTTPChannel, streams: StreamServer) -> bool:
    """Give ``channel``'s socket to ``streams`` if its one request is a stream it serves."""
    if len(channel.requests) != 1 or channel.total_outbufs_len or channel.will_close:
        return False
    request = channel.requests[0]
    what = streams.route(request.command, request.path, request.query, request.headers)
    if what is None:
        return False
    sock = channel.socket
    channel.requests.clear()
    request.close()
    channel.del_channel()  # out of waitress's map: its loop no longer polls the socket
    channel.connected = False
    channel.socket = None
    for buffer in channel.outbufs:
        buffer.close()
    streams.take(sock, what)
    return True
