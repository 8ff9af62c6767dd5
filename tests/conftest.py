"""Fixtures: an app on a temporary database, phones that join it, and a real server + browser."""

import os
import queue
import re
import socket
import subprocess
import sys
import threading
import time
import urllib.request

from contextlib import contextmanager
from pathlib import Path

import pytest

from companion import create_app
from companion.web import pages
from companion.tables import store
from stream_apply import GZIP, Decoder

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

HX = {"HX-Request": "true", "HX-Target": "live-body"}


@pytest.fixture
def app(tmp_path):
    store.clear_cache()
    pages.clear()
    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path)})
    yield app
    store.clear_cache()
    pages.clear()


@pytest.fixture
def client(app):
    return app.test_client()


class Phone:
    """One browser's cookie jar at one table, with the form token its pages carry."""

    def __init__(self, app, code, client=None):
        self.client = client or app.test_client()
        self.code = code
        self.csrf = None
        self.seat = None

    def page(self, path="/me"):
        response = self.client.get(f"/t/{self.code}{path}")
        found = re.search(r'"X-CSRF-Token": "([0-9a-f]+)"', response.get_data(as_text=True))
        if found:
            self.csrf = found.group(1)
        return response

    def post(self, path, data=None, htmx=True, **kw):
        data = dict(data or {})
        data.setdefault("csrf", self.csrf or "")
        return self.client.post(f"/t/{self.code}{path}", data=data, headers=HX if htmx else {}, **kw)

    def act(self, kind, **data):
        return self.post(f"/act/{kind}", {k: str(v) for k, v in data.items()})

    def state(self):
        return self.client.get(f"/t/{self.code}/state.json").get_json()


@pytest.fixture
def host(app):
    """A host's phone with a fresh table; pass the game with host.start(slug)."""

    class Host(Phone):
        def start(self, game="blackmail"):
            response = self.client.post("/tables", data={"game": game})
            assert response.status_code == 303, response.get_data(as_text=True)
            self.code = response.headers["Location"].split("/")[2]
            self.page("/host")
            return self

    return Host(app, None)


@pytest.fixture
def join(app):
    """join(host, "Ana") seats a new phone at the host's table and returns it."""

    def join(table_host, name):
        phone = Phone(app, table_host.code)
        response = phone.client.post(f"/t/{table_host.code}/join", data={"name": name})
        assert response.status_code == 303, response.get_data(as_text=True)
        phone.page()
        phone.seat = phone.state()["viewer"]["seat"]
        return phone

    return join


# --- the real server and a real browser ------------------------------------------------

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def server_in_process(data_dir, threads=8, **adjustments):
    """The app served by waitress in a thread of this test's own process, so the test can
    monkeypatch it (a rigged deal, say); yields its base URL."""
    store.clear_cache()
    app = create_app({"DATA_DIR": str(data_dir), "HEARTBEAT_SECONDS": 5})
    try:
        with waitress_in_thread(app, threads=threads, **adjustments) as server:
            yield f"http://127.0.0.1:{server.effective_port}"
    finally:
        store.clear_cache()


@contextmanager
def waitress_in_thread(app, **adjustments):
    """waitress serving `app` from a thread of this process; yields the server itself."""
    import waitress
    server = waitress.create_server(app, host="127.0.0.1", port=free_port(), **adjustments)
    closing = threading.Event()

    def run():
        try:
            server.run()
        except OSError:  # its sockets closed under the loop's select(): the test is over
            if not closing.is_set():
                raise

    threading.Thread(target=run, daemon=True).start()
    try:
        yield server
    finally:
        closing.set()
        # A stream's thread may still wake the loop after this (waitress's task threads and
        # live/waitress_loop.py do): its pipe's descriptor, once closed, may be another connection's.
        server.trigger.pull_trigger = lambda thunk=None: None
        server.close()


class Server:
    def __init__(self, data_dir, port=None, args=()):
        self.data_dir = str(data_dir)
        self.port = port or free_port()
        self.args = list(args)
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = None

    def start(self):
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1",
             "--port", str(self.port), "--data-dir", self.data_dir, *self.args],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.time() + 20
        while time.time() < deadline:
            try:
                urllib.request.urlopen(self.url + "/", timeout=1).read()
                return self
            except OSError:
                if self.process.poll() is not None:
                    raise RuntimeError(self.process.stderr.read().decode())
                time.sleep(0.1)
        raise RuntimeError("server did not start")

    def stop(self, kill=False):
        if self.process and self.process.poll() is None:
            self.process.kill() if kill else self.process.terminate()
            self.process.wait(10)


@pytest.fixture(scope="session")
def live_server(tmp_path_factory):
    server = Server(tmp_path_factory.mktemp("live-data")).start()
    yield server
    server.stop()


CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage"]


@pytest.fixture(scope="session")
def browser():
    playwright_api = pytest.importorskip("playwright.sync_api")
    executable = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    if not os.path.exists(executable):
        pytest.fail(f"Chromium not found at {executable}: run `make test`, which installs it.")
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        browser.devices = p.devices
        yield browser
        browser.close()


