"""Answers against WebKit's: expected values come from the conformance data in Tests/Data (WebKit's
own tests and what real WebKit did), not from this library's output."""

from __future__ import annotations

import json

import pytest

import content_blocker as cb
from conftest import (DATA, field_request_line, field_units, load_json, oracle_request_line, oracle_suites,
                      rule_list_texts)

FIELD_UNITS = list(field_units())
# WebKit computes this load type from the URLs; the data records the source's (see FieldConformanceTests).
LOAD_TYPE_OVERRIDES = {("B041.json", "main", "about:blank"): "third-party"}


@pytest.mark.parametrize("unit", FIELD_UNITS, ids=lambda u: f"{u['file']}:{u['name']}")
def test_field_case(unit):
    """Field reports (Tests/Data/conformance/field), each verified against WebKitGTK: the compile
    verdict with WebKit's message, then each request's blocked / cookies / HTTPS outcome."""
    lists, failed = [], None
    for identifier, text in rule_list_texts(unit):
        try:
            lists.append(cb.compile(text, identifier))
        except cb.CompileError as error:
            failed = error.errors[0].message
    assert failed == unit.get("expectCompileError")
    if failed is not None:
        lists = []
    matcher = cb.Matcher(lists)
    for request in unit.get("requests", []):
        result = matcher.match_request(field_request_line(request))
        expected = request.get("contentBlockerExpected") or request.get("expected") or {}
        context = f"{unit['file']} {unit['name']} {request['url']}"
        if "blocked" in expected:
            assert result.blocked_load == expected["blocked"], context
        if "blockedCookies" in expected:
            assert result.blocked_cookies == expected["blockedCookies"], context
        if "madeHTTPS" in expected:
            assert result.made_https == expected["madeHTTPS"], context
        if request.get("loadType") is not None:
            key = (unit["file"], unit["name"], request["url"])
            assert result.load_type == LOAD_TYPE_OVERRIDES.get(key, request["loadType"]), context


@pytest.mark.parametrize("suite", oracle_suites(), ids=lambda p: p.stem)
def test_oracle_suite(suite):
    """WebKitGTK 2.50.6's outcomes (Tests/Data/oracle) for the plain loads of each suite: blocked,
    loaded or upgraded, and whether cookies were sent."""
    data = load_json(suite)
    texts = ([json.dumps(data["rules"])] if "rules" in data else []) + [
        json.dumps(rules) for rules in data.get("rule_lists", [])]
    matcher = cb.Matcher([cb.compile(text, f"list{i}") for i, text in enumerate(texts)])
    checked = 0
    for case in data["cases"]:
        line = oracle_request_line(case)
        if line is None:
            continue
        expect = case["expect"] if isinstance(case["expect"], dict) else {"outcome": case["expect"]}
        result = matcher.match_request(line)
        outcome = expect.get("outcome")
        # The oracle observes the network: an http subresource of an https page arrives upgraded by
        # mixed-content rules, not by the content blocker.
        if (outcome == "upgraded" and line["mainDocumentURL"].startswith("https:")
                and line["url"].startswith("http:") and line["resourceType"] != "top-document"):
            outcome = "loaded"
        if outcome is not None:
            actual = "blocked" if result.blocked_load else "upgraded" if result.made_https else "loaded"
            assert actual == outcome, case["id"]
        if "cookie_sent" in expect:
            assert result.blocked_cookies == (not expect["cookie_sent"]), case["id"]
        checked += 1
    assert checked > 0 or suite.stem in {"load_context_frames"}, "no plain case in the suite"


PARSING_CASES = load_json(DATA / "conformance" / "webkit" / "parsing-errors.json")["cases"]


@pytest.mark.parametrize("case", PARSING_CASES, ids=lambda c: c["id"])
def test_parsing_error(case):
    """WebKit's ContentExtensionsTests / API tests: which lists are rejected, with which error and
    message (the first error is WebKit's)."""
    (_, text), = rule_list_texts(case)
    expected = case.get("expectError")
    if expected is None:
        assert cb.compile(text).rule_count >= 0
        return
    with pytest.raises(cb.CompileError) as raised:
        cb.compile(text)
    first = raised.value.errors[0]
    if expected != "*":
        assert first.error == expected
        assert first.message == case["expectErrorMessage"]
        assert first.message in str(raised.value)


def test_api_notification_case():
    """WebKit's ContentRuleList.NotificationMainResource: a notify action reaches the page."""
    case = next(c for c in load_json(DATA / "conformance" / "webkit" / "api-tests.json")["cases"]
                if c["id"] == "ContentRuleList.NotificationMainResource#1")
    (identifier, text), = rule_list_texts(case)
    request = case["requests"][0]
    result = cb.match(cb.compile(text, identifier), request["url"], resource_type=request["resourceType"],
                      load_context=request["loadContext"])
    callback = request["expectedOutcome"]["notificationCallback"]
    assert result.notifications == callback["notifications"]
    assert [a.list for a in result.actions if a.type == "notify"] == callback["ruleListIdentifiers"]
