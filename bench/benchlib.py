"""Shared by the bench scripts: start the real server as the README does, and talk to it."""

import http.client
import os
import re
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


class Server:
    """`python -m companion serve` on a free loopback port with a fresh data folder."""

    def __init__(self, threads=None, data_dir=None):
        self.port = free_port()
        self.data_dir = data_dir or tempfile.mkdtemp(prefix="companion-bench-")
        command = [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1",
                   "--port", str(self.port), "--data-dir", self.data_dir]
        if threads:
            command += ["--threads", str(threads)]
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.time() + 20
        while time.time() < deadline:
            try:
                Client(self.port).get("/")
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("server did not start: " + self.process.stderr.read().decode())

    def cpu_seconds(self):
        fields = open(f"/proc/{self.process.pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def peak_rss_mb(self):
        for line in open(f"/proc/{self.process.pid}/status"):
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
        return None

    def threads(self):
        return len(os.listdir(f"/proc/{self.process.pid}/task"))

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


def event_stream(port, code, cookie=None, timeout=None):
    """A socket that has asked for a table's live stream (as a page's EventSource does)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    head = f"GET /t/{code}/events HTTP/1.0\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
    if cookie:
        head += f"Cookie: tc={cookie}\r\n"
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
        phone.post(f"/t/{code}/join", {"name": f"P{n}"})
        phone.get(f"/t/{code}/me")
        clients.append(phone)
    return code, clients


def percentile(values, q):
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]
