"""Follow latency: from the host's "play again" tap to every phone showing the next table.

    python bench/follow_latency.py [--phones 3] [--rounds 5]

Starts the real server and a real Chromium (Debian's, as the tests use; CHROMIUM names
another), seats the phones at a plain scoreboard, then taps "play again" on the host's page
`rounds` times in a row; nobody touches the phones. For each round it notes when each phone's
page of the new table loaded (its DOMContentLoaded), counted from the tap. Prints one JSON
object per round and a summary last: p50, p95 and max over every phone of every round.

The figure was once a test's time limit (a second), which failed on a busy machine while the
app was right; a bench prints it instead, beside the machine's own load.
"""

import argparse
import json
import os
import sys
import time
from pathlib import Path

from benchlib import Server, percentile

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
from browser_steps import sit_down, start_table  # noqa: E402

ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--phones", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    server = Server()
    base = f"http://127.0.0.1:{server.port}"
    seen = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"), args=ARGS)
            host = browser.new_context(**p.devices["Pixel 7"]).new_page()
            code = start_table(host, base, "generic")
            phones, shown = [], []  # shown: (phone, address, when its page loaded)
            for n in range(args.phones):
                phone = browser.new_context(**p.devices["Pixel 7"]).new_page()
                sit_down(phone, f"{base}/t/{code}", f"Player {n + 1}")
                phone.on("domcontentloaded", lambda page, n=n: shown.append((n, page.url, time.monotonic())))
                phones.append(phone)
            for number in range(1, args.rounds + 1):
                host.click("#night-menu > summary")
                host.click("text=Play again…")
                host.check("input[name=game][value=generic]")
                tapped = time.monotonic()
                host.click("button:has-text('Start the next game')")
                host.wait_for_url(lambda url, old=code: url.endswith("/host") and old not in url)
                code = host.url.split("/")[-2]
                for phone in phones:
                    phone.wait_for_url(f"**/t/{code}/me", timeout=30_000)
                arrived = [when - tapped for n, url, when in shown if f"/t/{code}/me" in url]
                seen += arrived
                print(json.dumps({"round": number, "follow_s": [round(a, 3) for a in sorted(arrived)]}), flush=True)
            browser.close()
    finally:
        server.stop()
    print(
        json.dumps(
            {
                "phones": args.phones,
                "rounds": args.rounds,
                "follow_p50_s": round(percentile(seen, 50), 3),
                "follow_p95_s": round(percentile(seen, 95), 3),
                "follow_max_s": round(max(seen), 3),
                "load_avg_1min": os.getloadavg()[0],
            }
        )
    )


if __name__ == "__main__":
    main()
