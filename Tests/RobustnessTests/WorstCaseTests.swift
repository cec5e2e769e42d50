import ContentRuleMatcher
import ContentRuleModel
import ContentRuleURL
import Foundation
import PCRE2Support
import TestSupport
import Testing
import URLFilterSyntax

/// Worst-case patterns and requests: nested quantifiers that make a backtracking engine explode,
/// many universal rules with conditions, and long adversarial URLs. WebKit runs a DFA, which never
/// fails and never takes more than linear time, so every answer here must be the regular-language
/// answer, whatever PCRE2's backtracking does.
@Suite struct WorstCaseTests {
    /// Patterns of backtracking-hostile shapes with the language each denotes (a simple, independent
    /// statement of what "matches somewhere in the URL" means for it).
    /// Acceptance from the WebKitGTK 2.50.6 compile oracle (run 2026-12-01): all compile except
    /// `(a|aa)*c` ("Disjunctions are not supported yet.").
    static let hostile: [(pattern: String, matches: @Sendable (String) -> Bool)] = [
        ("(a*)*b", { $0.contains("b") }),
        (".*.*.*x", { $0.contains("x") }),
        ("(a+)+b", { $0.contains("ab") }),
        ("(.*a)*b", { $0.contains("b") }),
        ("((a*)*)*b", { $0.contains("b") }),
        ("(a*a*)*b", { $0.contains("b") }),
        ("a*a*a*a*a*a*a*a*b", { $0.contains("b") }),
        ("(.*)*x", { $0.contains("x") }),
        ("(aa?)*b", { $0.contains("b") }),
        ("(a?a)*c", { $0.contains("c") }),
        (
            ".*a.*a.*a.*a.*a.*b",
            { url in
                guard let last = url.lastIndex(of: "b") else { return false }
                return url[..<last].filter { $0 == "a" }.count >= 5
            }
        ),
        ("(a?)*a*a*b", { $0.contains("b") }),
        ("([^/]*a)*b", { $0.contains("b") }),
        ("(a+)+=", { $0.contains("a=") }),
    ]

    @Test func acceptanceMatchesWebKit() {
        for (pattern, _) in Self.hostile {
            #expect(URLFilter.parse(pattern, caseSensitive: false).status == .ok, "\(pattern)")
        }
        #expect(URLFilter.parse("(a|aa)*c", caseSensitive: false).status == .disjunction)
    }

    /// URLs built to make backtracking explode: long runs of `a` that end without the needed
    /// character, sometimes followed by a real match further on.
    static let adversarialURLs: [String] = {
        let run64K = String(repeating: "a", count: 65_536)
        let run40 = String(repeating: "a", count: 40)
        return [
            "https://x.test/" + run64K,
            "https://x.test/" + run64K + "c",
            "https://x.test/?q=" + run40 + "c" + "ab",
            "https://x.test/?q=" + run40 + "c" + "a=",
            "https://x.test/?q=" + run64K + "c" + "ab",
            "https://x.test/" + run40 + "!" + run40 + "aaaaab",
            "https://x.test/" + String(repeating: "a/", count: 20_000) + "x",
        ]
    }()

