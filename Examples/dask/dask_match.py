#!/usr/bin/env python3
"""Runs a compiled rule list over a request log with Dask.

    dask_match.py LIST.cbin [LIST.cbin ...] REQUESTS.jsonl [--output DIR] [--blocksize BYTES]
                  [--scheduler processes|threads|synchronous|ADDRESS] [--full]

REQUESTS.jsonl has one `content-blocker match --requests` request per line. ``dask.bag.read_text``
cuts the log into partitions; ``map_partitions`` decides each one in a worker, where
``content_blocker.shared_matcher`` maps the compiled lists once per worker process. Prints
``{"requests": N, "blocked": B, "errors": E}``, the counts ``content-blocker match --requests``
gives; ``--output DIR`` writes the result lines (one file per partition).

``--scheduler ADDRESS`` (``tcp://host:8786``) runs on a dask.distributed cluster: the list files must
be at the same path on every worker (see Examples/spark/README.md: the same holds).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Iterable, List


def match_partition(lines: Iterable[str], paths: List[str], full: bool) -> List[str]:
    """The result lines of a partition's request lines, in order (read_text keeps the newlines)."""
    import content_blocker

    matcher = content_blocker.shared_matcher(paths)
    # Dask runs a task per worker thread or process already: one library thread per partition.
    return list(matcher.match_lines((line.rstrip("\r\n") for line in lines), brief=not full, jobs=1))


def count_partition(lines: Iterable[str]) -> List[tuple]:
    requests = blocked = errors = 0
    for line in lines:
        requests += 1
        if line.startswith('{"error":') or (line.startswith('{"id":') and '"blockedLoad":' not in line):
            errors += 1
        elif '"blockedLoad":true' in line:
            blocked += 1
    return [(requests, blocked, errors)]


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+", help="LIST.cbin ... REQUESTS.jsonl")
    parser.add_argument("--output", help="write the result lines to this directory")
    parser.add_argument("--blocksize", default="16MiB", help="bytes of the log per partition")
    parser.add_argument("--scheduler", default="processes",
                        help="processes, threads, synchronous, or a dask.distributed scheduler address")
    parser.add_argument("--full", action="store_true", help="results with selectors and stylesheets")
    args = parser.parse_args(argv)
    if len(args.paths) < 2:
        parser.error("needs at least one list and the request log")
    lists, requests = [os.path.abspath(p) for p in args.paths[:-1]], args.paths[-1]

    import dask
    import dask.bag as db

    scheduler = args.scheduler
    if "://" in scheduler:
        from dask.distributed import Client

        client = Client(scheduler)  # noqa: F841 (the default scheduler while it lives)
        scheduler = None
    lines = db.read_text(requests, blocksize=args.blocksize)
    results = lines.map_partitions(match_partition, lists, args.full)
    with dask.config.set(scheduler=scheduler) if scheduler else _nothing():
        if args.output:
            results = results.persist()
            results.to_textfiles(os.path.join(args.output, "part-*.jsonl"), last_endline=True)
        totals = results.map_partitions(count_partition).fold(
            lambda a, b: tuple(x + y for x, y in zip(a, b)), initial=(0, 0, 0)).compute()
    requests_count, blocked, errors = totals
    print(json.dumps({"requests": requests_count, "blocked": blocked, "errors": errors}))
    return 0


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
