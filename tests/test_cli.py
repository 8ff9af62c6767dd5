"""The command line and the package: `companion --help`, `python -m companion`, the wheel."""

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_help_lists_serve_and_its_options():
    out = subprocess.run([sys.executable, "-m", "companion", "--help"], capture_output=True, text=True)
    assert out.returncode == 0 and "serve" in out.stdout
    out = subprocess.run([sys.executable, "-m", "companion", "serve", "--help"], capture_output=True, text=True)
    for option in ("--host", "--port", "--data-dir", "--public-url"):
        assert option in out.stdout


def test_serve_prints_the_address_and_a_qr_code(live_server):
    # live_server was started exactly as `companion serve` starts; ask a fresh one for its banner.
    from conftest import Server
    server = Server(live_server.data_dir)
    process = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", str(server.port),
         "--data-dir", live_server.data_dir, "--public-url", "http://games.example.lan/"],
        stdout=subprocess.PIPE, text=True)
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


@pytest.mark.skipif(not (ROOT / "pyproject.toml").exists(), reason="needs the source tree")
def test_the_wheel_carries_templates_static_and_rules(tmp_path):
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
                           capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    wheel = next(tmp_path.glob("*.whl"))
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in ("companion/templates/base.html", "companion/static/app.js",
                   "companion/static/vendor/htmx-2.0.11.min.js", "companion/rules/data/blackmail.json"):
        assert needed in names
