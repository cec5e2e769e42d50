import Testing

@testable import ContentRuleURL

/// The canonical-URL fast path must agree with the full state machine wherever it answers.
struct FastPathTests {
    static let inputs: [String] = {
        var all: [String] = []
        for testCase in ParseCase.load("parse") {
            all.append(testCase.input)
            if let href = testCase.expected?.href { all.append(href) }
        }
        return all
    }()

    @Test func agreesWithFullParser() {
        var answered = 0
        for input in Self.inputs where Self.fastPathAgrees(input) { answered += 1 }
        #expect(answered > 300)
    }

    /// Where the fast path answers `input` (true), the full parser gives the same record and
    /// `input` back; false when the fast path leaves `input` to the full parser.
    static func fastPathAgrees(_ input: String) -> Bool {
        guard let fast = URLRecord.parseCanonical(input) else { return false }
        var full = URLRecord()
        let outcome = URLParser.parse(input, base: nil, url: &full, stateOverride: nil)
        #expect(outcome == .done, "\(input)")
        #expect(fast == full, "\(input)")
        #expect(fast.serialize() == input, "\(input)")
        return true
    }

    /// Every byte value in every part the byte-class scan covers (a host label, a path segment, the
    /// query, the fragment), with 0–4 plain bytes on each side so that it falls in the four-byte steps
    /// and in the byte-by-byte tail: wherever the fast path answers, the full parser gives the same
    /// record and the input back.
    @Test func everyByteInEveryPart() {
        var answered = 0
        for byte in UInt8(0)...UInt8(255) {
            for padding in 0..<5 {
                let filler = Array(repeating: UInt8(ascii: "a"), count: padding)
                let part = filler + [byte] + filler
                for (prefix, suffix) in [
                    ("http://h", ".test/"), ("https://h.test/", "/x"), ("http://h.test/p?", ""),
                    ("http://h.test/p#", ""),
                ] {
                    let input = String(decoding: Array(prefix.utf8) + part + Array(suffix.utf8), as: UTF8.self)
                    if Self.fastPathAgrees(input) { answered += 1 }
                }
            }
        }
        // Letters and digits everywhere, most printable bytes in the path, query and fragment.
        #expect(answered > 1_000)
    }

    /// Paths of up to three segments built from dots, letters and escapes (`.`, `..`, `...`, `.a`,
    /// `a.`, `a..`, ``, `%2e`, `%2E`, `a%41`, `.%2e`), after runs of 0–9 plain bytes (so that each
    /// `.` falls at every offset of the four-byte steps) and before the end, a query or a fragment:
    /// wherever the fast path answers, the full parser agrees; without `%`, it answers exactly when
    /// the full parser gives the input back (a dot segment is always refused, any other dot kept).
    /// After a first segment of ``CanonicalByteClass/dotStops`` dots or more (`a.` repeated), the
    /// segments are checked by the word scan: at every offset of its 8-byte words.
    @Test(arguments: [0, CanonicalByteClass.dotStops - 1, CanonicalByteClass.dotStops, 40])
    func dotSegmentsAtEveryOffset(dottedPieces: Int) {
        let segments = [".", "..", "...", ".a", "a.", "a..", "", "%2e", "%2E", "a%41", ".%2e", "b"]
        var paths: [String] = []
        for first in segments {
            paths.append("/" + first)
            for second in segments {
                paths.append("/" + first + "/" + second)
                for third in ["..", ".", "c."] { paths.append("/" + first + "/" + second + "/" + third) }
            }
        }
        var answered = 0
        var declined = 0
        for path in paths {
            for padding in 0..<10 {
                let run = String(repeating: "x", count: padding)
                for suffix in ["", "?q", "#f", "/"] {
                    let dotted = dottedPieces == 0 ? "" : String(repeating: "a.", count: dottedPieces) + "/"
                    let input = "http://h.test/" + dotted + run + path + suffix
                    if Self.fastPathAgrees(input) {
                        answered += 1
                    } else {
                        declined += 1
                        guard !input.contains("%") else { continue }
                        var full = URLRecord()
                        _ = URLParser.parse(input, base: nil, url: &full, stateOverride: nil)
                        #expect(full.serialize() != input, "declined a canonical \(input)")
                    }
                }
            }
        }
        #expect(answered > 1_000 && declined > 1_000)
    }

    @Test(arguments: [
        "HTTP://a.com/", "http://A.com/", "http://a.com", "http://127.0.0.1/", "http://a.com:80/", "http://a.com:/",
        "http://a.com/./", "http://a.com/a/../", "http://a.com/.", "http://a.com/a/..", "http://a.com/a/.?q",
        "http://a.com/..#f", "http://a.com/%2e/", "http://a.com/a b", "http://a.com/?a b",
        "http://u@a.com/", "http://a.com\\x", " http://a.com/", "http://a.com/\t", "sc://a.com/", "file:///x",
        "http://a.com/ä", "http://a.com/#a b", "http://[::1]/",
    ])
    func declines(_ input: String) {
        #expect(URLRecord.parseCanonical(input) == nil)
    }
}
