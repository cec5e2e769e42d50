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
        #expect(!scratch.lastMatchHitLimit)
        // Catastrophic backtracking must stop at the match limit instead of running for ages; the
        // DFA run then gives the regular-language answer (no match: the subject ends with "b").
        let evil = try PCRE2Regex("(a|aa)+$", options: [])
        let subject: [UInt8] = Array((String(repeating: "a", count: 200) + "b").utf8)
        let outcome = subject.withUnsafeBufferPointer {
            evil.matchesReportingLimit($0, scratch: scratch)
        }
        #expect(outcome == .noMatch)
        #expect(scratch.lastMatchHitLimit)
        #expect(!subject.withUnsafeBufferPointer { evil.matches($0, scratch: scratch) })
        // …and finds a match that lies beyond the explosion (regression: it used to say no match).
        let later: [UInt8] = Array((String(repeating: "a", count: 40) + "c" + "ab").utf8)
        let nested = try PCRE2Regex("(a*)*b", options: [])
        #expect(later.withUnsafeBufferPointer { nested.matchesReportingLimit($0, scratch: scratch) } == .match)
        #expect(scratch.lastMatchHitLimit)
        #expect(PCRE2Regex.matchLimit == 1_000_000)
    }

    @Test func emptySubject() throws {
        #expect(try PCRE2Regex(#"\z"#, options: []).matches(""))
        #expect(try !PCRE2Regex("a", options: []).matches(""))
    }
}
