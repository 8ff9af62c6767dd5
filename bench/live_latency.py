"""Live latency: time from a score POST to every phone of that table holding the change.

    python bench/live_latency.py --tables 8 --phones 8 [--changes 400] [--interval 3]

Starts the real server, seats N phones at each of M tables, opens one event stream per
phone (M x N streams, read by one selector loop in a process of its own, so the measuring
side adds no thread contention), then each phone posts a score change every `interval`
seconds on average until `changes` changes have been posted. A phone holds a change when a
stream message with its parts (id = the version) has arrived whole, or, for the phone that
tapped, when its tap's answer came back, whichever is first. Prints one JSON object per
change and a summary last: seen p50/p95/p99/max, missed, errors, streams, cpu_s, peak_rss_mb, rss_kb_per_stream,
stream_kb (what the streams carried on the wire, gzip accepted as a browser does) and
stream_decoded_kb (the same decompressed); db_cpu_s and bench_cpu_s are what the database
and this bench itself took of the same cores meanwhile.

With --database postgresql://… the server keeps its tables there (--database temp starts a
throwaway PostgreSQL for the run), and --workers N runs N processes (gunicorn + gevent);
cpu_s then counts every server process, not the database's.

With --bare each stream sends only the version, with no render (the server runs with
COMPANION_BENCH_BARE set, live.py): the transport's floor on this machine, to print beside
the same run without it (--bare-too runs both, bare first, and prints both summaries).
"""

import argparse
import json
import multiprocessing
import os
import random
import re
import selectors
import threading
import time
import zlib

from benchlib import Server, TempPostgres, cpu_seconds, event_stream, new_table, percentile

TIMEOUT = 5.0


class Streams:
    """Every event stream, read in one thread; records when each stream saw each version."""

    def __init__(self, on_message=None):
        self.on_message = on_message
        self.selector = selectors.DefaultSelector()
        self.seen = {}  # (table, stream index) -> {version: time}
        self.bytes = 0
        self.lock = threading.Lock()
        self.buffers = {}
        self.decoded = 0  # what the streams carried once decompressed
        self.inflate = {}  # socket -> its gzip decoder (None: plain), once its headers are read
        self.heads = {}  # socket -> its headers so far
        self.running = True

    def open(self, port, code, cookie, key, known=0):
        # a page loaded at that version, accepting gzip as a browser does
        sock = event_stream(port, code, cookie, known=known, gzip=True)
        sock.setblocking(False)
        self.buffers[sock] = b""
        self.seen[key] = {}
        self.selector.register(sock, selectors.EVENT_READ, key)

    def answered(self, timeout=120):
        """Wait until every stream has answered (its retry line comes once the server has set
        it up: who sits where read, what the page holds rendered), so the taps that follow
        are timed against streams that are open, not still opening."""
        waiting = set(self.buffers)
        deadline = time.time() + timeout
        while waiting and time.time() < deadline:
            for selected, _ in self.selector.select(0.2):
                sock = selected.fileobj
                if sock not in waiting:
                    continue
                try:
                    chunk = sock.recv(65536)
                except BlockingIOError:
                    continue
                self.bytes += len(chunk)
                self.buffers[sock] += self.decode(sock, chunk)
                if b"retry:" in self.buffers[sock] or not chunk:
                    waiting.discard(sock)
        return not waiting

    def run(self):
        while self.running:
            for selected, _ in self.selector.select(0.2):
                now = time.perf_counter()
                sock, key = selected.fileobj, selected.data
                try:
                    chunk = sock.recv(65536)
                except BlockingIOError:
                    continue
                if not chunk:
                    self.selector.unregister(sock)
                    continue
                self.bytes += len(chunk)
                data = self.buffers[sock] + self.decode(sock, chunk)
                *messages, self.buffers[sock] = data.split(b"\n\n")
                for message in messages:
                    found = re.match(rb"id: (\d+)\nevent: live\n", message)
                    if found:  # the message is whole: the page holds its parts now
                        with self.lock:
                            self.seen[key].setdefault(int(found.group(1)), now)

    def decode(self, sock, chunk):
        """What a chunk adds to the stream's text: nothing until its headers are read, then
        the body, gunzipped if it came compressed."""
        if sock not in self.inflate:
            head = self.heads.pop(sock, b"") + chunk
            if b"\r\n\r\n" not in head:
                self.heads[sock] = head
                return b""
            headers, chunk = head.split(b"\r\n\r\n", 1)
            gzipped = b"content-encoding: gzip" in headers.lower()
            self.inflate[sock] = zlib.decompressobj(16 + zlib.MAX_WBITS) if gzipped else None
        inflate = self.inflate[sock]
        text = inflate.decompress(chunk) if inflate else chunk
        self.decoded += len(text)
        return text

    def first_seen_at_or_after(self, key, version):
        with self.lock:
            times = [t for v, t in self.seen[key].items() if v >= version]
        return min(times) if times else None


