#!/usr/bin/env python3
"""Rules search latency over a few hundred realistic queries.

Server side: calls companion.lookup.search.search() directly, the way a view does.
Through HTTP (optional): with --url BASE, also times GET BASE/rules?q=... (or
BASE/rules/<game>?q=...) with the htmx header, as a phone typing in the search box does.

Prints one JSON object per query, then a last line with the summary:
  {"summary": true, "queries": N, "p50_ms": .., "p95_ms": .., "max_ms": ..,
   "index_build_ms": .., "http_p50_ms": .. | null, "http_p95_ms": .. | null, "http_errors": ..}

With --serve instead, it starts the real server itself (`python -m companion serve` on a free
loopback port, a fresh data folder, as benchlib does for the other benches) and times that.

usage: python bench/search_latency.py [--url http://127.0.0.1:5000 | --serve] [--repeat N]
"""

import argparse
import json
import math
import pathlib
import sys
import time
import urllib.error
import urllib.parse
import urllib.request

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

from companion.lookup import search as rules  # noqa: E402

# What people type at the table, per game (None: the all-games box).
QUERIES = {
    "blackmail": [
        "7",
        "1",
        "8",
        "#3",
        "card 5",
        "lana",
        "Lana Kane",
        "archer",
        "sterling",
        "malory",
        "krueger",
        "krieger",
        "cheryl",
        "carol",
        "cyril",
        "pam",
        "ray",
        "vp",
        "VP to win",
        "victory points",
        "how many points to win",
        "secret character",
        "protection",
        "protected",
        "eliminated",
        "out of the round",
        "empty deck",
        "what happens if the deck is empty",
        "tie",
        "who goes first",
        "setup",
        "next round",
        "discard malory",
        "guess",
        "compare hands",
        "reshuffle",
        "quick reference",
        # typos and whole questions
        "kreiger",
        "kruger",
        "malroy",
        "can I guess Archer with Archer",
        "do I have to play the 8",
        "what if I'm the last one left",
        "does lana take a protected players card",
    ],
    "danger-zone": [
        "uh",
        "UH",
        "upper hand",
        "ml",
        "mission leader",
        "initiative",
        "reception",
        "control room",
        "malory's office",
        "breakroom",
        "bullpen",
        "applied research",
        "lab",
        "booze",
        "guns",
        "sex",
        "smarts",
        "challenge",
        "difficulty",
        "reward",
        "personal challenge",
        "insult",
        "insult at location",
        "5 or 6",
        "skill dice",
        "archer dice",
        "cheryl",
        "krieger",
        "lana",
        "event",
        "embarrassing pictures",
        "rona thorne",
        "uta",
        "woodhouse",
        "have some sex",
        "golden rule",
        "how many locations",
        "5p",
        "7 players",
        "clean up",
        "movement phase",
        "roll-off",
        "below zero",
        "20",
        "recepton",
        "archer skills",
        "who gets initiative next round",
        "what do I roll when someone is already at my location",
    ],
    "assassins": [
        "ghost",
        "magician",
        "3 magicians",
        "grave digger",
        "soldier",
        "cook",
        "sergeant",
        "chef",
        "wizard",
        "extra cards",
        "front row",
        "rear row",
        "face down",
        "prelim",
        "preliminary points",
        "real points",
        "killed",
        "dead",
        "15",
        "tie",
        "anti-clockwise",
        "dog",
        "draft",
        "pass left",
        "resolve order",
        "penalty chips",
        "deck list",
        "3p",
        "magican",
        "grave diger",
        "when do preliminary points become real",
    ],
    None: [
        "lana",
        "archer",
        "7",
        "uh",
        "vp",
        "ml",
        "setup",
        "quickref",
        "qr",
        "cheat sheet",
        "tie",
        "first player",
        "how to win",
        "points",
        "secret",
        "ghost",
        "insult",
        "dz setup",
        "aoa ghost",
        "reading",
        # hostile or broken input a phone can send
        '"',
        "lana*",
        "NEAR(a b)",
        "a AND (b",
        "NOT",
        "title:x",
        "^^^",
        "((",
        "))",
        ":",
        "   ",
        "x" * 150,
    ],
}