    @Test(arguments: 0..<14) func hostilePatternAnswersTheRegularLanguage(index: Int) throws {
        let (pattern, language) = Self.hostile[index]
        let json = #"[{"trigger":{"url-filter":"\#(pattern)"},"action":{"type":"block"}}]"#
        let list = try #require(TestLists.compile(json).list, "\(pattern)")
        for url in Self.adversarialURLs {
            let load = try #require(TestLists.script(url))
            let expected = language(load.url.serialization)
            let (fast, seconds) = TestLists.time { list.actions(for: load) }
            #expect(
                fast.actions == (expected ? [.block] : []), "\(pattern) on \(url.prefix(60))… (\(url.count) bytes)")
            #expect(list.referenceActions(for: load) == fast, "\(pattern)")
            #expect(seconds < 5, "\(pattern): \(seconds) s")
        }
    }

    /// Where the fallback is known to give up (SECURITY.md, "Regular-expression limits"): a nested plus
    /// group inside a url-filter (at its ends the translation keeps one repetition, so the hostile
    /// `(a+)+b` above is searched as `ab`) needs a DFA state per repetition; on a run of 64 Ki `a`
    /// before the match both engines stop and the answer is "no match".
    @Test func nestedPlusGroupInsideAPatternIsAKnownGap() throws {
        let json = #"[{"trigger":{"url-filter":"x(a+)+b"},"action":{"type":"block"}}]"#
        let list = try #require(TestLists.compile(json).list)
        let short = try #require(TestLists.script("https://x.test/?q=x" + String(repeating: "a", count: 40) + "c&xab"))
        #expect(list.actions(for: short).actions == [.block])
        let long = try #require(
            TestLists.script("https://x.test/?q=x" + String(repeating: "a", count: 65_536) + "c&xab"))
        let (fast, seconds) = TestLists.time { list.actions(for: long) }
        withKnownIssue("x(a+)+b on a long run: backtracking and the capped DFA both give up → no match") {
            #expect(fast.actions == [.block])
        }
        #expect(list.referenceActions(for: long) == fast)
        #expect(seconds < 5)
    }

    /// The defined behaviour at a PCRE2 limit, on the matcher: the backtracking search of
    /// `a*a*a*a*a*a*a*a*b` (polynomial: every split of the run between the eight stars) hits the match
    /// limit on 40 `a` + `c`, and the DFA fallback finds the later `ab`, as WebKit's DFA does; so does
    /// `(a*)*b`, a repeated group, at its smaller limit.
    @Test func limitHitFallsBackToTheDFA() throws {
        let url = "https://x.test/?q=" + String(repeating: "a", count: 40) + "cab"
        let load = try #require(TestLists.script(url))
        let scratch = PCRE2Scratch()
        let bytes = Array(url.utf8)
        for (pattern, repeatsAGroup) in [("a*a*a*a*a*a*a*a*b", false), ("(a*)*b", true)] {
            let list = try #require(
                TestLists.compile(#"[{"trigger":{"url-filter":"\#(pattern)"},"action":{"type":"block"}}]"#).list)
            #expect(list.actions(for: load).actions == [.block], "\(pattern)")
            #expect(list.referenceActions(for: load).actions == [.block], "\(pattern)")
            // Directly on PCRE2: the answer is exact, and says which way it was found.
            let regex = try PCRE2Regex(pattern, options: [])
            #expect(regex.repeatsAGroup == repeatsAGroup)
            #expect(bytes.withUnsafeBufferPointer { regex.matchesReportingLimit($0, scratch: scratch) } == .match)
            #expect(scratch.lastMatchHitLimit, "\(pattern)")
            #expect(scratch.lastMatchUsedDFA, "\(pattern)")
        }
    }

    /// Where the fallback gives up: `(a+)+b` with 100,000 `a` before the match. Defined behaviour:
    /// `.limitExceeded`, reported as no match (a known gap, SECURITY.md), within a bounded time.
    @Test func fallbackGivesUpOnNestedPlusGroupsInBoundedTime() throws {
        let regex = try PCRE2Regex("(a+)+b", options: [])
        let scratch = PCRE2Scratch()
        let bytes = Array((String(repeating: "a", count: 100_000) + "cab").utf8)
        let (outcome, seconds) = TestLists.time {
            bytes.withUnsafeBufferPointer { regex.matchesReportingLimit($0, scratch: scratch) }
        }
        #expect(outcome == .limitExceeded)
        #expect(scratch.lastMatchHitLimit && scratch.lastMatchUsedDFA)
        #expect(seconds < 2)
        // Short runs are answered exactly.
        let short = Array((String(repeating: "a", count: 40) + "cab").utf8)
        #expect(short.withUnsafeBufferPointer { regex.matchesReportingLimit($0, scratch: scratch) } == .match)
    }
}
