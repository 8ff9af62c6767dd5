"""The command line: `companion --help`, `python -m companion`, the banner, where the data goes."""

import re
import subprocess
import sys


def test_help_lists_serve_and_its_options():
    out = subprocess.run([sys.executable, "-m", "companion", "--help"], capture_output=True, text=True)
    assert out.returncode == 0 and "serve" in out.stdout
    out = subprocess.run([sys.executable, "-m", "companion", "serve", "--help"], capture_output=True, text=True)
    for option in ("--host", "--port", "--data-dir", "--public-url"):
        assert option in out.stdout


def test_serve_prints_the_address_and_a_qr_code(live_server):
    # live_server was started exactly as `companion serve` starts; ask a fresh one for its banner.
    from helpers import Server

    server = Server(live_server.data_dir)
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "companion",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(server.port),
            "--data-dir",
            live_server.data_dir,
            "--public-url",
            "http://games.example.lan/",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    lines = []
    try:
        while not lines or not lines[-1].startswith("Data:"):  # the banner's last line
            line = process.stdout.readline()
            if not line:
                break
            lines.append(line)
    finally:
        process.terminate()
        process.wait(10)
    text = "".join(lines)
    assert "http://games.example.lan/" in text and "█" in text
    assert "Live pages: 288 at once (--threads 320)" in text


# The wheel's contents and the installed app: tests/routes/test_install.py.


def test_data_goes_where_it_is_named_or_was_or_the_users_data_folder(tmp_path, monkeypatch):
    from companion.cli import data_dir_choice

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    if sys.platform.startswith("linux"):
        assert data_dir_choice(None) == (str(tmp_path / "xdg" / "table-companion"), "your user data folder")
    (tmp_path / "data").mkdir()  # where earlier versions kept it: still used
    assert data_dir_choice(None) == (str(tmp_path / "data"), "the data folder in the current folder")
    assert data_dir_choice("elsewhere") == ("elsewhere", None)


def test_data_dir_from_the_environment_and_the_last_flag_wins(monkeypatch):
    from companion.cli import serve

    monkeypatch.setenv("COMPANION_DATA_DIR", "/from/env")
    assert serve.make_context("serve", []).params["data_dir"] == "/from/env"
    # `make run` passes --data-dir data, then the user's ARGS: theirs must win.
    assert serve.make_context("serve", ["--data-dir", "data", "--data-dir", "/mine"]).params["data_dir"] == "/mine"
    monkeypatch.delenv("COMPANION_DATA_DIR")
    assert serve.make_context("serve", []).params["data_dir"] is None


def test_the_printed_address_is_an_ipv4_address():
    from companion.cli import lan_address

    assert re.fullmatch(r"\d+\.\d+\.\d+\.\d+", lan_address())


def test_workers_need_gunicorn_and_say_so(monkeypatch):
    from companion import cli

    assert cli.gunicorn_missing() is None  # here (Linux, gunicorn installed) it can run
    monkeypatch.delattr(cli.os, "fork")
    assert "works only on Unix" in cli.gunicorn_missing()


def test_a_full_collection_freezes_what_survived_and_hands_it_back_every_few_minutes():
    import gc

    from companion import cli

    now = [0.0]
    after = cli.short_full_passes(every=300, clock=lambda: now[0])
    try:
        assert after in gc.callbacks
        gc.collect()  # a full pass: what survived it is frozen, later passes skip it
        assert gc.get_freeze_count() > 0
        # A young pass freezes nothing more. (The count may fall: a frozen object that another
        # thread lets go of is freed, and leaves the frozen ones.)
        frozen = gc.get_freeze_count()
        gc.collect(0)
        assert gc.get_freeze_count() <= frozen
        now[0] = 301.0
        gc.collect()  # minutes on: handed back, so the next full pass frees its garbage cycles
        assert gc.get_freeze_count() == 0
        gc.collect()
        assert gc.get_freeze_count() > 0
    finally:
        gc.callbacks.remove(after)
        gc.unfreeze()
