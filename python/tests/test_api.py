"""The package's API: compile, load, save, match, match_many, errors, threads."""

from __future__ import annotations

import threading

import pytest

import content_blocker as cb

ADS = '[{"trigger": {"url-filter": "ads"}, "action": {"type": "block"}}]'


def test_version_and_library():
    assert cb.version() == cb.__version__
    assert cb.binary_format_version() >= 6
    assert cb.library_path().endswith(".so")


def test_compile_save_load_round_trip(tmp_path):
    compiled = cb.compile(ADS, "ads")
    assert (compiled.identifier, compiled.rule_count, compiled.diagnostics) == ("ads", 1, [])
    compiled.save(tmp_path / "ads.cbin")
    loaded = cb.load(tmp_path / "ads.cbin")
    assert loaded.identifier == "ads" and loaded.rule_count == 1
    assert cb.load(tmp_path / "ads.cbin", identifier="other", copy=True).identifier == "other"
    loaded.save(tmp_path / "again.cbin")
    assert (tmp_path / "again.cbin").read_bytes() == (tmp_path / "ads.cbin").read_bytes()


def test_compile_error_has_every_diagnostic():
    # WebKit reports the first error; every error is listed with its rule index and key.
    text = ('[{"trigger": {"url-filter": "(a|b)"}, "action": {"type": "block"}},'
            ' {"trigger": {"url-filter": "x"}, "action": {"type": "explode"}}]')
    with pytest.raises(cb.CompileError) as raised:
        cb.compile(text.encode())
    # WebKit parses every rule before it compiles url-filters: the action type's error is the first.
    first, second = raised.value.errors
    assert (first.error, first.rule, first.key) == ("JSONInvalidActionType", 1, "action.type")
    assert (second.error, second.message, second.rule, second.key) == (
        "JSONInvalidRegex", "Invalid or unsupported regular expression.", 0, "trigger.url-filter")
    assert str(second).startswith("rule 0: trigger.url-filter: Invalid or unsupported regular expression.")
    assert "2 errors" in str(raised.value)


def test_compile_warning_for_a_dropped_rule():
    # WebKit accepts the list and drops a rule whose selector is invalid.
    text = ('[{"trigger": {"url-filter": "x"}, "action": {"type": "css-display-none", "selector": "a[["}},'
            ' {"trigger": {"url-filter": "ads"}, "action": {"type": "block"}}]')
    rule_list = cb.compile(text)
    assert [d.severity for d in rule_list.diagnostics] == ["warning"]


def test_load_errors(tmp_path):
    with pytest.raises(cb.LoadError, match="No such file"):
        cb.load(tmp_path / "missing.cbin")
    (tmp_path / "list.json").write_text(ADS)
    with pytest.raises(cb.LoadError, match="not a binary rule list"):
        cb.load(tmp_path / "list.json")
    cb.compile(ADS).save(tmp_path / "ads.cbin")
    data = bytearray((tmp_path / "ads.cbin").read_bytes())
    data[-1] ^= 0xFF
    (tmp_path / "damaged.cbin").write_bytes(bytes(data))
    with pytest.raises(cb.LoadError):
        cb.load(tmp_path / "damaged.cbin")


def test_match_one_load():
    rules = cb.compile(ADS, "ads")
    result = cb.match(rules, "https://x.test/ads.js#frag", "https://news.test/", "script")
    assert result.ok and result.blocked_load and result.load_type == "third-party"
    assert result.url == "https://x.test/ads.js"  # WebKit's loader drops the fragment
    assert result.actions == [cb.Action("ads", "block")]
    assert not cb.match(rules, "https://x.test/a.js", "https://news.test/", "script").blocked_load


def test_match_request_errors():
    rules = cb.compile(ADS)
    with pytest.raises(cb.RequestError, match="url is not a valid URL"):
        cb.match(rules, "not a url")
    with pytest.raises(cb.RequestError, match="unknown resourceType 'picture'"):
        cb.match(rules, "https://x.test/", resource_type="picture")


