import PCRE2Support
import Testing

@Suite struct PCRE2RegexTests {
    @Test func compileErrorIsReported() {
        #expect(throws: PCRE2Error.self) { _ = try PCRE2Regex("(a", options: []) }
        do {
            _ = try PCRE2Regex("a(", options: [])
        } catch {
            #expect(error.offset == 2)
            #expect(!error.message.isEmpty)
        }
    }

    @Test func options() throws {
        #expect(try PCRE2Regex("abc", options: [.caseless]).matches("xABCx"))
        #expect(try !PCRE2Regex("abc", options: []).matches("xABCx"))
        #expect(try !PCRE2Regex("abc", options: [.anchored]).matches("xabc"))
        #expect(try PCRE2Regex(#"\u0041"#, options: [.javaScriptCompatible]).matches("A"))
        #expect(try PCRE2Regex("a.b", options: [.dotAll]).matches("a\nb"))
    }

    /// Spec §7 item 47: captures used by regex-substitution.
    @Test func captures() throws {
        let regex = try PCRE2Regex(
            #"^https://www\.(abc?)\.xyz\.com/"#, options: [.javaScriptCompatible])
        let groups = try #require(regex.firstMatch(in: "https://www.abc.xyz.com/"))
        #expect(groups.count == 2)
        #expect(groups[0] == 0..<24)
        #expect(groups[1] == 12..<15)
        let unset = try #require(try PCRE2Regex("a(x)?b", options: []).firstMatch(in: "zab"))
        #expect(unset == [1..<3, nil])
        #expect(regex.firstMatch(in: "http://nope") == nil)
    }

    @Test func scratchIsReusableAndLimitIsReported() throws {
        let scratch = PCRE2Scratch()
        let simple = try PCRE2Regex("b+", options: [])
        let bytes: [UInt8] = Array("aabba".utf8)
        #expect(bytes.withUnsafeBufferPointer { simple.matches($0, scratch: scratch) })
        #expect(!scratch.lastMatchHitLimit && !scratch.lastMatchUsedDFA)
        // Catastrophic backtracking must stop at the match limit instead of running for ages; the
        // DFA run then gives the regular-language answer (no match: the subject ends with "b").
        let evil = try PCRE2Regex("(a|aa)+$", options: [])
        let subject: [UInt8] = Array((String(repeating: "a", count: 200) + "b").utf8)
        let outcome = subject.withUnsafeBufferPointer {
            evil.matchesReportingLimit($0, scratch: scratch)
        }
        #expect(outcome == .noMatch)
        #expect(evil.repeatsAGroup)  // a repeated group: the smaller limit
        #expect(scratch.lastMatchHitLimit && scratch.lastMatchUsedDFA)
        #expect(!subject.withUnsafeBufferPointer { evil.matches($0, scratch: scratch) })
        // …and finds a match that lies beyond the explosion (a limit hit is not an answer: the DFA gives it).
        let later: [UInt8] = Array((String(repeating: "a", count: 40) + "c" + "ab").utf8)
        let nested = try PCRE2Regex("(a*)*b", options: [])
        #expect(later.withUnsafeBufferPointer { nested.matchesReportingLimit($0, scratch: scratch) } == .match)
        #expect(scratch.lastMatchHitLimit && scratch.lastMatchUsedDFA)
        // Polynomial backtracking without a repeated group stops at the (small) match limit instead.
        let stars = try PCRE2Regex("a*a*a*a*a*a*a*a*b", options: [])
        #expect(!stars.repeatsAGroup)
        #expect(later.withUnsafeBufferPointer { stars.matchesReportingLimit($0, scratch: scratch) } == .match)
        #expect(scratch.lastMatchHitLimit && scratch.lastMatchUsedDFA)
        #expect(PCRE2Regex.matchLimit == 100_000 && PCRE2Regex.repeatedGroupMatchLimit == 200)
    }

    /// Which patterns get the smaller match limit: a group repeated by `*` or `+`; not an escaped `)`,
    /// not a `)` inside a class, not an optional group.
    @Test func repeatedGroupsAreRecognized() throws {
        let cases: [(String, Bool)] = [
            ("(?:ab)+c", true), ("(a*)*b", true), ("x(?:a(?:b)?)*", true), (#"\)*a"#, false), ("[)]*a", false),
            ("[)]+", false), (#"[\])]*a"#, false), ("(?:a+b)?c", false), ("a*b+", false),
            ("(?:[a-z]*+[^a-z])*?x", false),
        ]
        for (pattern, expected) in cases {
            #expect(try PCRE2Regex(pattern, options: []).repeatsAGroup == expected, "\(pattern)")
        }
    }

    @Test func emptySubject() throws {
        #expect(try PCRE2Regex(#"\z"#, options: []).matches(""))
        #expect(try !PCRE2Regex("a", options: []).matches(""))
    }
}