def read_elsewhere(port, specs, ready, stop, out):
    """The stream reader in a process of its own, so the tapping threads here never delay
    its timestamps (perf_counter is the same monotonic clock in both processes)."""
    streams = Streams()
    for code, cookie, key, known in specs:
        streams.open(port, code, cookie, key, known)
    streams.answered()
    ready.set()
    reader = threading.Thread(target=streams.run, daemon=True)
    reader.start()
    stop.wait()
    streams.running = False
    reader.join()
    out.put((streams.seen, streams.bytes, streams.decoded))


class SeenElsewhere(Streams):
    def __init__(self, seen, received, decoded):
        super().__init__()
        self.seen, self.bytes, self.decoded = seen, received, decoded


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--phones", type=int, default=8)
    parser.add_argument("--changes", type=int, default=400)
    parser.add_argument("--interval", type=float, default=3.0, help="seconds between one phone's taps")
    parser.add_argument("--threads", type=int, default=None, help="server threads (default: the CLI's)")
    parser.add_argument(
        "--database", default=None, help="postgresql://… (or 'temp' for a throwaway PostgreSQL); default SQLite"
    )
    parser.add_argument("--workers", type=int, default=None, help="server processes (gunicorn + gevent)")
    parser.add_argument("--bare", action="store_true", help="streams send only the version: the floor")
    parser.add_argument(
        "--on-loop", action="store_true", help="under waitress, streams stay in its loop (live/waitress_loop.py off)"
    )
    parser.add_argument("--bare-too", action="store_true", help="the floor first, then the real run")
    args = parser.parse_args()

    streams_total = args.tables * args.phones
    cluster = TempPostgres().start() if args.database == "temp" else None
    database = cluster.url if cluster else args.database
    try:
        for bare in [True, False] if args.bare_too else [args.bare]:
            run(args, streams_total, database, cluster, bare)
    finally:
        if cluster:
            cluster.stop()


