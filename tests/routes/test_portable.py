"""The default path runs where Unix does not: `companion serve` in one process (waitress,
SQLite) on a stand-in for Windows. In the server's own process fcntl, resource, termios,
pwd, grp, gunicorn, gevent and psycopg cannot be imported, and os.fork, the other Unix-only os
calls, the Unix-only signals and socket flags are gone. The server must start with no
--data-dir, serve a host and a phone, carry a change to a live page and notice when that page
goes, and no import of a blocked module may come from the app itself.
`--workers 2` there must answer with a sentence, not a traceback."""

import json
import os
import subprocess
import sys
import time

import benchlib
from helpers import HX, free_port, read_banner, walk

# (and the PostgreSQL part, an extra a laptop may not have: see pyproject.toml)
BLOCKED = ["fcntl", "resource", "termios", "pwd", "grp", "gunicorn", "gevent", "psycopg", "psycopg_pool"]
# Processes and process groups. (Not getuid and the like: platformdirs' Linux half rightly
# uses them here, and its Windows half does not.)
OS_UNIX_ONLY = ["fork", "forkpty", "register_at_fork", "setsid", "setpgid", "getpgid", "killpg", "wait3", "wait4"]
# What Windows's signal module has; every other SIG* name is Unix-only.
SIGNALS_EVERYWHERE = {"SIGABRT", "SIGFPE", "SIGILL", "SIGINT", "SIGSEGV", "SIGTERM", "SIGBREAK", "SIG_DFL", "SIG_IGN"}
SIGNAL_CALLS_UNIX_ONLY = [
    "alarm",
    "pause",
    "setitimer",
    "getitimer",
    "siginterrupt",
    "pthread_kill",
    "pthread_sigmask",
    "sigpending",
    "sigwait",
    "sigwaitinfo",
    "sigtimedwait",
]

# Runs as `python -c CHILD serve …`: takes the Unix-only parts away, then is `companion`.
CHILD = r"""
import json, os, signal, socket, sys, runpy

BLOCKED, OS_UNIX_ONLY, SIGNALS_EVERYWHERE, SIGNAL_CALLS, LOG = json.loads(os.environ["UNIX_AWAY"])


class NotOnThisPlatform:
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] not in BLOCKED:
            return None
        frame, caller = sys._getframe(1), "?"
        while frame is not None:  # the first frame outside the import machinery asked for it
            caller = frame.f_code.co_filename
            if "importlib" not in caller and not caller.startswith("<frozen"):
                break
            frame = frame.f_back
        with open(LOG, "a") as log:
            log.write(json.dumps([name, caller]) + "\n")
        raise ModuleNotFoundError(f"No module named {name!r} (not on this platform)", name=name)


for name in list(sys.modules):
    if name.partition(".")[0] in BLOCKED:
        del sys.modules[name]
sys.meta_path.insert(0, NotOnThisPlatform())
for name in OS_UNIX_ONLY:
    if hasattr(os, name):
        delattr(os, name)
for name in dir(signal):
    if (name.startswith("SIG") and name not in SIGNALS_EVERYWHERE) or name in SIGNAL_CALLS:
        delattr(signal, name)
del socket.MSG_DONTWAIT  # a flag of recv() that Windows does not have
sys.argv = ["companion", *sys.argv[1:]]
runpy.run_module("companion", run_name="__main__", alter_sys=True)
"""


def without_unix(tmp_path, *args, **kw):
    log = tmp_path / "blocked-imports.jsonl"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("COMPANION_", "XDG_"))}
    env["UNIX_AWAY"] = json.dumps([BLOCKED, OS_UNIX_ONLY, sorted(SIGNALS_EVERYWHERE), SIGNAL_CALLS_UNIX_ONLY, str(log)])
    env["XDG_DATA_HOME"] = str(tmp_path / "user-data")
    work = tmp_path / "work"
    work.mkdir(exist_ok=True)
    command = [sys.executable, "-I", "-c", CHILD, *args]
    return log, dict(args=command, cwd=work, env=env, **kw)


def attempts(log):
    return [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []


def test_the_default_server_runs_without_anything_unix_only(tmp_path):
    port = free_port()
    # No --data-dir, as a host would run it (the user's data folder, moved into tmp_path by
    # XDG_DATA_HOME); elsewhere that variable does not apply, so the data dir is named.
    named = [] if sys.platform.startswith("linux") else ["--data-dir", str(tmp_path / "data")]
    log, how = without_unix(tmp_path, "serve", "--host", "127.0.0.1", "--port", str(port), *named)
    server = subprocess.Popen(stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **how)
    try:
        banner = read_banner(server)
        fetched = walk(f"http://127.0.0.1:{port}")
        live_page_comes_and_goes(port)
        assert server.poll() is None
    finally:
        server.terminate()
        server.wait(10)
    assert {"/static/js/main.js", "/rules"} <= fetched
    assert named or "your user data folder" in banner[-1]
    import companion

    ours = os.path.dirname(companion.__file__)
    from_the_app = [(name, caller) for name, caller in attempts(log) if caller.startswith(ours)]
    assert from_the_app == [], f"the app imports what Windows lacks: {from_the_app}"


def live_page_comes_and_goes(port):
    code, phones = benchlib.new_table(port, 1)
    stream = benchlib.event_stream(port, code, timeout=10)
    data = b""
    while b"retry:" not in data:  # the stream is open
        data += stream.recv(4096)
    seat = json.loads(phones[0].get(f"/t/{code}/state.json")[2])["state"]["seats"][0]["id"]
    assert phones[0].post(f"/t/{code}/act/score", {"seat": seat, "delta": 1, "csrf": phones[0].csrf}, HX)[0] == 200
    while b"event: live" not in data:
        data += stream.recv(65536)
    stream.close()
    deadline = time.time() + 15
    while json.loads(phones[0].get("/healthz")[2])["open_streams"] and time.time() < deadline:
        time.sleep(0.2)
    assert json.loads(phones[0].get("/healthz")[2])["open_streams"] == 0


def test_workers_say_in_a_sentence_that_gunicorn_cannot_run_here(tmp_path):
    log, how = without_unix(
        tmp_path, "serve", "--port", "1", "--workers", "2", "--database", "postgresql://nobody@127.0.0.1:1/x"
    )
    done = subprocess.run(capture_output=True, text=True, timeout=60, **how)
    assert done.returncode == 2, done.stderr
    assert "works only on Unix" in done.stderr and "Traceback" not in done.stderr


def test_a_database_without_its_part_installed_says_how_to_install_it(tmp_path):
    """psycopg is an extra (table-companion[postgresql]): without it, --database is a sentence."""
    log, how = without_unix(tmp_path, "serve", "--port", "1", "--database", "postgresql://nobody@127.0.0.1:1/x")
    done = subprocess.run(capture_output=True, text=True, timeout=60, **how)
    assert done.returncode == 1, done.stderr
    assert "table-companion[postgresql]" in done.stderr and "Traceback" not in done.stderr
