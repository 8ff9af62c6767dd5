"""`companion serve`: the real server (waitress) on the LAN, with the join address and QR."""

import gc
import importlib.util
import json
import os
import socket
import sys
import time

import click

from companion import create_app
from companion.web import qr

# The folder name under the platform's per-user data folder (platformdirs).
APP_NAME = "table-companion"


def lan_address():
    """This machine's address on the local network, as phones would reach it."""
    # The address of the interface the default route leaves by: on a Mac the host name often
    # resolves to nothing, and on Windows to a virtual adapter (WSL, Hyper-V) first. A UDP
    # connect sends no packet.
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))
            address = probe.getsockname()[0]
        if not address.startswith(("127.", "0.")):
            return address
    except OSError:
        pass  # no route at all (no network): try the host name
    try:
        candidates = socket.gethostbyname_ex(socket.gethostname())[2]
    except OSError:
        candidates = []
    for address in candidates:
        if not address.startswith("127."):
            return address
    return "127.0.0.1"


def data_dir_choice(given):
    """Where the tables live, and a few words on why there (None when the user named it).

    --data-dir (or $COMPANION_DATA_DIR) wins; then a ./data that already exists in the
    current folder (where earlier versions kept it); else this user's data folder, so an
    installed app does not litter whatever folder its terminal happens to be in."""
    if given:
        return given, None
    if os.path.isdir("data"):
        return os.path.abspath("data"), "the data folder in the current folder"
    import platformdirs  # only here: an explicit --data-dir never needs it

    return platformdirs.user_data_dir(APP_NAME, appauthor=False), "your user data folder"


def gunicorn_missing():
    """Why --workers above 1 cannot run here, or None. gunicorn forks and needs fcntl, so it
    runs only on Unix; on Windows this says so instead of a traceback."""
    if not hasattr(os, "fork"):
        return (
            "--workers above 1 runs gunicorn, which works only on Unix (Linux, macOS, a "
            "Raspberry Pi), not on this system. Leave out --workers: one process holds a "
            "game night's phones."
        )
    try:
        if importlib.util.find_spec("gunicorn") is None or importlib.util.find_spec("gevent") is None:
            return (
                "--workers above 1 needs gunicorn and gevent, which are not installed here. "
                "Install the app with its PostgreSQL part: pipx install 'table-companion[postgresql]' "
                "(in a checkout: .venv/bin/pip install -e '.[postgresql]'). Leave out --workers "
                "to run one process."
            )
        import gunicorn.util  # noqa: F401  imports fcntl: fails where gunicorn cannot run
    except ImportError as error:
        return (
            f"--workers above 1 runs gunicorn, which cannot start on this system ({error}). "
            "Leave out --workers: one process holds a game night's phones."
        )
    return None


def _printable(text):
    """Whether stdout can show the QR code's block characters (a Windows console redirected
    to a file may be in a code page without them)."""
    try:
        text.encode(getattr(sys.stdout, "encoding", None) or "ascii")
        return True
    except (UnicodeEncodeError, LookupError):
        return False


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def main():
    """Table Companion: live bookkeeping for tabletop games, shared by phones on your LAN."""


def _fail(message, code=1):
    click.echo(f"Error: {message}", err=True)
    sys.exit(code)


def _trust_proxy(app, proxy):
    """Believe X-Forwarded-For/-Proto only from the named proxy (gunicorn does not rewrite
    REMOTE_ADDR itself, and the wrong-code limit must count each phone on its own)."""
    from werkzeug.middleware.proxy_fix import ProxyFix

    fixed = ProxyFix(app, x_for=1, x_proto=1)

    def middleware(environ, start_response):
        if environ.get("REMOTE_ADDR") == proxy:
            return fixed(environ, start_response)
        for name in ("HTTP_X_FORWARDED_FOR", "HTTP_X_FORWARDED_PROTO"):
            environ.pop(name, None)
        return app(environ, start_response)

    return middleware


