"""Builds library.db in the current folder (the shelfwise project) from its CSV exports in data/."""

import sqlite3
from pathlib import Path

BRANCHES = ["central", "eastgate", "harbourside", "millbrook", "northfield", "oakridge", "riverside", "southbank",
            "westend", "willowdale", "brookhaven", "kingsmere"]  # fmt: skip
data = Path("data")
db = sqlite3.connect("library.db")
db.executescript(
    """
        CREATE TABLE branches (code TEXT PRIMARY KEY, name TEXT NOT NULL);
        CREATE TABLE members (member_id INTEGER PRIMARY KEY, name TEXT NOT NULL, branch TEXT REFERENCES branches(code),
                              joined TEXT, status TEXT CHECK (status IN ('active', 'suspended')));
        CREATE TABLE loans (loan_id INTEGER PRIMARY KEY, member_id INTEGER NOT NULL REFERENCES members(member_id),
                            isbn TEXT NOT NULL, genre TEXT, branch TEXT REFERENCES branches(code), out TEXT NOT NULL,
                            due TEXT NOT NULL, returned TEXT);
        CREATE TABLE returns (loan_id INTEGER, returned TEXT, condition TEXT, desk TEXT);
        """
)
for code in BRANCHES:
    db.execute("INSERT INTO branches VALUES (?, ?)", (code, code.title() + " Library"))
for line in (data / "members.csv").read_text().splitlines()[1:]:
    db.execute("INSERT INTO members VALUES (?, ?, ?, ?, ?)", line.split(","))
for line in (data / "loans.csv").read_text().splitlines()[1:]:
    row = line.split(",")
    db.execute("INSERT INTO loans VALUES (?, ?, ?, ?, ?, ?, ?, ?)", [*row[:7], row[7] or None])
db.commit()
db.close()