def test_make_https_and_second_check():
    rules = cb.compile('[{"trigger": {"url-filter": "^http:"}, "action": {"type": "make-https"}},'
                       ' {"trigger": {"url-filter": "beacon", "resource-type": ["other"]},'
                       '  "action": {"type": "block"}}]', "l")
    upgraded = cb.match(rules, "http://x.test/a.png", "http://x.test/", "image")
    assert upgraded.made_https and upgraded.request_url == "https://x.test/a.png"
    # A ping is checked as itself, then (not blocked) again as `other`, the ping load it becomes.
    ping = cb.match(rules, "https://x.test/hello", "https://x.test/", "ping")
    assert not ping.blocked_load and ping.second_check is not None and ping.second_check.resource_type == "other"
    assert cb.match(rules, "https://x.test/beacon", "https://x.test/", "ping").blocked_load


def test_brief_and_full_results():
    rules = cb.compile('[{"trigger": {"url-filter": ".*"}, "action": {"type": "css-display-none", "selector": ".ad"}},'
                       ' {"trigger": {"url-filter": "x"}, "action": {"type": "css-display-none", "selector": ".x"}}]')
    brief = cb.match(rules, "https://x.test/")
    assert brief.actions == [] and brief.css_display_none_actions == 1
    assert brief.lists[0].global_stylesheet_bytes > 0
    full = cb.match(rules, "https://x.test/", brief=False, fired_rules=True)
    assert [a.selector for a in full.actions] == [".x"]
    assert ".ad" in full.lists[0].global_stylesheet and full.lists[0].fired_rules == [1]


def test_match_many_in_order_with_errors_numbered_over_all_requests():
    matcher = cb.Matcher(cb.compile(ADS, "ads"))
    requests = [{"url": f"https://x.test/{'ads' if i % 3 == 0 else 'ok'}/{i}", "id": i} for i in range(50)]
    requests[17] = "not json"
    requests[30] = {"id": "thirty", "url": "https://x.test/", "colour": "red"}
    results = matcher.match_many(requests, chunk_size=8, jobs=2)
    assert len(results) == 50
    assert results[17].error == "line 18: invalid JSON at byte 0: invalid literal"
    assert results[30].id == "thirty" and results[30].warnings == ["unknown request key 'colour' ignored"]
    for i, result in enumerate(results):
        if i not in (17, 30):
            assert result.id == i and result.blocked_load == (i % 3 == 0)
    assert cb.match_many([cb.compile(ADS)], []) == []


def test_several_lists_and_closed_handles():
    first, second = cb.compile(ADS, "first"), cb.compile('[{"trigger": {"url-filter": "ads"},'
                                                          ' "action": {"type": "block-cookies"}}]', "second")
    matcher = cb.Matcher([first, second])
    first.close()  # the matcher keeps its lists
    result = matcher.match("https://x.test/ads")
    assert [a.list for a in result.actions] == ["first", "second"] and result.blocked_cookies
    with pytest.raises(ValueError, match="closed"):
        first.save("/dev/null")
    matcher.close()
    with pytest.raises(ValueError, match="closed"):
        matcher.match("https://x.test/")


def test_active_actions_apply_redirects():
    rules = cb.compile('[{"trigger": {"url-filter": "a.js"}, "action": {"type": "redirect",'
                       ' "redirect": {"url": "https://cdn.test/b.js"}}}]')
    assert not cb.Matcher(rules).match("https://x.test/a.js").redirected
    redirected = cb.Matcher(rules, active_actions=["<all_urls>"]).match("https://x.test/a.js")
    assert redirected.redirected and redirected.request_url == "https://cdn.test/b.js"
    with pytest.raises(cb.ContentBlockerError, match="invalid match pattern"):
        cb.Matcher(rules, active_actions=["nope"])


def test_threads_share_a_matcher():
    matcher = cb.Matcher(cb.compile(ADS), engine="reference")
    failures = []

    def work(offset):
        for i in range(200):
            blocked = matcher.match(f"https://x.test/{'ads' if (i + offset) % 2 else 'ok'}").blocked_load
            if blocked != bool((i + offset) % 2):
                failures.append(i)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