def run(args, streams_total, database, cluster=None, bare=False):
    # None: started exactly as the README starts it
    server = Server(
        threads=args.threads,
        database=database,
        workers=args.workers,
        env={
            name: "1" for name, on in (("COMPANION_BENCH_BARE", bare), ("COMPANION_BENCH_ON_LOOP", args.on_loop)) if on
        },
    )
    errors, results = 0, []
    try:
        tables = [new_table(server.port, args.phones) for _ in range(args.tables)]
        # Each phone's page was just loaded: its stream opens at the table's version, as a
        # real page's does (?v=), so nothing is sent until the first change.
        states = [json.loads(phones[0].get(f"/t/{code}/state.json")[2]) for code, phones in tables]
        versions = [state["version"] for state in states]
        # what the phones tap: a seat of their table (asked now, so the timed part is taps only)
        seat_ids = [[s["id"] for s in state["state"]["seats"]] for state in states]
        specs = [
            (code, phone.cookies["tc"], (t, p), versions[t])
            for t, (code, phones) in enumerate(tables)
            for p, phone in enumerate(phones)
        ]
        rss_before = server.rss_mb()  # the tables made, no stream open yet
        context = multiprocessing.get_context("fork")
        ready, stop, out = context.Event(), context.Event(), context.Queue()
        reader = context.Process(target=read_elsewhere, args=(server.port, specs, ready, stop, out))
        reader.start()
        ready.wait(180)  # every stream has answered
        time.sleep(1.0)
        cpu_before = server.cpu_seconds()
        # The machine's other users of its cores: the database, and this bench (taps, reader).
        db_before = cluster.cpu_seconds() if cluster else 0.0
        bench_before = sum(os.times()[:2]) + cpu_seconds([reader.pid])

        posts = []  # (table index, version, sent at, tapping phone, answered at)
        lock = threading.Lock()
        per_table = max(1, args.changes // args.tables)
        gap = args.interval / args.phones  # a table's phones together tap this often

        def tapper(t):
            nonlocal errors
            code, phones = tables[t]
            seats = seat_ids[t]
            for _ in range(per_table):
                time.sleep(random.uniform(0.5, 1.5) * gap)
                phone = random.choice(phones)
                sent = time.perf_counter()
                status, _, text, _ = phone.post(
                    f"/t/{code}/act/score",
                    {
                        "seat": random.choice(seats),
                        "delta": random.choice([1, -1, 2]),
                        "csrf": phone.csrf,
                        "action_id": f"{t}-{time.time_ns()}",
                    },
                    {"HX-Request": "true", "HX-Target": "live-body"},
                )
                answered = time.perf_counter()
                found = re.search(r'data-version="(\d+)"', text)
                if status != 200 or not found:
                    with lock:
                        errors += 1
                    continue
                with lock:
                    posts.append((t, int(found.group(1)), sent, phones.index(phone), answered))

        tappers = [threading.Thread(target=tapper, args=(t,)) for t in range(args.tables)]
        for thread in tappers:
            thread.start()
        for thread in tappers:
            thread.join()
        time.sleep(TIMEOUT if posts else 0)
        db_cpu = (cluster.cpu_seconds() if cluster else 0.0) - db_before
        bench_cpu = sum(os.times()[:2]) + cpu_seconds([reader.pid]) - bench_before
        stop.set()
        streams = SeenElsewhere(*out.get(timeout=120))
        reader.join()
        cpu = server.cpu_seconds() - cpu_before

        latencies, missed = [], 0
        for t, version, sent, tapped, answered in posts:
            got = []
            for p in range(args.phones):
                seen = streams.first_seen_at_or_after((t, p), version)
                if p == tapped:
                    seen = answered if seen is None else min(seen, answered)
                if seen is None or seen - sent > TIMEOUT:
                    missed += 1
                else:
                    got.append((seen - sent) * 1000)
            latencies += got
            results.append(
                {"table": t, "version": version, "max_ms": round(max(got), 2) if got else None, "received": len(got)}
            )
            print(json.dumps(results[-1]))
        peak_mb = server.peak_rss_mb()
        summary = {
            "summary": True,
            "tables": args.tables,
            "phones": args.phones,
            "streams": streams_total,
            "changes": len(posts),
            "deliveries": len(latencies),
            "seen_p50_ms": round(percentile(latencies, 50), 2) if latencies else None,
            "seen_p95_ms": round(percentile(latencies, 95), 2) if latencies else None,
            "seen_p99_ms": round(percentile(latencies, 99), 2) if latencies else None,
            "seen_max_ms": round(max(latencies), 2) if latencies else None,
            "stream_kb": round(streams.bytes / 1024),  # on the wire, gzip as a browser asks
            "stream_decoded_kb": round(streams.decoded / 1024),
            "missed": missed,
            "errors": errors,
            "cpu_s": round(cpu, 2),
            "db_cpu_s": round(db_cpu, 2),
            "bench_cpu_s": round(bench_cpu, 2),
            "peak_rss_mb": round(peak_mb, 1),
            # what the server grew by once its streams opened and the changes came, per stream:
            # each one's connection and compressor, and its share of its table's render state
            "rss_kb_per_stream": round((peak_mb - rss_before) * 1024 / max(streams_total, 1), 1),
            "server_threads": server.threads(),
            "database": "postgresql" if database else "sqlite",
            "workers": args.workers or 1,
            "bare": bare,
        }
        print(json.dumps(summary))
    finally:
        server.stop()


if __name__ == "__main__":
    main()
