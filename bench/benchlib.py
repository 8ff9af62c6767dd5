"""Shared by the bench scripts: start the real server as the README does, and talk to it."""

import glob
import http.client
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def process_tree(root):
    """A process and all its descendants."""
    found, queue = [], [root]
    while queue:
        pid = queue.pop()
        found.append(pid)
        try:
            for task in os.listdir(f"/proc/{pid}/task"):
                queue += [int(c) for c in open(f"/proc/{pid}/task/{task}/children").read().split()]
        except OSError:
            pass
    return found


def cpu_seconds(pids):
    """User + system CPU the processes have used so far (one that ended counts nothing)."""
    total = 0
    for pid in pids:
        try:
            fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def status_mb(pid, field):
    """A memory figure of /proc/PID/status ("VmRSS:", "VmHWM:"), in MB; 0 once it has gone."""
    try:
        for line in open(f"/proc/{pid}/status"):
            if line.startswith(field):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


class Server:
    """`python -m companion serve` on a free loopback port with a fresh data folder."""

    def __init__(self, threads=None, data_dir=None, database=None, workers=None, env=None):
        self.port = free_port()
        self.data_dir = data_dir or tempfile.mkdtemp(prefix="companion-bench-")
        command = [
            sys.executable,
            "-m",
            "companion",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--data-dir",
            self.data_dir,
        ]
        if threads:
            command += ["--threads", str(threads)]
        if database:
            command += ["--database", database]
        if workers:
            command += ["--workers", str(workers)]
        # Its messages go to a file: an unread pipe fills up and then stops the server.
        self.log_path = os.path.join(self.data_dir, "server.log")
        self.process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=open(self.log_path, "wb"), env={**os.environ, **(env or {})}
        )
        deadline = time.time() + 20
        while time.time() < deadline:
            try:
                Client(self.port).get("/")
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("server did not start: " + open(self.log_path).read())

    def pids(self):
        """The server and (with --workers) its worker processes."""
        return process_tree(self.process.pid)

    def cpu_seconds(self):
        """User + system CPU of the server's processes (the database server is not counted)."""
        return cpu_seconds(self.pids())

    def peak_rss_mb(self):
        return self._status_mb("VmHWM:")

    def rss_mb(self):
        return self._status_mb("VmRSS:")

    def _status_mb(self, field):
        return sum(status_mb(pid, field) for pid in self.pids())

    def threads(self):
        return sum(len(os.listdir(f"/proc/{pid}/task")) for pid in self.pids() if os.path.exists(f"/proc/{pid}"))

    def stop(self):
        self.process.terminate()
        self.process.wait(10)


class Client:
    """One phone: a keep-alive connection and its cookies."""

    def __init__(self, port):
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.cookies = {}
        self.csrf = ""

    def request(self, method, path, form=None, headers=None):
        body = urllib.parse.urlencode(form) if form is not None else None
        head = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        if body is not None:
            head["Content-Type"] = "application/x-www-form-urlencoded"
        head.update(headers or {})
        for attempt in range(2):
            try:
                self.conn.request(method, path, body=body, headers=head)
                response = self.conn.getresponse()
                break
            except (http.client.HTTPException, OSError):
                if attempt:
                    raise
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        data = response.read()
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key] = rest.split(";", 1)[0]
        text = data.decode("utf-8", "replace")
        found = re.search(r'"X-CSRF-Token": "([0-9a-f]+)"', text)
        if found:
            self.csrf = found.group(1)
        return response.status, response.getheader("Location"), text, len(data)

    def get(self, path, headers=None):
        return self.request("GET", path, headers=headers)

    def post(self, path, form, headers=None):
        return self.request("POST", path, form, headers)


