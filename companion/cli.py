"""`companion serve`: the real server (waitress) on the LAN, with the join address and QR."""

import gc
import os
import socket
import sys

import click

from . import create_app, default_data_dir, live, qr


def lan_address():
    """This machine's address on the local network, as phones would reach it."""
    try:
        candidates = socket.gethostbyname_ex(socket.gethostname())[2]
    except OSError:
        candidates = []
    for address in candidates:
        if not address.startswith("127."):
            return address
    return "127.0.0.1"


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main():
    """Table Companion: live bookkeeping for tabletop games, shared by phones on your LAN."""


@main.command()
@click.option("--host", default=lambda: os.environ.get("COMPANION_HOST", "0.0.0.0"),
              show_default="0.0.0.0 (every interface, so phones on the LAN can connect)")
@click.option("--port", type=int, default=lambda: int(os.environ.get("COMPANION_PORT", 8000)),
              show_default="8000")
@click.option("--data-dir", default=default_data_dir, show_default="./data (or $COMPANION_DATA_DIR)",
              help="Folder for the SQLite database and the secret key.")
@click.option("--public-url", default=lambda: os.environ.get("COMPANION_PUBLIC_URL"),
              help="Address put in QR codes, e.g. https://games.example.lan (or $COMPANION_PUBLIC_URL).")
@click.option("--threads", type=int, default=lambda: int(os.environ.get("COMPANION_THREADS", 320)),
              show_default="320", help="Worker threads. Every open page holds one for its live stream; "
                                       "a tenth stay free for taps, and pages beyond that poll.")
@click.option("--trusted-proxy", default=lambda: os.environ.get("COMPANION_TRUSTED_PROXY"),
              help="Address of a reverse proxy in front of the app, whose X-Forwarded-For names "
                   "each phone (or $COMPANION_TRUSTED_PROXY). Without it that header is ignored.")
def serve(host, port, data_dir, public_url, threads, trusted_proxy):
    """Run the app with the waitress WSGI server."""
    import waitress

    if not public_url:
        shown_host = lan_address() if host in ("0.0.0.0", "::", "") else host
        public_url = f"http://{shown_host}:{port}"
    public_url = public_url.rstrip("/")
    app = create_app({"DATA_DIR": data_dir, "PUBLIC_URL": public_url,
                      "STREAM_LIMIT": live.streams_allowed(threads)})
    # Hand the GIL over sooner (default 5 ms): a woken live stream then waits less behind a
    # page render to send its one-line message.
    sys.setswitchinterval(0.001)
    click.echo(qr.terminal(public_url + "/"))
    click.echo(f"Table Companion is running. Phones and the host open: {public_url}/")
    click.echo(f"Live pages: {app.config['STREAM_LIMIT']} at once (--threads {threads}); more than that check back every few seconds.")
    click.echo(f"Server-wide box text (the defaults new tables copy) is changed only from: "
               f"{public_url}/admin/{app.config['ADMIN_KEY']}   (keep this address to yourself)")
    click.echo(f"Data: {app.config['DATABASE']}   (Ctrl+C stops the server)")
    # Behind a proxy every phone arrives from the proxy's address; the wrong-code limit must
    # still count each phone on its own, so the proxy's X-Forwarded-For is believed (only its).
    proxy = dict(trusted_proxy=trusted_proxy, trusted_proxy_count=1,
                 trusted_proxy_headers="x-forwarded-for x-forwarded-proto") if trusted_proxy else {}
    # Everything loaded so far lives as long as the server: keep it out of the garbage
    # collector's full passes, which otherwise stall every thread for tens of milliseconds.
    gc.collect()
    gc.freeze()
    waitress.serve(app, host=host, port=port, threads=threads,
                   connection_limit=max(threads * 3, 500), channel_timeout=60,
                   # lets a live stream notice at once that its phone has gone away
                   channel_request_lookahead=1,
                   ident="table-companion", clear_untrusted_proxy_headers=True, **proxy)
