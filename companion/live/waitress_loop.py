"""Under waitress, a stream's connection leaves the server's loop between messages: waitress
walks every connection it holds each time it wakes, and a stream, which only sends from its
own thread, made that walk most of the loop's CPU (docs/performance.md, `--on-loop`). Out
of the loop its socket is peeked at to notice a phone gone, as under gunicorn; while out,
waitress's connection limit (cli.WAITRESS_CONNECTIONS) is one lower."""

import socket

# Windows has no MSG_DONTWAIT; the sockets peeked at are non-blocking there (waitress's) anyway.
PEEK = socket.MSG_PEEK | getattr(socket, "MSG_DONTWAIT", 0)


def peeks(raw):
    """closed() for a socket: has the other end shut it (an orderly close reads as end of
    file) or broken it? Never blocks."""

    def closed():
        try:
            return raw.recv(1, PEEK) == b""
        except (BlockingIOError, InterruptedError):
            return False
        except OSError:
            return True

    return closed


class OffLoop:
    """One waitress connection that steps out of its server's map between messages."""

    def __init__(self, channel):
        self.channel = channel
        self.map = channel._map
        self.fd = channel._fileno
        self.closed = peeks(channel.socket)
        self.adj = channel.server.adj
        self.trigger = channel.server.trigger
        self.wanted = self.out = False

    @classmethod
    def of(cls, environ):
        """The stream's connection, or None when the server is not waitress (or a waitress
        whose insides differ from those this was written for: pyproject.toml pins 3.x)."""
        channel = getattr(environ.get("waitress.client_disconnected"), "__self__", None)
        try:
            off = cls(channel)
            off.channel.total_outbufs_len, off.trigger.pull_trigger  # noqa: B018 (wrap() reads them)
        except AttributeError:
            return None
        return off if isinstance(off.map, dict) and off.fd is not None else None

    def gone(self):
        return not self.channel.connected or self.closed()

    def _want(self, out):
        if out != self.wanted and not self.trigger._closed:  # closed: the server has stopped
            self.wanted = out
            self.trigger.pull_trigger(self._settle)

    def _settle(self):
        """In waitress's loop thread, where waitress itself changes its map and closes its
        connections, so neither can happen halfway through this."""
        channel = self.channel
        if self.out and (not self.wanted or channel._fileno != self.fd):
            self.out = False
            self.adj.connection_limit += 1
            # the loop may have closed it just as it stepped out (it had it in hand)
            if channel._fileno == self.fd:
                self.map[self.fd] = channel
        elif self.wanted and not self.out and self.map.get(self.fd) is channel:
            del self.map[self.fd]
            self.adj.connection_limit -= 1
            self.out = True

    def wrap(self, chunks):
        """Yield the stream's chunks; after each has been written (waitress asks for the next
        one only then), the connection steps out of the loop if all of it went, and back in
        if not. It is back in the loop when the stream ends, so waitress closes it as ever."""
        try:
            for chunk in chunks:
                yield chunk
                self._want(not self.channel.total_outbufs_len)
        finally:
            self._want(False)
