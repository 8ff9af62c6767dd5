"""The app installed as a host would install it: the wheel in a fresh virtual environment
outside the checkout, `companion serve` from there, and every kind of file the wheel must
carry (templates, static files, rules data) fetched over HTTP.

`walk(url)` is also used by test_portable.py: it plays a host and a phone through the
app's own forms, the way a browser without script would.
"""

import html
import http.cookiejar
import json
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.parse
import urllib.request
import zipfile
from pathlib import Path

import pytest

from conftest import free_port

ROOT = Path(__file__).resolve().parent.parent
NETWORK_TROUBLE = ("NewConnectionError", "Temporary failure in name resolution", "Max retries exceeded",
                   "Network is unreachable", "No route to host", "ProxyError", "ConnectTimeout")


# --- a host and a phone, through HTTP -----------------------------------------------------

class Browser:
    """One cookie jar: one device."""

    def __init__(self, base):
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def get(self, path, timeout=10):
        with self.opener.open(self.base + path, timeout=timeout) as response:
            return response.status, response.geturl(), response.read().decode(errors="replace")

    def post(self, path, fields):
        data = urllib.parse.urlencode(fields).encode()
        with self.opener.open(self.base + path, data=data, timeout=10) as response:  # follows the 303
            return response.status, response.geturl(), response.read().decode(errors="replace")


def assets(page):
    """The /static/ files a page links to."""
    return set(re.findall(r'(?:src|href)="(/static/[^"?#]+)', page))


def form_token(page):
    found = re.search(r'"X-CSRF-Token": "([0-9a-f]+)"', page)
    assert found, "the page carries no form token"
    return found.group(1)


def first_message(base, path, timeout=10):
    """A live stream's first message after its "retry:" line (whatever the message says)."""
    buffer = b""
    with urllib.request.urlopen(base + path, timeout=timeout) as stream:
        assert stream.headers.get_content_type() == "text/event-stream"
        deadline = time.time() + timeout
        while time.time() < deadline:
            blocks = [b for b in buffer.split(b"\n\n")[:-1] if not b.startswith(b"retry:")]
            if blocks:
                return blocks[0].decode()
            chunk = stream.read1(4096)
            if not chunk:
                break
            buffer += chunk
    return ""


def read_banner(server):
    """The lines `companion serve` prints, up to its last ("Data: …"); then wait until it answers."""
    banner = []
    while not banner or not banner[-1].startswith("Data:"):
        line = server.stdout.readline()
        if not line:
            pytest.fail("the server stopped: " + "".join(banner) + server.stderr.read())
        banner.append(line)
    url = re.search(r"open: (\S+)/$", "".join(banner), re.M).group(1)
    deadline = time.time() + 20
    while True:  # the banner comes just before waitress binds the port
        try:
            urllib.request.urlopen(url + "/healthz", timeout=2).read()
            return banner
        except OSError:
            if server.poll() is not None or time.time() > deadline:
                pytest.fail("the server did not answer: " + server.stderr.read())
            time.sleep(0.05)


def walk(base):
    """Home page; start a table; its host page; a phone joins and taps; the live stream;
    every static file those pages link to; /rules and one entry. Returns what it fetched."""
    host, phone = Browser(base), Browser(base)
    status, _, home = host.get("/")
    assert status == 200 and 'value="generic"' in home
    fetched = {"/"}

    status, url, host_page = host.post("/tables", {"game": "generic"})
    found = re.search(r"/t/([^/]+)/host$", url)
    assert status == 200 and found, url
    code = found.group(1)
    assert 'class="qr-code"' in host_page, "the host page shows no QR code"
    form_token(host_page)
    fetched.add(f"/t/{code}/host")

    status, _, join_page = phone.get(f"/t/{code}")
    assert status == 200 and "<form" in join_page
    status, url, phone_page = phone.post(f"/t/{code}/join", {"name": "Ana"})
    assert status == 200 and url.endswith(f"/t/{code}/me") and "Ana" in phone_page
    fetched.add(f"/t/{code}/me")

    # A tap, with the form token the phone's page carries.
    seat = json.loads(phone.get(f"/t/{code}/state.json")[2])["viewer"]["seat"]
    status, url, _ = phone.post(f"/t/{code}/act/score",
                                {"csrf": form_token(phone_page), "seat": seat, "delta": 3, "reason": "Points"})
    assert status == 200 and url.endswith(f"/t/{code}/me")
    state = json.loads(phone.get(f"/t/{code}/state.json")[2])
    assert state["version"] >= 2 and "+3" in json.dumps(state["log"]), state["log"]
    assert str(state["version"]) in first_message(base, f"/t/{code}/events")

    status, _, lookup = host.get("/rules")
    assert status == 200
    entry = json.loads((ROOT / "companion/lookup/data/blackmail.json").read_text())["entries"][0]
    status, _, rule = host.get(f"/rules/blackmail/{entry['id']}")
    assert status == 200 and entry["title"] in html.unescape(rule)
    fetched |= {"/rules", f"/rules/blackmail/{entry['id']}"}

    linked = assets(home) | assets(host_page) | assets(phone_page) | assets(lookup) | assets(rule)
    assert "/static/js/main.js" in linked
    assert any(re.fullmatch(r"/static/vendor/htmx-[\d.]+\.min\.js", path) for path in linked), linked
    for path in sorted(linked):
        status, _, body = host.get(path)
        assert status == 200 and body, path
    return fetched | linked


