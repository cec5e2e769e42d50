"""match_many against `content-blocker match --requests`: the same lines, byte for byte, for the
bundled real lists and requests from the repository's data (conftest.corpus_requests)."""

from __future__ import annotations

import json

import pytest

import content_blocker as cb
from conftest import RULES, corpus_requests, field_request_line, field_units, rule_list_texts, run_cli

BUNDLED = [RULES / "easy2json" / "easylist.json", RULES / "easy2json" / "easyprivacy.json",
           RULES / "brave-ios" / "block-ads.json"]


@pytest.fixture(scope="module")
def compiled_lists(tmp_path_factory):
    folder = tmp_path_factory.mktemp("lists")
    paths = []
    for source in BUNDLED:
        path = folder / (source.stem + ".cbin")
        cb.compile(source.read_bytes(), source.stem).save(path)
        paths.append(path)
    return paths


def request_text(requests):
    extra = ['{"url": "https://x.test/", "colour": 1, "requestMethod": "GETT"}', "", "[1]",
             '{"id": 1.50, "url": 3}', '{"id": {"a": [1, "x"]}, "url": "https://ads.example/ad.js"}']
    return "\n".join([json.dumps(r) for r in requests] + extra) + "\n"


@pytest.mark.parametrize("brief", [True, False], ids=["brief", "full"])
def test_match_many_equals_cli_on_bundled_lists(cli, compiled_lists, tmp_path, brief):
    requests = request_text(corpus_requests())
    (tmp_path / "requests.jsonl").write_text(requests)
    lists = [str(p) for p in compiled_lists] if brief else [str(compiled_lists[2])]
    flags = ["--brief"] if brief else ["--full"]
    expected = run_cli(cli, "match", *lists, "--requests", str(tmp_path / "requests.jsonl"), *flags,
                       "--fired-rules").decode().splitlines()
    matcher = cb.Matcher([cb.load(p) for p in lists])
    actual = list(matcher.match_lines(requests.splitlines(), brief=brief, fired_rules=True, chunk_size=100))
    assert len(actual) == len(expected) > 300
    for number, (ours, theirs) in enumerate(zip(actual, expected), 1):
        assert ours == theirs, f"line {number}"
    results = matcher.match_many(requests.splitlines(), brief=brief)
    assert sum(r.blocked_load for r in results) == sum('"blockedLoad":true,' in line for line in expected) > 0
    assert [r.error for r in results if not r.ok] == [json.loads(line)["error"] for line in expected
                                                       if line.startswith('{"error"') or '"error":' in line[:40]]


def test_match_many_equals_cli_on_field_cases(cli, tmp_path):
    """Each field case's own list (JSON, compiled by the CLI too) and requests, full results."""
    compared = 0
    for index, unit in enumerate(field_units()):
        texts = rule_list_texts(unit)
        requests = [json.dumps(field_request_line(r)) for r in unit.get("requests", [])]
        if not requests or unit.get("expectCompileError") or len(texts) != 1:
            continue
        identifier, text = texts[0]
        path = tmp_path / f"{identifier}-{index}.json"
        path.write_text(text)
        (tmp_path / "requests.jsonl").write_text("\n".join(requests) + "\n")
        expected = run_cli(cli, "match", str(path), "--requests", str(tmp_path / "requests.jsonl"), "--full").decode()
        actual = cb.Matcher(cb.compile(text, path.stem)).match_lines(requests, brief=False)
        assert list(actual) == expected.splitlines(), f"{unit['file']} {unit['name']}"
        compared += len(requests)
    assert compared > 50
