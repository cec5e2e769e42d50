import PCRE2Support
import Testing

@testable import URLFilterSyntax

/// `PCRE2ASCIISubject` on the translator's spellings (hand-checked against pcre2pattern(3));
/// `CompactTranslationDifferentialTests` checks its answers against the stored text on the real lists.
@Suite struct ASCIISubjectPatternTests {
    @Test(arguments: [
        // The host-anchor tail: the class becomes `.` under `(?s)`.
        (
            #"(?i)\A[HPSTWhpstw]+://(?:[0-9A-Za-z-]+\.)?adnxs\.com(?:[&/:?][\x{01}-\x{7f}]*)?\z"#,
            #"(?s)(?i)\A[HPSTWhpstw]+://(?:[0-9A-Za-z-]+\.)?adnxs\.com(?:[&/:?].*)?\z"#
        ),
        // The skip over runs holding bytes outside 1–127 is dropped.
        (
            #"(?i)\A(?:[\x{01}-\x{7f}]*+[^\x{01}-\x{7f}])*?(?>[\x{01}-\x{7f}]*?/ads\?)[\x{01}-\x{7f}]*=\z"#,
            #"(?s)(?i)\A(?>.*?/ads\?).*=\z"#
        ),
        // A greedy `.*` outside every group and before more than `\z` becomes lazy; inside a group,
        // at the end, possessive or already lazy, it stays.
        (
            #"(?i)\A(?:[\x{01}-\x{7f}]*+[^\x{01}-\x{7f}])*?(?>[\x{01}-\x{7f}]*?/)[\x{01}-\x{7f}]*ahr0c"#,
            #"(?s)(?i)\A(?>.*?/).*?ahr0c"#
        ),
        (#"a[\x{01}-\x{7f}]*b(?:[\x{01}-\x{7f}]*c)[\x{01}-\x{7f}]*"#, #"(?s)a.*?b(?:.*c).*"#),
        (#"a[\x{01}-\x{7f}]*+b[\x{01}-\x{7f}]*?c[\x{01}-\x{7f}]+d"#, #"(?s)a.*+b.*?c.+d"#),
        // An escaped `[` starts no class: only the real class after it is rewritten.
        (#"a\[\x{01}-\x{7f}][\x{01}-\x{7f}]"#, #"(?s)a\[\x{01}-\x{7f}]."#),
        // An escaped backslash before a class.
        (#"\\[\x{01}-\x{7f}]+"#, #"(?s)\\.+"#),
    ])
    func rewrites(_ stored: String, _ expected: String) {
        #expect(PCRE2ASCIISubject.pattern(for: stored, spelling: .urlFilter) == expected)
    }

    /// Nothing to rewrite: other classes (even one that holds the universal class's bytes and more, or
    /// the inverted one) are copied, and the answer is nil.
    @Test(arguments: [
        #"(?i)\A[HPSTWhpstw]+://ads\.example\.com/"#, #"[\x{01}-\x{7f}a]b"#, #"x[^\x{01}-\x{7f}]"#,
        #"\(?:\[\x{01}-\x{7f}]*+"#, "[abc",
    ])
    func unchanged(_ stored: String) {
        #expect(PCRE2ASCIISubject.pattern(for: stored, spelling: .urlFilter) == nil, "\(stored)")
    }

    /// The translator's own output for url-filters that use `.`: the rewrite applies, and the result
    /// compiles.
    @Test(arguments: ["^https?://[^/]+/.*sw[.0-9_]", "/ads?.*=$", "a.b"])
    func translatorOutputCompiles(_ filter: String) throws {
        let result = URLFilter.parse(filter, caseSensitive: false)
        let stored = try #require(result.pcre2Pattern)
        let ascii = try #require(PCRE2ASCIISubject.pattern(for: stored, spelling: .urlFilter))
        #expect(!ascii.contains(#"[\x{01}-\x{7f}]"#))
        _ = try PCRE2Regex(ascii, options: [])
    }
}