def _gunicorn(config, host, port, workers, connections, trusted_proxy):
    """N processes, each a gevent loop: an open page costs a greenlet (a few KB), not a thread.

    This process becomes gunicorn's master (exec), which never imports the app: each worker
    patches threading and sockets for gevent first and only then imports it, so no lock or
    psycopg wait made before the patch can stop a whole worker."""
    os.environ["COMPANION_WORKER_CONFIG"] = json.dumps(dict(config, TRUSTED_PROXY=trusted_proxy))
    command = [
        sys.executable,
        "-m",
        "gunicorn",
        "--worker-class",
        "gevent",
        "--workers",
        str(workers),
        "--worker-connections",
        str(connections),
        "--bind",
        f"[{host}]:{port}" if ":" in host else f"{host}:{port}",
        "--timeout",
        "30",
        "--graceful-timeout",
        "2",
        "--keep-alive",
        "5",
        "--log-level",
        "warning",
        "--name",
        "table-companion",
        # only the named proxy may say a request came over https
        f"--forwarded-allow-ips={trusted_proxy or ''}",
    ]
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(sys.executable, command + ["companion.cli:worker_app()"])


def worker_app():
    """The app in one gunicorn worker (`companion serve --workers N`)."""
    config = json.loads(os.environ["COMPANION_WORKER_CONFIG"])
    trusted_proxy = config.pop("TRUSTED_PROXY", None)
    app = create_app(config)
    if trusted_proxy:
        app.wsgi_app = _trust_proxy(app.wsgi_app, trusted_proxy)
    # As for waitress: what is loaded now lives as long as the worker.
    gc.collect()
    gc.freeze()
    short_full_passes()
    return app


# With thousands of pages open, each full pass of Python's garbage collector walked every
# stream's objects and stopped the process for 100-400 ms, a few times a minute (4,000 streams
# in bench/live_latency.py; docs/performance.md). So what survives a full pass is frozen
# (gc.freeze: later passes skip it), and every few minutes handed back, so that the next full
# pass frees the cycles among it that have become garbage since (a closed page's request).
UNFREEZE_SECONDS = 300


def short_full_passes(every=UNFREEZE_SECONDS, clock=time.monotonic):
    """Keep the garbage collector's full passes short, as above; returns its callback."""
    handed_back = clock()

    def after(phase, info):
        nonlocal handed_back
        if phase != "stop" or info["generation"] != 2:
            return
        if clock() - handed_back >= every:
            handed_back = clock()
            gc.unfreeze()
        else:
            gc.freeze()

    gc.callbacks.append(after)
    return after


# waitress waits on its sockets with select(), which takes descriptors below 1024 only: past
# about a thousand open connections its loop stops ("filedescriptor out of range in select()")
# and every page is cut off. One waitress process holds at most this many; more phones than
# that need --workers (gunicorn + gevent, which polls with epoll).
WAITRESS_CONNECTIONS = 960


