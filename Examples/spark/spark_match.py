#!/usr/bin/env python3
"""Runs a compiled rule list over a request log with Apache Spark.

    spark_match.py LIST.cbin [LIST.cbin ...] REQUESTS.jsonl [--output DIR] [--master local[*]]
                   [--partitions N] [--full] [--timing]

REQUESTS.jsonl has one `content-blocker match --requests` request per line. Each partition is decided
by an executor: its Python worker maps the compiled lists once (``content_blocker.load``, a
memory-mapped file shared by every worker of the machine through the page cache) and matches its
lines with ``Matcher.match_lines``; the driver only counts. Prints one JSON object:
``{"requests": N, "blocked": B, "errors": E}`` (the same counts as ``content-blocker match --requests``
gives: ``"blockedLoad":true`` lines and ``"error"`` lines). With ``--output DIR`` the result lines are
written there as text (one part file per partition, lines in the order of their partition).

The list files must be at the same path on every executor: a shared file system, or ``--files``
(see README.md).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Iterable, Iterator, List

def matcher_for(paths: List[str]):
    """The worker process's matcher for ``paths``: ``content_blocker.shared_matcher`` maps the lists
    on the first partition a Python worker runs and reuses them for the next ones (Spark reuses its
    Python workers: spark.python.worker.reuse)."""
    import content_blocker

    return content_blocker.shared_matcher([resolve(path) for path in paths])


def resolve(path: str) -> str:
    """A list's path on this executor: as given, or (shipped with ``--files`` / ``addFile``) the
    executor's copy."""
    if os.path.exists(path):
        return path
    from pyspark import SparkFiles

    return SparkFiles.get(os.path.basename(path))


def match_partition(paths: List[str], full: bool, lines: Iterable[str]) -> Iterator[str]:
    """The result line of each request line of a partition, in order. Lines go to the library in
    chunks (one C call per 4096 lines), matched on one thread: Spark runs a task per core already."""
    return matcher_for(paths).match_lines(lines, brief=not full, jobs=1)


def count_partition(lines: Iterable[str]) -> Iterator[tuple]:
    requests = blocked = errors = 0
    for line in lines:
        requests += 1
        if line.startswith('{"error":') or (line.startswith('{"id":') and '"blockedLoad":' not in line):
            errors += 1
        elif '"blockedLoad":true' in line:
            blocked += 1
    yield (requests, blocked, errors)


def main(argv: List[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="+", help="LIST.cbin ... REQUESTS.jsonl")
    parser.add_argument("--output", help="write the result lines to this directory")
    parser.add_argument("--master", default=None, help="Spark master (default: spark-submit's, else local[*])")
    parser.add_argument("--partitions", type=int, default=None, help="minimum number of partitions")
    parser.add_argument("--full", action="store_true", help="results with selectors and stylesheets")
    parser.add_argument("--timing", action="store_true",
                        help='add "jobSeconds": the time of the Spark job alone (Spark already started)')
    args = parser.parse_args(argv)
    if len(args.paths) < 2:
        parser.error("needs at least one list and the request log")
    lists, requests = [os.path.abspath(p) for p in args.paths[:-1]], args.paths[-1]

    from pyspark.sql import SparkSession

    master = args.master or ("local[*]" if "SPARK_HOME" not in os.environ else None)
    if master and master.startswith("local"):
        # Local executors run on this machine: give them this interpreter (and its content_blocker).
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    builder = SparkSession.builder.appName("content-blocker match")
    if master:
        builder = builder.master(master)
    spark = builder.getOrCreate()
    try:
        context = spark.sparkContext
        text = context.textFile(requests, minPartitions=args.partitions) if args.partitions else \
            context.textFile(requests)
        started = time.perf_counter()
        results = text.mapPartitions(lambda lines: match_partition(lists, args.full, lines))
        if args.output:
            results = results.cache()
            results.saveAsTextFile(args.output)
        totals = results.mapPartitions(count_partition).reduce(lambda a, b: tuple(x + y for x, y in zip(a, b)))
        job_seconds = time.perf_counter() - started
    finally:
        spark.stop()
    requests_count, blocked, errors = totals
    summary = {"requests": requests_count, "blocked": blocked, "errors": errors}
    if args.timing:
        summary["jobSeconds"] = round(job_seconds, 3)
    print(json.dumps(summary))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
