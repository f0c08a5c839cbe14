"""wxpipe command line."""
import argparse
import glob
import sys

from wxpipe import __version__
from wxpipe.clean import daily, problems
from wxpipe.ingest import ingest


def _paths(patterns):
    paths = sorted(p for pattern in patterns for p in glob.glob(pattern))
    if not paths:
        sys.exit("wxpipe: no input files match " + " ".join(patterns))
    return paths


def cmd_ingest(args):
    frame = ingest(_paths(args.files))
    print(f"read {len(frame)} readings from {frame['station'].nunique()} stations")
    print(f"period {frame['ts'].min():%Y-%m-%d %H:%M} .. {frame['ts'].max():%Y-%m-%d %H:%M}")
    if args.out:
        frame.to_csv(args.out, index=False)
        print(f"wrote {args.out}")
    return 0


def cmd_validate(args):
    frame = ingest(_paths(args.files))
    found = problems(frame)
    for line in found:
        print(line)
    print(f"{len(found)} problem(s) in {len(frame)} readings")
    return 2 if found else 0


def cmd_report(args):
    import pandas as pd
    frame = ingest(_paths(args.files))
    days = daily(frame)
    table = days.pivot(index="day", columns="station", values="tmax").round(1)
    with pd.option_context("display.width", 100, "display.max_rows", 100):
        print(f"daily maximum temperature (C), {args.month}")
        print(table)
        print()
        print(table.describe().round(2))
    return 0


def cmd_schedule(args):
    from wxpipe.scheduler import run
    return run(args.ticks, args.stations)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="wxpipe", description="Weather-station data pipeline.")
    parser.add_argument("--version", action="version", version=f"wxpipe {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("ingest", help="read logger exports and convert them to SI units")
    p.add_argument("files", nargs="+")
    p.add_argument("-o", "--out", help="write the combined readings as CSV")
    p.set_defaults(func=cmd_ingest)
    p = sub.add_parser("validate", help="range-check readings")
    p.add_argument("files", nargs="+")
    p.set_defaults(func=cmd_validate)
    p = sub.add_parser("report", help="daily maximum temperature per station")
    p.add_argument("--month", required=True)
    p.add_argument("files", nargs="+")
    p.set_defaults(func=cmd_report)
    p = sub.add_parser("schedule", help="poll the stations every 15 minutes (simulated clock)")
    p.add_argument("--ticks", type=int, default=96)
    p.add_argument("--stations", type=int, default=5)
    p.set_defaults(func=cmd_schedule)
    args = parser.parse_args(argv)
    return args.func(args)
