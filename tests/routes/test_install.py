"""The app installed as a host would install it: the wheel in a fresh virtual environment
outside the checkout, `companion serve` from there, and every kind of file the wheel must
carry (templates, static files, rules data) fetched over HTTP.

`walk(url)` (helpers.py, shared with test_portable.py) plays a host and a phone through the
app's own forms, the way a browser without script would.
"""

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from helpers import ROOT, free_port, read_banner, walk

NETWORK_TROUBLE = (
    "NewConnectionError",
    "Temporary failure in name resolution",
    "Max retries exceeded",
    "Network is unreachable",
    "No route to host",
    "ProxyError",
    "ConnectTimeout",
)


# --- the wheel, in a fresh virtual environment --------------------------------------------


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    if not (ROOT / "pyproject.toml").exists():
        pytest.skip("needs the source tree")
    out = tmp_path_factory.mktemp("wheel")
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(out), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert built.returncode == 0, built.stderr
    return next(out.glob("table_companion-*.whl"))


# One worker builds the wheel once for both tests (`--dist loadgroup` in make test).
@pytest.mark.xdist_group("wheel")
def test_the_wheel_carries_every_template_static_file_and_rules_file(wheel):
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = {
        f"companion/{path.relative_to(ROOT).as_posix()}"
        for folder in ("templates", "static")
        for path in (ROOT / folder).rglob("*")
        if path.is_file()
    }
    expected |= {
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "companion").rglob("*")
        if path.is_file() and path.suffix in (".py", ".json") and "__pycache__" not in path.parts
    }
    assert expected - names == set()


@pytest.mark.xdist_group("wheel")
def test_the_installed_app_serves_everything_from_outside_the_checkout(wheel, tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=60)
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    python = next(p for p in (bin_dir / "python", bin_dir / "python.exe") if p.exists())
    # The project's pip installs into the new environment (no pip of its own to bootstrap);
    # the dependencies come from the index, so a dependency missing from pyproject.toml fails here.
    installed = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "-q",
            "--disable-pip-version-check",
            str(wheel),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    if installed.returncode and any(word in installed.stderr for word in NETWORK_TROUBLE):
        pytest.skip(f"cannot reach the package index to install the dependencies: {installed.stderr[-300:]}")
    assert installed.returncode == 0, installed.stderr

    # A clean environment: nothing points back at the checkout, the data goes where the user's goes.
    env = {
        k: v for k, v in os.environ.items() if not k.startswith(("COMPANION_", "PYTHON", "XDG_")) and k != "VIRTUAL_ENV"
    }
    env["XDG_DATA_HOME"] = str(tmp_path / "user-data")
    work = tmp_path / "somewhere"
    work.mkdir()
    where = subprocess.run(
        [str(python), "-c", "import companion; print(companion.__file__)"],
        capture_output=True,
        text=True,
        cwd=work,
        env=env,
        timeout=30,
    )
    assert Path(where.stdout.strip()).resolve().is_relative_to(venv.resolve()), where.stdout + where.stderr

    port = free_port()
    # No --data-dir, as a host would run it; XDG_DATA_HOME keeps it in tmp_path on Linux only.
    named = [] if sys.platform.startswith("linux") else ["--data-dir", str(tmp_path / "data")]
    command = shutil.which("companion", path=str(bin_dir))  # companion.exe on Windows
    server = subprocess.Popen(
        [command, "serve", "--host", "127.0.0.1", "--port", str(port), *named],
        cwd=work,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
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
