import Testing

@testable import ContentRuleURL

/// The canonical fast path (``URLRecord/parseCanonical(_:)``, ``URLRecord/isCanonical(_:)``) and the
/// host range ``WebURL`` reads from a canonical serialization, against the full state machine on
/// generated strings: wherever the fast path answers, the full parser gives the same record and the
/// input back, and ``WebURL/host`` is the full parser's host.
struct FastPathDifferentialTests {
    /// Pieces the generator strings together: plain bytes, every byte the parser may change (C0, NUL,
    /// space, DEL, `"<>\^`{}|'`), the delimiters, `%` escapes (`%2e` is a dot), dot segments, upper case
    /// and non-ASCII (UTF-8 bytes ≥ 0x80).
    static let pieces: [String] = [
        "a", "z", "0", "9", "-", "_", "~", ".", "..", "/", "/.", "/..", "/./", "/../", "?", "#", "%", "%2e", "%2E",
        "%41", "%zz", "A", "Z", "\u{0}", "\t", "\n", " ", "\u{7F}", "\"", "<", ">", "\\", "^", "`", "{", "}", "|",
        "'", "é", "€", "\u{10348}", ":", "@", "&", "=", ";", "abcdefg", "abcdefgh", "abcdefghi", "x.y", "=%",
    ]

    /// Scheme and authority prefixes: the four fast schemes and near misses, hosts with digits, dots,
    /// upper case, ports (default, leading zero, out of range).
    static let prefixes: [String] = [
        "http://a.b", "https://www.example.com", "ws://h", "wss://h.test", "http://h.test:8080", "https://h.test:443",
        "http://h.test:80", "http://h.test:0", "http://h.test:08", "http://h.test:65536", "http://h.test:99999",
        "http://1.2.3.4", "http://a.1", "http://a.1.", "http://1a.b", "http://a.b1", "http://a..b", "http://.a",
        "http://a.", "http://A.b", "HTTP://a.b", "httpx://a.b", "ftp://a.b", "http:/a.b", "http://", "http://-a.b",
        "http://xn--mnchen-3ya.de", "http://a_b.c", "http://abcdefgh.ij", "http://abcdefg.hij", "http://abcdefghi.j",
    ]

    /// A small deterministic generator (SplitMix64), so a failure names a reproducible input.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    }

    /// Where the fast path answers `input`, the full parser must agree (the record, the input back, the
    /// host WebURL reads); returns whether it answered.
    static func check(_ input: String) -> Bool {
        let answered = URLRecord.isCanonical(input)
        let fast = URLRecord.parseCanonical(input)
        #expect(answered == (fast != nil), "\(input.debugDescription)")
        guard let fast else { return false }
        var full = URLRecord()
        let outcome = URLParser.parse(input, base: nil, url: &full, stateOverride: nil)
        #expect(outcome == .done, "\(input.debugDescription)")
        #expect(fast == full, "\(input.debugDescription)")
        #expect(full.serialize() == input, "\(input.debugDescription)")
        let url = WebURL(input)
        #expect(url?.serialization == input, "\(input.debugDescription)")
        #expect(url?.host == full.host?.serialized, "\(input.debugDescription)")
        return true
    }

    @Test(arguments: 0..<4)
    func generatedURLs(seed: UInt64) {
        var generator = Generator(state: 0xC0FF_EE00 &+ seed)
        var answered = 0
        var total = 0
        for _ in 0..<25_000 {
            var input = Self.prefixes[generator.below(Self.prefixes.count)]
            // A path most of the time (a fast URL needs one), of 0–11 pieces after 0–17 plain bytes so
            // that each piece falls at every offset of the 8-byte steps.
            if generator.below(8) != 0 { input += "/" + String(repeating: "p", count: generator.below(18)) }
            for _ in 0..<generator.below(12) {
                // Mostly plain pieces: a URL that stays canonical up to a late byte.
                let piece =
                    generator.below(3) == 0
                    ? Self.pieces[generator.below(Self.pieces.count)]
                    : String(repeating: "q", count: 1 + generator.below(9))
                input += piece
            }
            total += 1
            if Self.check(input) { answered += 1 }
        }
        // The generator reaches both sides of the fast path.
        #expect(answered > 2_000 && total - answered > 2_000, "\(answered) of \(total)")
    }

