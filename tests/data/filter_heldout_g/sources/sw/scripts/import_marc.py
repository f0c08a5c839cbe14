"""Import MARC records exported by the old catalogue into the county format."""

import sys

FIELDS = {"020": "isbn", "100": "author", "245": "title", "260": "imprint"}


def parse_record(lines):
    record = {}
    for line in lines:
        tag, value = line[:3], line[4:].strip()
        if tag in FIELDS:
            record[FIELDS[tag]] = value
    return record


def main(path):
    with open(path) as fh:
        chunks = fh.read().split("\n\n")
    records = [parse_record(chunk.splitlines()) for chunk in chunks if chunk.strip()]
    for rec in records:
        print("{isbn}\t{title}".format(**rec)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