@pytest.fixture
def new_phone(browser):
    """new_phone() opens a separate, phone-sized browser context (its own cookies).

    Every page is watched for content-security-policy violations and script errors: the app
    must work under its own policy, so any such report fails the test. So does a live piece
    that found no place on its page (static/js/live.js says so): the page then fetches its board
    whole, which hides the mismatch from every other check.
    """
    contexts, problems = [], []

    def watch(page):
        page.on("console", lambda m: problems.append(m.text)
                if m.type == "error" and ("Content Security Policy" in m.text or "Refused to" in m.text
                                          or "had no place on this page" in m.text) else None)
        page.on("pageerror", lambda e: problems.append(str(e)))

    def new_phone(device="Pixel 7", **kw):
        context = browser.new_context(**browser.devices[device], **kw)
        context.set_default_timeout(10_000)
        context.on("page", watch)
        contexts.append(context)
        return context.new_page()

    yield new_phone
    for context in contexts:
        context.close()
    assert not problems, f"the browser reported: {problems[:5]}"


# --- PostgreSQL: a throwaway cluster (or COMPANION_TEST_DATABASE_URL), one schema per test --

@pytest.fixture(scope="session")
def postgres_url():
    """A PostgreSQL database for the tests. Without COMPANION_TEST_DATABASE_URL a cluster is
    started in a temp folder for this session and stopped at its end. In CI a missing
    PostgreSQL fails the tests rather than skipping them."""
    import benchlib
    url = os.environ.get("COMPANION_TEST_DATABASE_URL")
    if url:
        yield url
        return
    try:
        cluster = benchlib.TempPostgres().start()
    except (benchlib.NoPostgres, RuntimeError) as error:
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL is needed in CI: {error}")
        pytest.skip(f"PostgreSQL tests skipped: {error}")
    try:
        yield cluster.url
    finally:
        cluster.stop()


@pytest.fixture
def postgres_schema_url(postgres_url):
    """The test database with a fresh, empty schema of this test's own on the search path."""
    import uuid

    import benchlib
    from companion import db as db_module
    schema = "t_" + uuid.uuid4().hex[:12]
    admin = db_module.connect_url(postgres_url)
    admin.execute(f"CREATE SCHEMA {schema}")
    yield benchlib.schema_url(postgres_url, schema)
    admin.execute(f"DROP SCHEMA {schema} CASCADE")
    admin.close()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request, tmp_path):
    """Where a test's tables live, once per database: an SQLite file's path, or the URL of
    a fresh PostgreSQL schema. Open it with open_database()."""
    if request.param == "sqlite":
        return str(tmp_path / "t.sqlite3")
    return request.getfixturevalue("postgres_schema_url")


def open_database(where):
    """A migrated connection to what the `database` fixture gave."""
    from companion import db as db_module
    if db_module.is_postgres_url(where):
        conn = db_module.connect_url(where)
        db_module.migrate_pg(conn)
    else:
        conn = db_module.connect(where)
        db_module.migrate(conn)
    return conn


@pytest.fixture
def pg_app(tmp_path, postgres_schema_url):
    """The app on a fresh PostgreSQL schema (routes, limits and errors on PostgreSQL)."""
    store.clear_cache()
    pages.clear()
    app = create_app({"TESTING": True, "DATA_DIR": str(tmp_path), "DATABASE_URL": postgres_schema_url})
    yield app
    from companion import db as db_module
    found = app.extensions.get("pg_listener")
    if found:
        found[1].stop()
        app.extensions["presence_beat"].stop()
    db_module.forget_connections(app)
    store.clear_cache()
    pages.clear()


@pytest.fixture(scope="session")
def pg_live_server(tmp_path_factory, postgres_url):
    """A real `companion serve --database …` on the session's PostgreSQL."""
    server = Server(tmp_path_factory.mktemp("pg-live-data"), args=["--database", postgres_url]).start()
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def any_live_server(request):
    """The real server, once on SQLite and once on PostgreSQL."""
    return request.getfixturevalue("live_server" if request.param == "sqlite" else "pg_live_server")


class Stream:
    """A page's live stream read in a thread of its own, as a server thread serves it (a
    stream keeps its request's context pushed in the thread that reads it)."""

    def __init__(self, phone, page, known=0):
        self.messages = queue.Queue()
        self.thread = threading.Thread(target=self._read, args=(phone, page, known), daemon=True)
        self.thread.start()

    def _read(self, phone, page, known):
        # known: the version the page shows (a page just loaded), so nothing comes before a change
        response = phone.client.get(f"/t/{phone.code}/events?page={page}&v={known}", buffered=False,
                                    headers=GZIP)
        assert response.headers.get("Content-Encoding") == "gzip"
        self.decode = Decoder()
        try:
            for chunk in response.response:
                self.messages.put(self.decode(chunk))
        finally:
            response.close()

    def opened(self):
        assert self.messages.get(timeout=10).startswith("retry:")

    def next_message(self):
        while (message := self.messages.get(timeout=10)).startswith((":", "retry:")):
            pass
        return message
