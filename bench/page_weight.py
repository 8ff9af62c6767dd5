"""Page weight: bytes and requests a phone makes on the first load of its player page.

    python bench/page_weight.py [--game generic|danger-zone|blackmail|assassins] [--chromium PATH]

Starts the real server, seats a phone, and loads /t/CODE/me in a fresh phone-sized
Chromium context (empty cache). Prints one JSON object per request (url, bytes on the
wire as received: headers + compressed body), then a summary line: bytes, requests.
"""

import argparse
import json
import os
import sys

from playwright.sync_api import sync_playwright

from benchlib import Server, new_table

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
    parser.add_argument("--game", default="generic")
    parser.add_argument("--chromium", default=os.environ.get("CHROMIUM", "/usr/bin/chromium"))
    args = parser.parse_args()

    server = Server()
    try:
        code, phones = new_table(server.port, 4, args.game)
        phone = phones[0]
        base = f"http://127.0.0.1:{server.port}"
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=args.chromium, args=ARGS)
            context = browser.new_context(**p.devices["Pixel 7"])
            context.add_cookies([{"name": "tc", "value": phone.cookies["tc"], "url": f"{base}/t/{code}"}])
            page = context.new_page()
            seen = []

            def finished(request):
                sizes = request.sizes()
                size = sizes["responseHeadersSize"] + sizes["responseBodySize"]
                seen.append({"url": request.url.replace(base, ""), "bytes": size})
                print(json.dumps(seen[-1]))

            page.on("requestfinished", finished)
            page.goto(f"{base}/t/{code}/me", wait_until="networkidle")
            page.wait_for_timeout(500)
            browser.close()
        # The event stream stays open, so it never "finishes"; count it as a request.
        print(
            json.dumps(
                {
                    "summary": True,
                    "game": args.game,
                    "bytes": sum(r["bytes"] for r in seen),
                    "requests": len(seen) + 1,
                    "note": "requests include the open event stream",
                }
            )
        )
    finally:
        server.stop()


if __name__ == "__main__":
    sys.exit(main())