# --- the wheel, in a fresh virtual environment --------------------------------------------

@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    if not (ROOT / "pyproject.toml").exists():
        pytest.skip("needs the source tree")
    out = tmp_path_factory.mktemp("wheel")
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)],
                           capture_output=True, text=True, timeout=180)
    assert built.returncode == 0, built.stderr
    return next(out.glob("table_companion-*.whl"))


def test_the_wheel_carries_every_template_static_file_and_rules_file(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = {f"companion/{path.relative_to(ROOT).as_posix()}"
                for folder in ("templates", "static") for path in (ROOT / folder).rglob("*") if path.is_file()}
    expected |= {path.relative_to(ROOT).as_posix() for path in (ROOT / "companion").rglob("*")
                 if path.is_file() and path.suffix in (".py", ".json") and "__pycache__" not in path.parts}
    assert expected - names == set()


def test_the_installed_app_serves_everything_from_outside_the_checkout(wheel, tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=60)
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    python = next(p for p in (bin_dir / "python", bin_dir / "python.exe") if p.exists())
    # The project's pip installs into the new environment (no pip of its own to bootstrap);
    # the dependencies come from the index, so a dependency missing from pyproject.toml fails here.
    installed = subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q",
                                "--disable-pip-version-check", str(wheel)],
                               capture_output=True, text=True, timeout=300)
    if installed.returncode and any(word in installed.stderr for word in NETWORK_TROUBLE):
        pytest.skip(f"cannot reach the package index to install the dependencies: {installed.stderr[-300:]}")
    assert installed.returncode == 0, installed.stderr

    # A clean environment: nothing points back at the checkout, the data goes where the user's goes.
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("COMPANION_", "PYTHON", "XDG_")) and k != "VIRTUAL_ENV"}
    env["XDG_DATA_HOME"] = str(tmp_path / "user-data")
    work = tmp_path / "somewhere"
    work.mkdir()
    where = subprocess.run([str(python), "-c", "import companion; print(companion.__file__)"],
                           capture_output=True, text=True, cwd=work, env=env, timeout=30)
    assert Path(where.stdout.strip()).resolve().is_relative_to(venv.resolve()), where.stdout + where.stderr

    port = free_port()
    # No --data-dir, as a host would run it; XDG_DATA_HOME keeps it in tmp_path on Linux only.
    named = [] if sys.platform.startswith("linux") else ["--data-dir", str(tmp_path / "data")]
    command = shutil.which("companion", path=str(bin_dir))  # companion.exe on Windows
    server = subprocess.Popen([command, "serve", "--host", "127.0.0.1", "--port", str(port), *named],
                              cwd=work, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        banner = read_banner(server)
        fetched = walk(f"http://127.0.0.1:{port}")
    finally:
        server.terminate()
        server.wait(10)
    # Without --data-dir, the data lives in the user's data folder, and the banner says so.
    if not named:
        data = tmp_path / "user-data" / "table-companion"
        assert banner[-1].startswith(f"Data: {data / 'companion.sqlite3'}, in your user data folder")
        assert (data / "companion.sqlite3").exists()
    assert list(work.iterdir()) == [], "the server wrote into the folder it was started from"
    assert len(fetched) >= 10
