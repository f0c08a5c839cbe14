"""``zeph-nb``, the command line: ``migrate-config`` for a person's config file, ``team-db`` for the administrator
of a team's audit database (``setup`` applies the schema and row-level security, ``grant`` lets a login role in),
and ``hub-key`` for the hub service's signing key (reviewers' answers are signed with it)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from zeph_nb.config import Settings
from zeph_nb.config.legacy import main as migrate_config
from zeph_nb.errors import ConfigError

__all__ = ["main"]

# Each command has its own parser (and --help); this is the one place that lists them all.
USAGE = """usage: zeph-nb COMMAND ...

commands:
  migrate-config FILE   rewrite a config file's deprecated keys, keeping its comments and layout
  team-db setup|grant   set up a team's PostgreSQL audit database, and let a login role in (--reviewer, --hub)
  hub-key PATH          make the hub service's signing key; prints the review_key line for the managed file

zeph-nb COMMAND --help says more about each."""


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] in (["-h"], ["--help"], []):
        print(USAGE)
        return 0 if args else 2
    if args[:1] == ["hub-key"]:
        return _hub_key(args[1:])
    if args[:1] != ["team-db"]:
        return migrate_config(args)
    parser = argparse.ArgumentParser(
        prog="zeph-nb team-db",
        description="Set up a team's PostgreSQL audit database. Connects as you (libpq finds the password in "
        "~/.pgpass, PGSERVICEFILE or PGPASSWORD); run it as the role that owns the database.",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    setup = commands.add_parser("setup", help="create or migrate the tables, roles and row-level security")
    grant = commands.add_parser("grant", help="let a login role ship its kernel's rows (--reviewer: read all rows)")
    grant.add_argument("role", help="an existing database login role, usually the person's hub name")
    grant.add_argument("--reviewer", action="store_true", help="may read every user's rows")
    grant.add_argument(
        "--hub",
        action="store_true",
        help="the hub service's role: reads every row, records reviewers' answers, ships nothing",
    )
    for command in (setup, grant):
        command.add_argument("--url", help="the database (default: [store] audit_url of the loaded settings)")
    options = parser.parse_args(args[1:])
    try:
        url = options.url or Settings.load().store.audit_url
    except ConfigError as e:
        print(f"zeph-nb: {e}", file=sys.stderr)
        return 2
    if not url:
        print("zeph-nb: no database named: pass --url 'host=… dbname=…' or set [store] audit_url", file=sys.stderr)
        return 2
    return _team_db(options, url)


def _team_db(options: argparse.Namespace, url: str) -> int:
    import psycopg

    from zeph_nb.store.team_schema import grant_role, migrate_team

    try:
        with psycopg.connect(url, connect_timeout=10, application_name="zeph-nb team-db") as con:
            if options.command == "setup":
                for line in migrate_team(con):
                    print(f"applied: {line}")
            else:
                print(grant_role(con, options.role, reviewer=options.reviewer, hub=options.hub))
                con.commit()
    except (psycopg.Error, LookupError) as e:
        print(f"zeph-nb team-db {options.command}: {str(e).strip()}", file=sys.stderr)
        return 1
    return 0


def _hub_key(args: list[str]) -> int:
    from pathlib import Path

    from zeph_nb.security.review_signature import generate_key

    parser = argparse.ArgumentParser(
        prog="zeph-nb hub-key",
        description="Make the hub service's signing key (Ed25519). Keep the file where only the hub can read it and "
        "name it in the service's ZEPH_HUB_SIGNING_KEY; put the printed line in the managed settings file.",
    )
    parser.add_argument("path", help="where to write the private key (refused if a file is there)")
    options = parser.parse_args(args)
    try:
        public = generate_key(Path(options.path))
    except FileExistsError:
        print(f"zeph-nb hub-key: {options.path} exists; kernels may already trust its key. Remove it first if you "
              "mean to replace it (and update review_key in the managed settings).", file=sys.stderr)  # fmt: skip
        return 1
    except OSError as e:
        print(f"zeph-nb hub-key: cannot write {options.path}: {e.strerror or e}", file=sys.stderr)
        return 1
    print(f"wrote {options.path} (mode 0600). In the managed settings file's [gates.approval] table (with "
          'decided_by = "reviewers"), set:\n\n'
          f'review_key = "{public}"')  # fmt: skip
    return 0


if __name__ == "__main__":  # pragma: no cover - `python -m zeph_nb.cli`
    sys.exit(main())
