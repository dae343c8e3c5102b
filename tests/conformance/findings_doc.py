#!/usr/bin/env python3
"""Keeps docs/semantics.md's "Where the peers depart" tables those of a
conformance run.

tests/test_conformance.sh (in make check) has test_differential.py write
the peers' disagreements to tests/conformance-findings.md of the build
tree.  The page holds a copy between two marker lines, followed by a line
saying which run it came from:

    findings_doc.py check FINDINGS PAGE    # says whether the copy is this run's
    findings_doc.py update FINDINGS PAGE   # copies the run's tables in

`check` exits 0 when they agree and 1 when they do not, and the
conformance test fails on 1: the tables are the documented departures of
the peers, and a change in them (a peer's new version, a new case) must be
looked at, then copied in by `make semantics-doc`, which runs `update`.
Standard library only.
"""
import datetime
import os
import sys

BEGIN = "<!-- conformance-findings: begin (written by `make semantics-doc`; do not edit) -->"
END = "<!-- conformance-findings: end -->"
SOURCE = "Copied from the run of {date} of `tests/test_conformance.sh` by `make semantics-doc`."


def tables(findings_text):
    """The findings without their own title: the part the page shows."""
    lines = findings_text.splitlines()
    while lines and (lines[0].startswith("#") or not lines[0].strip()):
        lines.pop(0)
    return "\n".join(lines).rstrip("\n")


def split(page_text):
    """(before, copy, after) of the page; copy excludes the source line."""
    try:
        start = page_text.index(BEGIN) + len(BEGIN)
        stop = page_text.index(END, start)
    except ValueError:
        sys.exit(f"findings_doc: the page has no {BEGIN!r} ... {END!r} block")
    copy = page_text[start:stop].strip("\n").splitlines()
    if copy and copy[-1].startswith("Copied from the run of"):
        copy.pop()
    return page_text[:start], "\n".join(copy).strip("\n"), page_text[stop:]


def run_date(path):
    """The day the findings were written, in UTC."""
    stamp = datetime.datetime.fromtimestamp(os.path.getmtime(path), datetime.timezone.utc)
    return stamp.strftime("%Y-%m-%d")


def main(argv):
    if len(argv) != 4 or argv[1] not in ("check", "update"):
        sys.exit(__doc__)
    command, findings_path, page_path = argv[1:]
    with open(findings_path) as f:
        new = tables(f.read())
    with open(page_path) as f:
        page = f.read()
    before, copy, after = split(page)
    if command == "check":
        if copy == new:
            print(f"findings_doc: {page_path} shows this run's findings")
            return 0
        print(f"findings_doc: {page_path} shows other findings than this run's "
              f"({findings_path}); `make semantics-doc` copies them in")
        return 1
    text = (before + "\n" + new + "\n\n" + SOURCE.format(date=run_date(findings_path))
            + "\n" + after)
    with open(page_path, "w") as f:
        f.write(text)
    print(f"findings_doc: {page_path} updated from {findings_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
