"""Fixtures for every folder (unit/, routes/, browser/): an app on a temporary database, phones
that join it, a real server and browser, PostgreSQL. What they build on is in helpers.py."""

import os

import pytest

from companion import create_app
from companion.tables import store
from companion.web import pages
from helpers import Phone, Server, launch_chromium


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


@pytest.fixture(scope="session")
def live_server(tmp_path_factory):
    server = Server(tmp_path_factory.mktemp("live-data")).start()
    yield server
    server.stop()


@pytest.fixture(scope="session")
def browser():
    playwright_api = pytest.importorskip("playwright.sync_api")
    executable = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    if not os.path.exists(executable):
        pytest.fail(f"Chromium not found at {executable}: run `make test`, which installs it.")
    with playwright_api.sync_playwright() as p:
        browser = launch_chromium(p, executable)
        browser.devices = p.devices
        yield browser
        browser.close()


@pytest.fixture
def new_phone(browser):
    """new_phone() opens a separate, phone-sized browser context (its own cookies).

    Every page is watched for content-security-policy violations and script errors: the app
    must work under its own policy, so any such report fails the test. So does a live piece
    that found no place on its page (static/js/live.js says so): the page then fetches its board
    whole, which hides the mismatch from every other check. And so does a form whose
    hx-include finds nothing (htmx says so): the step it should have named went unsent.
    """
    contexts, problems = [], []

    def watch(page):
        page.on(
            "console",
            lambda m: (
                problems.append(m.text)
                if m.type == "error"
                and (
                    "Content Security Policy" in m.text
                    or "Refused to" in m.text
                    or "had no place on this page" in m.text
                    or "returned no matches" in m.text
                )
                else None
            ),
        )
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


# --- the order tests are handed to the workers ------------------------------------------------

LONGEST = ("tests/browser/test_accessibility_browser.py",)  # the axe walk and the keyboard walk
KINDS = ("tests/browser/", "tests/routes/", "tests/unit/")


def pytest_collection_modifyitems(items):
    """The longest tests first, then the browser tests, the route tests, and the unit tests last:
    pytest-xdist hands tests out in this order, so quick ones fill in at the end and both cores
    finish together (in file order, one worker was left running a browser test alone)."""

    def rank(item):
        path = item.nodeid.split("::")[0]
        if path in LONGEST:
            return 0
        return 1 + next((i for i, kind in enumerate(KINDS) if path.startswith(kind)), len(KINDS))

    items.sort(key=rank)
