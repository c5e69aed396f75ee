"""Interop with a real IHateMoney (S6): its exports, made now by IHateMoney itself on loopback,
import into Tally with the balances IHateMoney reports.

scripts/ihatemoney-fixtures installs IHateMoney from PyPI into a virtual environment (reused from
IHATEMONEY_VENV when it is there), runs it on 127.0.0.1 with a throw-away database, builds three
projects through its API and downloads their JSON and CSV exports with the balances it computes.
Each export then goes through `tally import ihatemoney`, and `tally balance --json` must agree
with IHateMoney to within half the currency's smallest unit (IHateMoney keeps floats and never
rounds; Tally rounds once, exactly). Importing the other format of the same project adds nothing.
"""

import json
import os
import subprocess
from decimal import Decimal
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PROJECTS = {"household": None, "trip": None, "couple": "EUR"}  # couple's export has no currency


def tally_binary():
    binary = Path(os.environ.get("TALLY_BIN", REPO / ".build" / "debug" / "tally"))
    return binary if binary.is_absolute() else REPO / binary


@pytest.fixture(scope="module")
def exports(tmp_path_factory):
    """The exports a real IHateMoney made just now."""
    folder = tmp_path_factory.mktemp("ihatemoney")
    venv = os.environ.get("IHATEMONEY_VENV", str(Path(os.environ.get("TMPDIR", "/tmp")) / "ihatemoney-venv"))
    result = subprocess.run([str(REPO / "scripts" / "ihatemoney-fixtures"), "--venv", venv, "--out", str(folder)],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, f"IHateMoney could not make its exports:\n{result.stdout}\n{result.stderr}"
    return folder


def tally(database, *arguments):
    environment = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(Path(database).parent),
                   "TALLY_DATABASE": str(database), "TALLY_NOW": "2026-11-21T10:00:00Z", "LANG": "C.UTF-8"}
    result = subprocess.run([str(tally_binary()), *arguments], capture_output=True, text=True, env=environment, timeout=60)
    assert result.returncode == 0, f"tally {' '.join(arguments)}: {result.stderr}"
    return result.stdout


@pytest.mark.parametrize("project", sorted(PROJECTS))
@pytest.mark.parametrize("first", ["json", "csv"])
def test_balances_match_ihatemoney(exports, tmp_path, project, first):
    database = tmp_path / "tally.sqlite"
    currency = ["--currency", PROJECTS[project]] if PROJECTS[project] else []
    report = json.loads(tally(database, "import", "ihatemoney", str(exports / f"{project}.{first}"),
                              "--name", project, *currency, "--json"))
    bills = json.loads((exports / f"{project}.json").read_text())
    assert report["added"] == len(bills) and report["alreadyThere"] == 0

    # The same project's other export adds nothing twice.
    other = "csv" if first == "json" else "json"
    again = json.loads(tally(database, "import", "ihatemoney", str(exports / f"{project}.{other}"),
                             "--ledger", project, "--json"))
    assert again["added"] == 0 and again["alreadyThere"] == len(bills)

    summary = json.loads(tally(database, "balance", "--ledger", project, "--json"))
    ours = {member["name"]: Decimal(member["balance"]) for member in summary["members"]}
    reported = {name: Decimal(values["balance"])
                for name, values in json.loads((exports / f"{project}.balances.json").read_text())["members"].items()}
    assert set(ours) == set(reported)
    assert sum(ours.values()) == 0
    decimals = len(summary["members"][0]["balance"].partition(".")[2])
    half_unit = Decimal(1).scaleb(-decimals) / 2
    for name, value in ours.items():
        assert abs(value - reported[name]) <= half_unit + Decimal("0.000001"), \
            f"{project}: {name} has {value} in Tally and {reported[name]} in IHateMoney"
