"""A live stream's connection steps out of waitress's loop while it streams (companion/live/waitress_loop.py):
its messages still go out, a phone that stops reading still gets all of them, a phone that
goes is noticed and its connection closed, and waitress's connection limit counts it all the
while."""

import json
import socket
import time

import benchlib
from companion import create_app
from companion.tables import store
from helpers import HX, waitress_in_thread


def wait_for(check, seconds=10):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if check():
            return True
        time.sleep(0.05)
    return check()


def server_side(server, sock):
    """waitress's connection for this client socket."""
    port = sock.getsockname()[1]
    found = [c for c in list(server.active_channels.values()) if c.addr and c.addr[1] == port]
    return found[0] if found else None


def read_until(sock, count, marker=b"event: live"):
    data = b""
    while data.count(marker) < count:
        chunk = sock.recv(65536)
        assert chunk, "the stream ended"
        data += chunk
    return data


def test_a_stream_is_out_of_the_loop_between_messages_and_closed_when_its_phone_goes(tmp_path):
    store.clear_cache()
    app = create_app({"DATA_DIR": str(tmp_path), "HEARTBEAT_SECONDS": 5})
    with waitress_in_thread(app, threads=8, channel_request_lookahead=1) as server:
        port = int(server.effective_port)
        limit = server.adj.connection_limit
        code, phones = benchlib.new_table(port, 2)
        seat = json.loads(phones[0].get(f"/t/{code}/state.json")[2])["state"]["seats"][0]["id"]

        def score():
            assert (
                phones[0].post(f"/t/{code}/act/score", {"seat": seat, "delta": 1, "csrf": phones[0].csrf}, HX)[0] == 200
            )

        # a phone on a slow link: a small receive window, set before it connects
        stream = socket.socket()
        stream.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        stream.settimeout(10)
        stream.connect(("127.0.0.1", port))
        stream.sendall(f"GET /t/{code}/events?page=screen HTTP/1.0\r\nHost: x\r\n\r\n".encode())
        stream.recv(256)
        channel = wait_for(lambda: server_side(server, stream)) and server_side(server, stream)
        assert channel is not None
        assert wait_for(lambda: channel._fileno not in server._map)
        assert wait_for(lambda: server.adj.connection_limit == limit - 1)  # still counted

        score()  # it still hears a change
        read_until(stream, 2)

        # A phone that stops reading: its socket fills, the rest waits in waitress's buffer and
        # the connection is back in the loop, which sends it once the phone reads again.
        channel.socket.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
        for _ in range(400):  # until a message no longer fits (the stream may fold changes)
            score()
            if wait_for(lambda: channel._fileno in server._map, 0.05):
                break
        assert channel._fileno in server._map and channel.total_outbufs_len
        version = json.loads(phones[0].get(f"/t/{code}/state.json")[2])["version"]
        read_until(stream, 1, f"id: {version}\n".encode())  # the last change, whatever came between
        assert wait_for(lambda: channel.total_outbufs_len == 0)

        stream.close()  # the phone goes: its stream ends and waitress closes the connection
        assert wait_for(lambda: not channel.connected)
        assert wait_for(lambda: json.loads(phones[1].get("/healthz")[2])["open_streams"] == 0)
        assert wait_for(lambda: server.adj.connection_limit == limit)
    store.clear_cache()
