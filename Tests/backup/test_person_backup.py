"""A person's JSON backup (A2) from the command line, checked against the schema in
docs/person-backup.schema.json, restored through the API into another account of the same server:
the same history, kinds and ledger balances; again without merging, refused with 409; merged, it
adds nothing twice; a backup of a newer version is refused by name.
"""

import json
import subprocess
import sys
import urllib.error
import urllib.request
from pathlib import Path

import jsonschema

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
import tally_process  # noqa: E402  (Tests/support: the built tally and `tally serve`)

PASSWORD = "correct horse battery staple"
SCHEMA = Path(__file__).resolve().parents[2] / "docs" / "person-backup.schema.json"


def tally(*arguments, database, user=None, stdin=None, check=True):
    extra = ["--user", user] if user else []
    done = subprocess.run([str(tally_process.binary()), *arguments, "--database", str(database), *extra], input=stdin,
                          capture_output=True, text=True, timeout=120, env=tally_process.environment(TALLY_NOW="2026-05-31T18:00:00Z"))
    if check:
        assert done.returncode == 0, f"tally {' '.join(arguments)}: {done.stderr}"
    return done


def post(base, path, body, secret):
    request = urllib.request.Request(base + path, method="POST", data=body,
                                     headers={"Authorization": f"Bearer {secret}", "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read())


def test_a_backup_follows_its_schema_and_restores_into_another_account(tmp_path):
    database = tmp_path / "tally.sqlite"
    for name in ["ada", "bob"]:
        tally("user", "create", name, "--time-zone", "Europe/Paris", database=database, stdin=PASSWORD + "\n")
    tally("kinds", "add", "Kvass", "--factor", "0.9", database=database, user="ada")
    for args in [["drink", "250", "--kind", "Kvass", "--at", "2026-05-30T08:00", "--note", "=1+1, \"fresh\""],
                 ["drink", "500", "--at", "2026-05-31T07:30"], ["remove", "100", "--at", "2026-05-31T07:45"],
                 ["goal", "set", "2200"]]:
        tally(*args, database=database, user="ada")
    tally("ledger", "create", "Home", "--currency", "EUR", "--member", "Ada", "--member", "Sam", database=database, user="ada")
    tally("spend", "30.00", "Groceries", "--ledger", "Home", database=database, user="ada")
    tally("recurring", "add", "800", "Rent", "--every", "month", "--on", "1", "--from", "2099-01-01",
          "--ledger", "Home",
          "--payer", "Ada=500", "--payer", "Sam=300", database=database, user="ada")
    backup = tmp_path / "ada.json"
    tally("export", "json", "-o", str(backup), database=database, user="ada")

    document = json.loads(backup.read_text(encoding="utf-8"))
    jsonschema.validate(document, json.loads(SCHEMA.read_text(encoding="utf-8")))
    assert document["format"] == "tally-person-backup" and document["version"] == 2
    assert [entry["type"] for entry in document["entries"]] == ["drink", "drink", "removal"]
    assert [ledger["ledger"]["name"] for ledger in document["ledgers"]] == ["Home"]
    assert [(r["description"], r["nextDate"]) for r in document["ledgers"][0]["recurring"]] == [("Rent", "2099-01-01")]

    secret = json.loads(tally("token", "create", "--user", "bob", "--json", database=database).stdout)["secret"]
    with tally_process.serve(database, tmp_path / "serve.log", tally_process.environment()) as base:
        status, report = post(base, "/api/v1/restore", backup.read_bytes(), secret)
        assert status == 200, report
        assert (report["drinksAdded"], report["removalsAdded"], report["newKinds"], report["ledgers"]) == (2, 1, ["Kvass"], ["Home"])
        assert report["recurringExpensesAdded"] == 1, report
        status, problem = post(base, "/api/v1/restore", backup.read_bytes(), secret)
        assert status == 409 and problem["detail"].startswith("This account has drinks already"), problem
        status, report = post(base, "/api/v1/restore?merge=true", backup.read_bytes(), secret)
        assert status == 200 and report["drinksAdded"] + report["removalsAdded"] + report["ledgerEntriesAdded"] == 0, report
        assert report["recurringExpensesAdded"] == 0, report
        newer = backup.read_bytes().replace(b'"version":2', b'"version":3')
        status, problem = post(base, "/api/v1/restore?merge=true", newer, secret)
        assert status == 400 and "version 3" in problem["detail"], problem

    for command in [["history", "--month", "2026-05", "--json"], ["kinds", "--json"], ["balance", "--ledger", "Home"],
                    ["recurring", "list", "--ledger", "Home"]]:
        ada = tally(*command, database=database, user="ada").stdout
        bob = tally(*command, database=database, user="bob").stdout
        if command[0] == "kinds":
            ada, bob = ([(kind["name"], kind["factor"]) for kind in json.loads(text)] for text in (ada, bob))
        if command[0] == "recurring":  # each line starts with the expense's own id
            ada, bob = ([line.split("  ", 1)[-1] for line in text.splitlines()] for text in (ada, bob))
        assert ada == bob, f"tally {' '.join(command)} differs:\n{ada}\n{bob}"
