"""Phones that vanish: open and drop event streams without goodbye, then check the server let go.

    python bench/vanished_streams.py [--live 8] [--vanish 500] [--batch 100]

Starts the real server, seats `live` phones with their event streams open, then opens
`vanish` more streams in batches and drops each without closing the HTTP exchange (as a
phone that loses Wi-Fi or is locked does). Prints one JSON line per batch and a summary:
how long until the server's open streams are back to the live phones' count, its thread
count before and after, how fast a new page loads afterwards, and whether the live phones
still get the next change.
"""

import argparse
import json
import re
import time

from benchlib import Client, Server, event_stream, new_table


def open_stream(port, code, cookie=None):
    sock = event_stream(port, code, cookie)
    sock.recv(256)  # the opening message: the stream is being served
    return sock


def open_streams(probe):
    return json.loads(probe.get("/healthz")[2])["open_streams"]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--live", type=int, default=8)
    parser.add_argument("--vanish", type=int, default=500)
    parser.add_argument("--batch", type=int, default=100)
    args = parser.parse_args()

    server = Server()
    try:
        code, phones = new_table(server.port, args.live)
        live = [open_stream(server.port, code, phone.cookies["tc"]) for phone in phones]
        probe = Client(server.port)
        baseline, threads_before = open_streams(probe), server.threads()
        for start in range(0, args.vanish, args.batch):
            socks = [open_stream(server.port, code) for _ in range(min(args.batch, args.vanish - start))]
            peak = open_streams(probe)
            for sock in socks:
                sock.close()
            print(json.dumps({"batch": start // args.batch + 1, "opened": len(socks), "open_streams": peak}))
        dropped_at = time.perf_counter()
        while open_streams(probe) > baseline and time.perf_counter() - dropped_at < 60:
            time.sleep(0.05)
        recovered_s = time.perf_counter() - dropped_at
        began = time.perf_counter()
        status = probe.get(f"/t/{code}/screen")[0]
        page_ms = (time.perf_counter() - began) * 1000

        # The phones that stayed still hear the next change.
        seat = json.loads(phones[0].get(f"/t/{code}/state.json")[2])["state"]["seats"][0]["id"]
        answer = phones[0].post(
            f"/t/{code}/act/score",
            {"seat": seat, "delta": 1, "csrf": phones[0].csrf},
            {"HX-Request": "true", "HX-Target": "live-body"},
        )[2]
        message = b"id: %s\nevent: live\n" % re.search(r'data-version="(\d+)"', answer).group(1).encode()
        heard = 0
        for sock in live:
            sock.settimeout(5)
            data = b""
            while message not in data:  # the stream's message of that version, with its parts
                chunk = sock.recv(65536)
                if not chunk:
                    break
                data += chunk
            heard += message in data
        print(
            json.dumps(
                {
                    "summary": True,
                    "live_phones": args.live,
                    "vanished": args.vanish,
                    "open_streams_before": baseline,
                    "open_streams_after": open_streams(probe),
                    "recovered_s": round(recovered_s, 2),
                    "threads_before": threads_before,
                    "threads_after": server.threads(),
                    "page_status": status,
                    "page_ms": round(page_ms, 1),
                    "live_phones_heard_next_change": heard,
                    "peak_rss_mb": round(server.peak_rss_mb(), 1),
                }
            )
        )
    finally:
        server.stop()


if __name__ == "__main__":
    main()
