"""Server-Sent Events: a stream opens with the current version and wakes on every change."""

import re
import threading
import time

from companion.live import Notifier

import benchlib  # bench/, put on the path by conftest: the same HTTP client the benchmarks use


def test_notifier_wakes_only_the_changed_table():
    notifier = Notifier()
    one = notifier.stream(notifier.open(1, 5), heartbeat=0.05)
    two = notifier.stream(notifier.open(2, 7), heartbeat=0.05)
    assert next(one).startswith("retry:") and next(two).startswith("retry:")
    assert next(one) == "event: changed\ndata: 5\n\n"
    assert next(two) == "event: changed\ndata: 7\n\n"
    notifier.publish(1, 6)
    assert next(one) == "event: changed\ndata: 6\n\n"
    assert next(two).startswith(":")  # table 2 only gets a heartbeat
    assert notifier.open_streams == 2
    one.close()
    two.close()
    assert notifier.open_streams == 0


def test_a_stream_waiting_is_woken_by_publish():
    notifier = Notifier()
    stream = notifier.stream(notifier.open(1, 1), heartbeat=10)
    next(stream), next(stream)
    got = []
    reader = threading.Thread(target=lambda: got.append(next(stream)))
    reader.start()
    time.sleep(0.05)
    notifier.publish(1, 2)
    reader.join(2)
    assert got == ["event: changed\ndata: 2\n\n"]
    stream.close()


def test_publish_can_wait_until_the_tables_streams_have_sent_it():
    notifier = Notifier()
    streams = [notifier.stream(notifier.open(1, 1), heartbeat=10) for _ in range(2)]
    for stream in streams:
        next(stream), next(stream)  # the retry line and the opening version
    got = []

    def serve(stream):  # as waitress does: write a message, then ask for the next one
        got.append(next(stream))
        got.append(next(stream))

    readers = [threading.Thread(target=serve, args=(s,)) for s in streams]
    for reader in readers:
        reader.start()
    time.sleep(0.05)
    began = time.monotonic()
    notifier.publish(1, 2, wait=30)  # back once both have sent it, long before 30 s
    assert time.monotonic() - began < 10
    assert got == ["event: changed\ndata: 2\n\n"] * 2
    # Now nobody asks the streams for more (as if their phones stalled): the publisher is
    # held only as long as `wait`.
    began = time.monotonic()
    notifier.publish(1, 3, wait=0.2)
    assert 0.15 < time.monotonic() - began < 10
    for reader in readers:
        reader.join(2)
    for stream in streams:
        stream.close()
    assert notifier.open_streams == 0


def test_the_stream_limit_is_checked_and_counted_in_one_step():
    notifier = Notifier()
    first = notifier.open(1, 1, limit=1)  # opened, its generator not started yet
    assert first is not None and notifier.open(1, 1, limit=1) is None
    notifier.close(first)      # a response closed before its stream ever ran frees its place
    notifier.close(first)      # and closing twice is harmless
    assert notifier.open_streams == 0 and notifier.open(1, 1, limit=1) is not None


def test_real_server_streams_changes(any_live_server):
    live_server = any_live_server  # on SQLite, and on PostgreSQL (through LISTEN/NOTIFY)
    code, phones = benchlib.new_table(live_server.port, 2)
    sock = benchlib.event_stream(live_server.port, code, timeout=5)
    buffer = b""

    def read_until(pattern):
        nonlocal buffer
        deadline = time.time() + 5
        while not re.search(pattern, buffer) and time.time() < deadline:
            buffer += sock.recv(4096)
        return re.search(pattern, buffer)

    assert read_until(rb"text/event-stream")
    opening = int(read_until(rb"event: changed\ndata: (\d+)").group(1))
    phone = phones[0]
    seat = phone.get(f"/t/{code}/state.json")[2]
    seat_id = int(re.search(r'"seat": ?(\d+)', seat).group(1))
    status, _, text, _ = phone.post(f"/t/{code}/act/score", {"seat": seat_id, "delta": 1, "csrf": phone.csrf},
                                    {"HX-Request": "true", "HX-Target": "live-body"})
    assert status == 200
    assert read_until(rb"data: %d\n" % (opening + 1))
    sock.close()


def test_a_seat_is_away_only_while_its_phone_has_no_open_page():
    from companion.live import Notifier
    live = Notifier()
    assert live.away_seconds(1, 7) >= 0  # never seen: counted from the start
    first, second = live.open(1, 0, seat=7), live.open(1, 0, seat=7)
    assert live.away_seconds(1, 7) == 0.0
    live.close(first)
    assert live.away_seconds(1, 7) == 0.0   # another page of that phone is still open
    live.close(second)
    assert 0.0 < live.away_seconds(1, 7) < 5
    assert live.away_seconds(2, 7) >= 0 and live.open(1, 0, seat=None)
