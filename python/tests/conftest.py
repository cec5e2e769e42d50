"""Shared fixtures: the checkout's test data, the `content-blocker` CLI, request lines from the data."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional

import pytest

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "Tests" / "Data"
RULES = ROOT / "rules"


def cli_path() -> Optional[Path]:
    """The `content-blocker` CLI: $CONTENT_BLOCKER_CLI, else the checkout's release or debug build."""
    given = os.environ.get("CONTENT_BLOCKER_CLI")
    if given:
        return Path(given)
    for configuration in ("release", "debug"):
        path = ROOT / ".build" / configuration / "content-blocker"
        if path.is_file():
            return path
    found = shutil.which("content-blocker")
    return Path(found) if found else None


@pytest.fixture(scope="module")
def cli() -> Path:
    path = cli_path()
    if path is None or not path.is_file():
        pytest.skip("the content-blocker CLI is not built (set CONTENT_BLOCKER_CLI or run `swift build`)")
    return path


def run_cli(cli: Path, *arguments: str, input: Optional[bytes] = None) -> bytes:
    """The CLI's standard output; exit 0, or 1 for `match --requests` with bad request lines."""
    completed = subprocess.run([str(cli), *arguments], input=input, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               check=False)
    assert completed.returncode in (0, 1), completed.stderr.decode()
    return completed.stdout


def load_json(path: Path) -> Any:
    with open(path, encoding="utf-8") as file:
        return json.load(file)


def field_units() -> Iterator[Dict[str, Any]]:
    """Every unit (case and variant) of the field conformance data (Tests/Data/conformance/field),
    without the generated lists of tens of thousands of rules."""
    for path in sorted((DATA / "conformance" / "field").glob("B*.json")):
        entry = load_json(path)
        if "rulesGenerated" in json.dumps(entry):
            continue
        units = [entry] + [v for v in entry.get("variants", []) if not v.get("control")]
        for unit in units:
            yield {"file": path.name, "name": unit.get("name", "main"), **unit}


def field_request_line(request: Dict[str, Any]) -> Dict[str, Any]:
    """A field case's request as a `match --requests` line: its input keys (its `loadType` is an
    expectation, which WebKit computes: not given). PORT is a test server's port."""
    line = {}
    for key in ("url", "mainDocumentURL", "frameURL", "loadContext", "resourceType", "requestMethod"):
        if key in request:
            value = request[key]
            line[key] = value.replace("PORT", "8000") if isinstance(value, str) else value
    if "mainDocumentURL" not in line:
        line["mainDocumentURL"] = line["url"]
    return line


def rule_list_texts(unit: Dict[str, Any], default_identifier: str = "list") -> List[tuple]:
    """(identifier, JSON text) of each rule list of a conformance unit."""
    if "ruleLists" in unit:
        return [(item.get("identifier", f"list{i}"), rule_text(item)) for i, item in enumerate(unit["ruleLists"])]
    text = rule_text(unit)
    return [] if text is None else [(unit.get("ruleListIdentifier", default_identifier), text)]


def rule_text(unit: Dict[str, Any]) -> Optional[str]:
    if "rulesText" in unit:
        return unit["rulesText"]
    if "rules" in unit:
        return json.dumps(unit["rules"])
    generator = unit.get("rulesGenerator")
    if generator:
        return "[" + ",".join([json.dumps(generator["rule"])] * generator["repeat"]) + "]"
    return None


ORACLE_TYPES = {"image": "image", "script": "script", "style-sheet": "style-sheet", "font": "font",
                "media": "media", "fetch": "fetch", "xhr": "fetch", "websocket": "websocket",
                "svg-document": "svg-document"}


def oracle_request_line(case: Dict[str, Any]) -> Optional[Dict[str, Any]]:
    """A case of a WebKitGTK oracle suite (Tests/Data/oracle) as a request line, for the plain kinds
    (a top-level document, or a subresource of the page `main`, GET), as OracleSuiteTests models them;
    None for the kinds that need a page model (frames, pings, popups, scripted pages)."""
    if "modelAs" in case or "html" in case or "frame" in case:
        return None
    kind = case.get("type", "image")
    if kind == "document":
        return {"url": case["url"], "mainDocumentURL": case["url"], "frameURL": "about:blank",
                "resourceType": "top-document", "requestMethod": "get"}
    if kind not in ORACLE_TYPES:
        return None
    return {"url": case["url"], "mainDocumentURL": case.get("main", "http://first.test/"),
            "resourceType": ORACLE_TYPES[kind], "requestMethod": "get"}


def oracle_suites() -> List[Path]:
    return sorted((DATA / "oracle").glob("*.json"))


def corpus_requests() -> List[Dict[str, Any]]:
    """Request lines from the repository's data, for the bundled real lists: the sample requests,
    every field case's and every plain oracle case's requests, each with an id."""
    lines: List[Dict[str, Any]] = []
    with open(RULES / "sample-requests.jsonl", encoding="utf-8") as file:
        lines += [json.loads(line) for line in file if line.strip()]
    for unit in field_units():
        lines += [field_request_line(r) for r in unit.get("requests", [])]
    for suite in oracle_suites():
        for case in load_json(suite).get("cases", []):
            line = oracle_request_line(case)
            if line is not None:
                lines.append(line)
    return [{"id": index, **line} for index, line in enumerate(lines)]
