"""`tally migrate-store`: a whole installation copied from its SQLite file into an empty PostgreSQL
database, table by table, with the rows of each counted in both; every command then shows on
PostgreSQL exactly what it showed on SQLite. A second copy into the same database is refused and
changes nothing; a missing file is named.

The PostgreSQL server is the one scripts/test starts (TALLY_TEST_POSTGRES_URL); see
test_two_instances.py.
"""

import json
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "support"))
import tally_process  # noqa: E402



@pytest.fixture(scope="module")
def database():
    """A new database on the test's PostgreSQL server, shared by this module's tests in order."""
    with tally_process.postgres_database("migrate_store") as url:
        yield url

NOW = "2026-03-29T20:00:00Z"  # the evening of a DST change in Berlin


def tally(*arguments, database, now=NOW, stdin=None, check=True):
    done = subprocess.run([str(tally_process.binary()), *arguments, "--database", str(database)], input=stdin,
                          capture_output=True, text=True, timeout=60,
                          # The file's own person, "local", keeps their tally once the file has an account.
                          env=tally_process.environment(TALLY_NOW=now, LANG="C.UTF-8", TALLY_USER="local"))
    if check:
        assert done.returncode == 0, f"tally {' '.join(arguments)}: {done.stderr}"
    return done


def fill(path):
    """Something of everything: drinks over a few days, a removal, an edit and a deletion, a kind,
    a profile and a goal, the bottle, reminders, an account and its token, and a ledger with an
    uneven split, an expense two members paid, a payment, a deleted expense and two recurring
    expenses (one paused)."""
    tally("settings", "set", "timezone", "Europe/Berlin", database=path)
    for day, amount in (("2026-03-27", "500"), ("2026-03-28", "750"), ("2026-03-29", "250")):
        tally("drink", amount, "--at", f"{day}T09:30:00+01:00", database=path, now=f"{day}T18:00:00Z")
    tally("kinds", "add", "Matcha", "--factor", "0.9", database=path)
    tally("drink", "300", "--kind", "Matcha", "--note", "after lunch", database=path)
    deleted = json.loads(tally("drink", "100", "--json", database=path).stdout)["entry"]["id"]
    tally("delete", deleted, database=path)
    tally("remove", "50", database=path)
    tally("profile", "set", "--age", "34", "--weight", "70", "--activity", "active", database=path)
    tally("goal", "set", "2200", database=path)
    tally("bottle", "capacity", "750", database=path)
    tally("bottle", "sip", database=path)
    tally("reminders", "set", "--on", "--wake", "07:00", "--sleep", "22:30", "--count", "6", database=path)
    tally("user", "create", "admin", database=path, stdin="correct horse battery staple\n")
    tally("token", "create", "--user", "admin", database=path)
    tally("ledger", "create", "Flat", "--currency", "EUR", "--member", "Ada", "--member", "Sam", "--member", "Kim",
          database=path)
    tally("spend", "90", "Groceries", "--payer", "Ada", "--split", "shares", "--part", "Ada=2", "--part", "Sam=1",
          "--part", "Kim=1", "--category", "Food", database=path)
    tally("spend", "10", "Bread", "--payer", "Sam", database=path)
    tally("spend", "45", "Dinner", "--payer", "Ada=30", "--payer", "Kim=15", database=path)
    tally("pay", "Kim", "Ada", "20", database=path)
    # Typed in another currency: the amount as typed, its currency and its rate go along.
    tally("spend", "100", "Museum", "--currency", "USD", "--rate", "0.9234", "--payer", "Kim=60", "--payer", "Sam=40",
          database=path)
    gone = json.loads(tally("spend", "33.33", "Mistake", "--json", database=path).stdout)["id"]
    tally("expenses", "delete", gone, database=path)
    tally("recurring", "add", "800", "Rent", "--every", "month", "--on", "31", "--payer", "Sam", "--until", "2027-12-31",
          database=path)
    tally("recurring", "add", "9.99", "Music", "--every", "week", "--on", "friday", "--among", "Ada,Kim", database=path)
    tally("recurring", "pause", "Music", database=path)


# What a person sees, in JSON: the same on both stores.
VIEWS = [
    ("today",), ("history",), ("goal",), ("kinds",), ("presets",), ("settings",), ("bottle", "show"),
    ("reminders", "show"), ("ledger", "show"), ("ledger", "list"), ("balance",), ("settle",), ("expenses", "list"),
    ("expenses", "list", "--deleted"), ("recurring", "list"), ("user", "list"), ("token", "list", "--user", "admin"),
]


def test_an_installation_moves_to_postgresql_whole(tmp_path, database):
    sqlite = tmp_path / "tally.sqlite"
    fill(sqlite)

    copied = json.loads(tally("migrate-store", "--from", str(sqlite), "--to", database, "--json", database=sqlite).stdout)
    counts = {table["table"]: (table["source"], table["target"]) for table in copied}
    assert all(source == target for source, target in counts.values()), counts
    for table, least in (("user", 2), ("intake", 5), ("removal", 1), ("drinkKind", 8), ("goal", 1), ("dayTotal", 3),
                         ("spendingEntry", 5), ("spendingShare", 10), ("spendingPayer", 2), ("ledgerActivity", 5), ("memberTotal", 3),
                         ("apiToken", 1), ("userBottle", 1), ("userReminders", 1), ("userProfile", 1),
                         ("recurringExpense", 2)):
        assert counts[table][0] >= least, (table, counts[table])

    for view in VIEWS:
        on_sqlite = json.loads(tally(*view, "--json", database=sqlite).stdout)
        on_postgres = json.loads(tally(*view, "--json", database=database).stdout)
        assert on_postgres == on_sqlite, view
    museum = [e for e in json.loads(tally("expenses", "list", "--json", database=database).stdout) if e["description"] == "Museum"]
    assert [(e["amount"], e["original"]["amount"], e["original"]["currency"], e["original"]["rate"]) for e in museum] \
        == [("92.34", "100.00", "USD", "0.9234")], museum

    # The copy goes on living: a drink on PostgreSQL counts on the day it was copied into.
    before = json.loads(tally("today", "--json", database=database).stdout)["totalMl"]
    tally("drink", "200", database=database)
    assert json.loads(tally("today", "--json", database=database).stdout)["totalMl"] == before + 200


def test_a_second_copy_is_refused_and_changes_nothing(tmp_path, database):
    sqlite = tmp_path / "other.sqlite"
    tally("drink", "400", database=sqlite)
    before = tally("user", "list", "--json", database=database).stdout
    again = tally("migrate-store", "--from", str(sqlite), "--to", database, database=sqlite, check=False)
    assert again.returncode == 3
    assert "holds a Tally installation already" in again.stderr
    assert tally("user", "list", "--json", database=database).stdout == before


def test_a_missing_file_is_named(tmp_path, database):
    missing = tmp_path / f"{uuid.uuid4().hex}.sqlite"
    done = tally("migrate-store", "--from", str(missing), "--to", database, database=tmp_path / "unused.sqlite", check=False)
    assert done.returncode == 2
    assert str(missing) in done.stderr
    assert not missing.exists()