def event_stream(port, code, cookie=None, timeout=None, page=None, known=0, gzip=False):
    """A socket that has asked for a table's live stream (as a page's EventSource does): a
    phone's page with a cookie, else the table screen's; `known` is the version it shows;
    with `gzip`, accepting gzip as a browser does."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    page = page or ("player" if cookie else "screen")
    head = f"GET /t/{code}/events?page={page}&v={known} HTTP/1.0\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
    if cookie:
        head += f"Cookie: tc={cookie}\r\n"
    if gzip:
        head += "Accept-Encoding: gzip, deflate, br\r\n"
    sock.sendall((head + "\r\n").encode())
    return sock


def new_table(port, phones, game="generic"):
    """A table with `phones` seated phones; returns (code, [Client, ...])."""
    host = Client(port)
    _, location, _, _ = host.post("/tables", {"game": game})
    code = location.rstrip("/").split("/")[-2]
    clients = []
    for n in range(phones):
        phone = Client(port)
        for _ in range(5):  # a busy server may ask a join to retry (503)
            status = phone.post(f"/t/{code}/join", {"name": f"P{n}"})[0]
            if "tc" in phone.cookies:
                break
            time.sleep(0.5)
        else:
            raise RuntimeError(f"joining table {code} failed with status {status}")
        phone.get(f"/t/{code}/me")
        clients.append(phone)
    return code, clients


def percentile(values, q):
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


# --- a throwaway PostgreSQL for tests and benches ------------------------------------------


class NoPostgres(Exception):
    """PostgreSQL's server programs are not installed (make test installs them)."""


def postgres_bin():
    """The folder holding initdb: on PATH, or Debian's /usr/lib/postgresql/<version>/bin."""
    found = shutil.which("initdb")
    if found:
        return os.path.dirname(found)
    versions = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(re.search(r"/(\d+)/bin", p).group(1))
    )
    if not versions:
        raise NoPostgres("initdb was not found (install Debian's postgresql package; `make test` does)")
    return os.path.dirname(versions[-1])


class TempPostgres:
    """A PostgreSQL cluster in a temporary folder, reached on a unix socket in that folder,
    stopped and deleted by stop(). initdb refuses root, so as root it runs as `postgres`."""

    def __init__(self):
        self.bin = postgres_bin()
        self.dir = tempfile.mkdtemp(prefix="companion-pg-")
        self.data = os.path.join(self.dir, "data")
        self.port = free_port()
        self.as_root = os.geteuid() == 0
        self.user = "postgres" if self.as_root else None
        self.url = None

    def _run(self, *command, check=True):
        if self.as_root:
            command = ("runuser", "-u", "postgres", "--", *command)
        return subprocess.run(command, capture_output=True, text=True, check=check)

    def start(self):
        if self.as_root:
            shutil.chown(self.dir, "postgres")
            os.chmod(self.dir, 0o700)
        try:
            self._run(
                os.path.join(self.bin, "initdb"),
                "-D",
                self.data,
                "-A",
                "trust",
                "-U",
                "postgres",
                "-E",
                "UTF8",
                "--no-sync",
            )
            options = (
                f"-k {self.dir} -p {self.port} -c listen_addresses='' -c fsync=off "
                f"-c synchronous_commit=off -c full_page_writes=off -c max_connections=300 "
                f"-c shared_buffers=64MB"
            )
            self._run(
                os.path.join(self.bin, "pg_ctl"),
                "-D",
                self.data,
                "-l",
                os.path.join(self.dir, "log"),
                "-o",
                options,
                "-w",
                "-t",
                "30",
                "start",
            )
        except subprocess.CalledProcessError as error:
            log = ""
            if os.path.exists(os.path.join(self.dir, "log")):
                log = open(os.path.join(self.dir, "log")).read()[-2000:]
            self.stop()
            raise RuntimeError(f"could not start PostgreSQL: {error.stderr or error.stdout}{log}") from None
        self.url = f"postgresql://postgres@/postgres?host={self.dir}&port={self.port}"
        return self

    def cpu_seconds(self):
        """User + system CPU of the database server's processes so far."""
        try:
            postmaster = int(open(os.path.join(self.data, "postmaster.pid")).readline())
        except (OSError, ValueError):
            return 0.0
        return cpu_seconds(process_tree(postmaster))

    def stop(self):
        if os.path.exists(os.path.join(self.data, "postmaster.pid")):
            self._run(os.path.join(self.bin, "pg_ctl"), "-D", self.data, "-m", "immediate", "-w", "stop", check=False)
        shutil.rmtree(self.dir, ignore_errors=True)


def schema_url(url, schema):
    """The same database with `schema` first on the search path (a fresh one per test)."""
    joiner = "&" if "?" in url else "?"
    return url + joiner + urllib.parse.urlencode({"options": f"-csearch_path={schema}"})