    /// Each piece alone at each offset 0–39 of the path, the query and the fragment, and in the host:
    /// every offset of the 8-byte table steps and of the query's 32-byte vector steps.
    @Test func everyPieceAtEveryOffset() {
        var answered = 0
        for piece in Self.pieces {
            for offset in 0..<40 {
                let run = String(repeating: "r", count: offset)
                for input in [
                    "http://h.test/" + run + piece, "http://h.test/" + run + piece + "/x",
                    "http://h.test/p?" + run + piece, "http://h.test/p?" + run + piece + "#f",
                    "http://h.test/p#" + run + piece, "http://" + run + piece + ".test/",
                    "http://h" + run + piece + "/",
                ] where Self.check(input) {
                    answered += 1
                }
            }
        }
        #expect(answered > 1_000)
    }

    /// `about:blank`, which ``WebURL/init(_:)`` answers with a parse made once, is the full parser's
    /// `about:blank` (record, serialization, components), and a copy changed by a setter leaves the
    /// next `about:blank` as it was. Near misses go to the full parser.
    @Test func aboutBlankIsTheFullParse() throws {
        var full = URLRecord()
        #expect(URLParser.parse("about:blank", base: nil, url: &full, stateOverride: nil) == .done)
        var url = try #require(WebURL("about:blank"))
        #expect(url.record == full && url.serialization == full.serialize() && url.serialization == "about:blank")
        #expect(url.scheme == "about" && url.host == nil && url.path == "blank" && url.hasOpaquePath)
        #expect(url.setQuery("q") && url.setFragment("f"))
        #expect(url.serialization == "about:blank?q#f")
        let again = try #require(WebURL("about:blank"))
        #expect(again.record == full && again.serialization == "about:blank" && again.query == nil)
        for nearMiss in ["about:blank ", "ABOUT:blank", "about:blan", "about:Blank", "about:blank#", " about:blank"] {
            var record = URLRecord()
            _ = URLParser.parse(nearMiss, base: nil, url: &record, stateOverride: nil)
            #expect(WebURL(nearMiss)?.serialization == record.serialize(), "\(nearMiss)")
        }
    }

    /// The query's vector test (``CanonicalByteClass/queryStops(_:)``) flags exactly the bytes the
    /// table does not mark ``CanonicalByteClass/queryPlain``: every byte value in every lane, among
    /// plain bytes.
    @Test func queryVectorMatchesTheTable() {
        for value in 0...255 {
            let plain = CanonicalByteClass.table[value] & CanonicalByteClass.queryPlain != 0
            for lane in 0..<16 {
                var vector = SIMD16<UInt8>(repeating: UInt8(ascii: "a"))
                vector[lane] = UInt8(value)
                let stops = CanonicalByteClass.queryStops(vector)
                for other in 0..<16 {
                    let expected: UInt8 = other == lane && !plain ? 0x80 : 0
                    #expect(stops[other] == expected, "byte \(value) in lane \(lane): lane \(other)")
                }
            }
        }
    }

    /// Hosts made of labels of 1–12 bytes (letters, digits, `-`), 1–4 labels, with or without a
    /// trailing dot: the fast path answers exactly when the last label does not start with a digit
    /// (the full parser takes those for IPv4), and then agrees with the full parser.
    @Test func hostLabels() {
        var generator = Generator(state: 42)
        let bytes = Array("abz09-".utf8)
        var answered = 0
        for _ in 0..<5_000 {
            var labels: [String] = []
            for _ in 0..<(1 + generator.below(4)) {
                let length = 1 + generator.below(12)
                labels.append(
                    String(decoding: (0..<length).map { _ in bytes[generator.below(bytes.count)] }, as: UTF8.self))
            }
            let host = labels.joined(separator: ".") + (generator.below(3) == 0 ? "." : "")
            let input = "https://" + host + "/x"
            let lastDigit = labels.last!.utf8.first.map(ASCII.isDigit) ?? false
            #expect(URLRecord.isCanonical(input) == !lastDigit, "\(input)")
            if Self.check(input) { answered += 1 }
        }
        #expect(answered > 2_000)
    }
}
