"""The Spark and Dask examples (Examples/spark, Examples/dask) on a small log from the repository's
data: their counts must be the CLI's (`content-blocker match --requests`)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

import content_blocker as cb
from conftest import ROOT, RULES, corpus_requests, run_cli

EXAMPLES = ROOT / "Examples"


@pytest.fixture(scope="module")
def workload(tmp_path_factory):
    """Two bundled real lists, compiled, and a log: the data's requests four times over, with bad lines."""
    folder = tmp_path_factory.mktemp("engines")
    lists = []
    for source in (RULES / "easy2json" / "easylist.json", RULES / "brave-ios" / "block-ads.json"):
        path = folder / (source.stem + ".cbin")
        cb.compile(source.read_bytes(), source.stem).save(path)
        lists.append(path)
    lines = [json.dumps(r) for r in corpus_requests()] * 4 + ["not json", '{"url": "nope"}', ""]
    log = folder / "requests.jsonl"
    log.write_text("\n".join(lines) + "\n")
    return lists, log


def cli_counts(cli, lists, log):
    output = run_cli(cli, "match", *map(str, lists), "--requests", str(log), "--brief").decode().splitlines()
    objects = [json.loads(line) for line in output]
    return {"requests": len(objects), "blocked": sum(1 for o in objects if o.get("blockedLoad") is True),
            "errors": sum(1 for o in objects if "error" in o)}


def run_example(script, *arguments, timeout=600):
    started = time.monotonic()
    completed = subprocess.run([sys.executable, str(script), *map(str, arguments)], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, timeout=timeout, check=False)
    assert completed.returncode == 0, completed.stderr.decode()[-4000:]
    print(f"{script.name}: {time.monotonic() - started:.1f} s")
    return json.loads(completed.stdout.decode().strip().splitlines()[-1])


def test_spark_example_counts_equal_the_cli(cli, workload, tmp_path):
    pytest.importorskip("pyspark", reason="pyspark is not installed (pip install pyspark)")
    if shutil.which("java") is None:
        pytest.skip("Java is missing: Spark needs a JVM (Java 17)")
    lists, log = workload
    expected = cli_counts(cli, lists, log)
    assert expected["requests"] > 1000 and expected["blocked"] > 0 and expected["errors"] >= 3
    counts = run_example(EXAMPLES / "spark" / "spark_match.py", *lists, log, "--master", "local[2]",
                         "--partitions", "4", "--output", tmp_path / "out")
    assert counts == expected
    written = sorted((tmp_path / "out").glob("part-*"))
    assert sum(len(p.read_text().splitlines()) for p in written) == expected["requests"]


def test_dask_example_counts_equal_the_cli(cli, workload, tmp_path):
    pytest.importorskip("dask.bag", reason="dask is not installed (pip install 'dask[bag]')")
    lists, log = workload
    expected = cli_counts(cli, lists, log)
    counts = run_example(EXAMPLES / "dask" / "dask_match.py", *lists, log, "--blocksize", "40000",
                         "--output", tmp_path / "out")
    assert counts == expected
    written = sorted((tmp_path / "out").glob("part-*"))
    assert len(written) > 1
    assert sum(len(p.read_text().splitlines()) for p in written) == expected["requests"]
