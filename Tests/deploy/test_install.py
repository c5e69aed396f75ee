"""What the README says to install stands alone: `scripts/install` puts `tally`, `tally-server`
and what they read at run time in a folder of its own, and from there, in another folder, with
the build folders hidden (a tmpfs over .build, in a mount namespace of the test's own), the server
serves its pages with their style sheets and scripts, openapi.yaml and every language, `tally`
hands the server's commands to the `tally-server` beside it, and a local command speaks German.

The build the tests run is installed (`scripts/install --binaries`), not a release build made for
the test: what is checked is where the binaries find their resources, which is the same."""

import os
import re
import shutil
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
import tally_process  # noqa: E402

BUILD = tally_process.REPO / ".build"


def hidden_build(*command):
    """`command` in a mount namespace where the repository's build folders are an empty tmpfs."""
    return ["unshare", "--mount", "--propagation", "private", "sh", "-c",
            'mount -t tmpfs tmpfs "$0" && exec "$@"', str(BUILD), *map(str, command)]


def fetch(url, language=None):
    request = urllib.request.Request(url, headers={"Accept-Language": language} if language else {})
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.status, response.headers.get("Content-Type", ""), response.read().decode()


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("unshare") is None,
                    reason="hiding the build folders takes a mount namespace: root and unshare (as CI runs)")
def test_installed_binaries_stand_alone(tmp_path):
    prefix = tmp_path / "prefix"
    installed = subprocess.run([str(tally_process.REPO / "scripts" / "install"), "--binaries", str(tally_process.binary().parent), str(prefix)],
                               capture_output=True, text=True, timeout=120)
    assert installed.returncode == 0, installed.stderr
    assert (prefix / "bin" / "tally").is_symlink() and (prefix / "lib" / "tally" / "tally-server").exists()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    env = tally_process.environment(HOME=str(tmp_path / "home"), XDG_DATA_HOME=str(tmp_path / "data"), LANG="C.UTF-8")

    # A local command, in German, from tally alone: its catalog comes from beside the binary.
    today = subprocess.run(hidden_build(prefix / "bin" / "tally", "today"), cwd=elsewhere, capture_output=True, text=True,
                           env={**env, "LANG": "de_DE.UTF-8"}, timeout=60)
    assert today.returncode == 0, (today.returncode, today.stderr)
    assert "Heute" in today.stdout, today.stdout
    assert (tmp_path / "data" / "tally" / "tally.sqlite").exists(), "the default database follows XDG_DATA_HOME"

    # The server, started through tally (which becomes the tally-server beside it).
    port = tally_process.free_port()
    log = open(tmp_path / "serve.log", "wb")
    server = subprocess.Popen(hidden_build(prefix / "bin" / "tally", "serve", "--host", "127.0.0.1", "--port", port,
                                           "--database", tmp_path / "server.sqlite"),
                              cwd=elsewhere, stdout=log, stderr=subprocess.STDOUT, env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            assert server.poll() is None, (tmp_path / "serve.log").read_text()
            try:
                if fetch(base + "/health")[0] == 200:
                    break
            except OSError:
                pass
            assert time.monotonic() < deadline, (tmp_path / "serve.log").read_text()
            time.sleep(0.1)
        status, _, page = fetch(base + "/signup", language="de")
        assert status == 200 and "Konto erstellen" in page, page[:500]
        assets = re.findall(r'<link rel="stylesheet" href="([^"]+)"', page) + re.findall(r'<script[^>]* src="([^"]+)"', page)
        assert any(".css" in asset for asset in assets) and any(".js" in asset for asset in assets), assets
        for asset in assets:
            status, kind, body = fetch(base + asset.replace("&amp;", "&"))
            assert status == 200 and body and ("css" in kind or "javascript" in kind), (asset, status, kind)
        status, _, description = fetch(base + "/openapi.yaml")
        assert status == 200 and description.startswith("openapi:"), description[:100]
        for language, word in [("fr", "Créer le compte"), ("ar", 'dir="rtl"')]:
            assert word in fetch(base + "/signup", language=language)[2], language
    finally:
        server.terminate()
        server.wait(timeout=30)
        log.close()
    assert server.returncode == 0, (tmp_path / "serve.log").read_text()