def as_you_type(word):
    """'lana' -> 'l', 'la', 'lan', 'lana': a search per keystroke."""
    return [word[:i] for i in range(1, len(word) + 1)]


def workload():
    runs = []
    for game, queries in QUERIES.items():
        for q in queries:
            runs.append((game, q))
    for game, word in [
        ("blackmail", "krueger"),
        ("danger-zone", "mission leader"),
        ("danger-zone", "initiative"),
        ("assassins", "preliminary"),
        ("assassins", "magician"),
        (None, "victory points"),
        (None, "upper hand"),
        ("blackmail", "cheryl"),
        ("danger-zone", "embarrassing pictures"),
        ("assassins", "grave digger"),
        ("blackmail", "secret character"),
        (None, "quick reference"),
        ("danger-zone", "applied research"),
        ("assassins", "anti-clockwise"),
        ("danger-zone", "woodhouse"),
        ("blackmail", "kreiger"),
        ("danger-zone", "recepton"),
    ]:
        runs += [(game, prefix) for prefix in as_you_type(word)]
    return runs


def percentile(values, p):
    if not values:
        return None
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def http_time(base, game, q):
    path = f"/rules/{game}" if game else "/rules"
    url = base.rstrip("/") + path + "?" + urllib.parse.urlencode({"q": q})
    req = urllib.request.Request(url, headers={"HX-Request": "true"})
    t = time.perf_counter()
    try:
        with urllib.request.urlopen(req, timeout=10) as resp:
            resp.read()
            status = resp.status
    except urllib.error.HTTPError as err:  # a 4xx for a refused query still answered
        err.read()
        status = err.code
    except (urllib.error.URLError, OSError):
        return None, None
    return (time.perf_counter() - t) * 1000, status


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--url", help="base URL of a running app, e.g. http://127.0.0.1:5000")
    ap.add_argument("--serve", action="store_true", help="start the real server and time it through HTTP")
    ap.add_argument("--repeat", type=int, default=1, help="run the workload N times")
    args = ap.parse_args()
    server_process = None
    if args.serve and not args.url:
        from benchlib import Server

        server_process = Server()
        args.url = f"http://127.0.0.1:{server_process.port}"
    try:
        run(args)
    finally:
        if server_process:
            server_process.stop()


def run(args):

    t = time.perf_counter()
    rules.search("warm up")  # loads the data and builds this thread's index
    build_ms = (time.perf_counter() - t) * 1000
    if args.url:  # the server's first request per thread builds its index and compiles templates
        for _ in range(4):
            for game in (None,) + rules.GAMES:
                http_time(args.url, game, "warm up")

    server, http, http_errors = [], [], 0
    for _ in range(max(1, args.repeat)):
        for game, q in workload():
            t = time.perf_counter()
            try:
                found = rules.search(q, game=game)
                error = None
            except rules.QueryError as err:
                found, error = [], str(err)
            ms = (time.perf_counter() - t) * 1000
            server.append(ms)
            line = {
                "q": q,
                "game": game,
                "ms": round(ms, 3),
                "results": len(found),
                "top": found[0]["id"] if found else None,
            }
            if error:
                line["error"] = error
            if args.url:
                hms, status = http_time(args.url, game, q)
                if hms is None or status >= 500:
                    http_errors += 1
                if hms is not None:
                    http.append(hms)
                line["http_ms"] = round(hms, 3) if hms is not None else None
                line["http_status"] = status
            print(json.dumps(line, ensure_ascii=False))

    def r(v):
        return round(v, 3) if v is not None else None

    print(
        json.dumps(
            {
                "summary": True,
                "queries": len(server),
                "p50_ms": r(percentile(server, 50)),
                "p95_ms": r(percentile(server, 95)),
                "max_ms": r(max(server)),
                "index_build_ms": r(build_ms),
                "http_p50_ms": r(percentile(http, 50)) if args.url else None,
                "http_p95_ms": r(percentile(http, 95)) if args.url else None,
                "http_errors": http_errors if args.url else None,
            }
        )
    )


if __name__ == "__main__":
    main()