@main.command()
@click.option(
    "--host",
    default=lambda: os.environ.get("COMPANION_HOST", "0.0.0.0"),
    show_default="0.0.0.0 (every interface, so phones on the LAN can connect)",
)
@click.option("--port", type=int, default=lambda: int(os.environ.get("COMPANION_PORT", 8000)), show_default="8000")
@click.option(
    "--data-dir",
    default=lambda: os.environ.get("COMPANION_DATA_DIR"),
    show_default="$COMPANION_DATA_DIR, else ./data if it exists, else your user data folder",
    help="Folder for the SQLite database and the keys.",
)
@click.option(
    "--public-url",
    default=lambda: os.environ.get("COMPANION_PUBLIC_URL"),
    help="Address put in QR codes, e.g. https://games.example.lan (or $COMPANION_PUBLIC_URL).",
)
@click.option(
    "--threads",
    type=int,
    default=lambda: int(os.environ.get("COMPANION_THREADS", 320)),
    show_default="320",
    help="Worker threads. Every open page holds one for its live stream; "
    "a tenth stay free for taps, and pages beyond that poll.",
)
@click.option(
    "--trusted-proxy",
    default=lambda: os.environ.get("COMPANION_TRUSTED_PROXY"),
    help="Address of a reverse proxy in front of the app, whose X-Forwarded-For names "
    "each phone (or $COMPANION_TRUSTED_PROXY). Without it that header is ignored.",
)
@click.option(
    "--database",
    default=lambda: os.environ.get("COMPANION_DATABASE_URL"),
    help="PostgreSQL address, e.g. postgresql://companion@localhost/companion (or "
    "$COMPANION_DATABASE_URL), so several processes share the tables. Default: SQLite in the data dir.",
)
@click.option(
    "--workers",
    type=int,
    default=lambda: int(os.environ.get("COMPANION_WORKERS", 1)),
    show_default="1",
    help="Processes. 1 is waitress with threads; more runs gunicorn with gevent workers (needs --database).",
)
@click.option(
    "--connections",
    type=int,
    default=lambda: int(os.environ.get("COMPANION_CONNECTIONS", 1000)),
    show_default="1000",
    help="With --workers above 1: connections each process holds; a tenth stay free for taps.",
)
def serve(host, port, data_dir, public_url, threads, trusted_proxy, database, workers, connections):
    """Run the app: waitress in one process, or gunicorn + gevent with --workers."""
    from companion import db

    if workers < 1:
        _fail("--workers must be 1 or more.", 2)
    if workers > 1:
        reason = gunicorn_missing()
        if reason:
            _fail(reason, 2)
    if workers > 1 and not database:
        _fail(
            "--workers above 1 needs --database postgresql://…: with SQLite in the data dir, "
            "a tap on one process would never reach the phones watching another.",
            2,
        )
    if database:
        try:
            db.check_database(database)  # also creates or upgrades the schema, once
        except db.DatabaseUnavailable as error:
            _fail(str(error), 2 if not db.is_postgres_url(database) else 1)

    data_dir, data_why = data_dir_choice(data_dir)
    if not public_url:
        shown_host = lan_address() if host in ("0.0.0.0", "::", "") else host
        public_url = f"http://{shown_host}:{port}"
    public_url = public_url.rstrip("/")
    waitress_connections = min(max(threads * 3, 500), WAITRESS_CONNECTIONS)
    # Live streams a process may hold: the rest of its threads (or connections) stay for taps.
    stream_limit = (
        min(threads - max(4, threads // 10), waitress_connections * 9 // 10)
        if workers == 1
        else connections - max(16, connections // 10)
    )
    config = {"DATA_DIR": data_dir, "PUBLIC_URL": public_url, "STREAM_LIMIT": stream_limit}
    if database:
        config["DATABASE_URL"] = database
    app = create_app(config)
    drawn = qr.terminal(public_url + "/")
    click.echo(drawn if _printable(drawn) else "(This terminal cannot draw the QR code; the host page shows it.)")
    click.echo(f"Table Companion is running. Phones and the host open: {public_url}/")
    if public_url.startswith(("http://127.", "http://localhost")) and host in ("0.0.0.0", "::", ""):
        click.echo(
            "No network found: phones cannot reach this address. Join the Wi-Fi the phones "
            "use and start again, or name this machine's address with --public-url."
        )
    if workers == 1:
        click.echo(
            f"Live pages: {stream_limit} at once (--threads {threads}); more than that check back every few seconds."
        )
    else:
        click.echo(
            f"Live pages: {stream_limit} per process, {stream_limit * workers} in all "
            f"(--workers {workers}, --connections {connections}); more than that check back every few seconds."
        )
    click.echo(
        f"Server-wide box text (the defaults new tables copy) is changed only from: "
        f"{public_url}/admin/{app.config['ADMIN_KEY']}   (keep this address to yourself)"
    )
    if database:
        click.echo(f"Data: {db.shown_url(database)}   (Ctrl+C stops the server)")
    elif data_why:
        click.echo(
            f"Data: {app.config['DATABASE']}, in {data_why} (--data-dir picks another)   (Ctrl+C stops the server)"
        )
    else:
        click.echo(f"Data: {app.config['DATABASE']}   (Ctrl+C stops the server)")
    sys.stdout.flush()
    if workers > 1:
        del app  # each worker builds its own, after gevent has patched it
        _gunicorn(config, host, port, workers, connections, trusted_proxy)
        return

    import waitress

    # Python's own GIL switch interval stands: a shorter one made many streams' threads take
    # the GIL from each other mid-render (bench/live_latency.py --tables 25 --phones 8).
    # Behind a proxy every phone arrives from the proxy's address; the wrong-code limit must
    # still count each phone on its own, so the proxy's X-Forwarded-For is believed (only its).
    proxy = (
        dict(
            trusted_proxy=trusted_proxy,
            trusted_proxy_count=1,
            trusted_proxy_headers="x-forwarded-for x-forwarded-proto",
        )
        if trusted_proxy
        else {}
    )
    # Everything loaded so far lives as long as the server: keep it out of the garbage
    # collector's full passes, which otherwise stall every thread for tens of milliseconds.
    gc.collect()
    gc.freeze()
    short_full_passes()
    waitress.serve(
        app,
        host=host,
        port=port,
        threads=threads,
        connection_limit=waitress_connections,
        channel_timeout=60,
        # lets a live stream notice at once that its phone has gone away
        channel_request_lookahead=1,
        ident="table-companion",
        clear_untrusted_proxy_headers=True,
        **proxy,
    )
