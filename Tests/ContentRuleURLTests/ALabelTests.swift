import Testing

@testable import ContentRuleURL

/// Expected values from WebKitGTK 2.50.6 (`../shared/oracle/webkit_match.py`, document loads of each
/// URL, 2026-12-02; suites and answers in `Fixtures/oracle-a-labels.json`): "The URL can't be shown"
/// for the refused ones; loaded for the others.
///
/// A host label that begins with `xn--` (an A-label) is checked as WebKit's URLParser checks it
/// through ICU's UTS #46 (`subdomainStartsWithXNDashDash`, then `uidna_nameToASCII`): valid Punycode
/// that decodes to a label UTS #46 maps to itself. Other ASCII hosts are only lower-cased. The fast
/// path leaves every host with an A-label to the full parser.
struct ALabelTests {
    @Test(
        arguments: [
            // (input, host or nil when the URL is refused)
            ("https://xn--mnchen-3ya.de/", "xn--mnchen-3ya.de"),
            ("https://XN--MNCHEN-3YA.DE/", "xn--mnchen-3ya.de"),
            ("https://Xn--Mnchen-3ya.de/", "xn--mnchen-3ya.de"),
            ("https://sub.xn--mnchen-3ya.de/x", "sub.xn--mnchen-3ya.de"),
            ("https://xn--ls8h.la/", "xn--ls8h.la"),  // U+1F4A9: UTS #46 allows it (IDNA2008 does not)
            ("https://xn--tda.xn--n3h.com/", "xn--tda.xn--n3h.com"),
            ("https://ab--cd.example/", "ab--cd.example"),  // `--` elsewhere: not an A-label
            ("https://axn--b.example/", "axn--b.example"),
            ("https://xn-a.example/", "xn-a.example"),
            ("https://xn--a.com/", nil),  // U+0080
            ("https://a.b.xn--a.com/", nil),
            ("https://xn--.com/", nil),  // empty Punycode
            ("https://a.xn--zz-/", nil),  // invalid Punycode
            ("https://xn--mnchen-3ya-.de/", nil),
            ("https://xn--n3h.xn--a/", nil),
            ("https://xn--wca.com/", nil),  // U+00DC, which UTS #46 maps to U+00FC
            ("https://xn--abc-.com/", nil),  // decodes to ASCII
            ("https://xn--ab-cd.com/", nil),
        ] as [(String, String?)])
    func aLabelsAreValidated(input: String, host: String?) {
        let url = WebURL(input)
        #expect(url?.host == host, "\(input)")
        // The full parser alone gives the same answer.
        var record = URLRecord()
        let outcome = URLParser.parse(input, base: nil, url: &record, stateOverride: nil)
        #expect((outcome == .done) == (host != nil), "\(input)")
    }

    @Test func fastPathLeavesALabelsToTheFullParser() {
        #expect(URLRecord.isCanonical("https://ab--cd.example/"))
        #expect(URLRecord.isCanonical("https://xn-a.example/"))
        // At every offset of the 8-byte steps and in the tail, first label or a later one.
        for padding in 0..<12 {
            let label = String(repeating: "a", count: padding + 1)
            for host in ["xn--mnchen-3ya.\(label).de", "\(label).xn--mnchen-3ya.de", "\(label).b.xn--n3h"] {
                #expect(!URLRecord.isCanonical("https://\(host)/"), "\(host)")
                #expect(WebURL("https://\(host)/")?.host == host, "\(host)")
            }
            let plain = "\(label)xn--b.c--d.example"
            #expect(URLRecord.isCanonical("https://\(plain)/"), "\(plain)")
        }
    }

    /// RFC 3492 §7.1 samples (A) and (B), a mixed-case label, and invalid inputs.
    @Test func punycodeDecodesTheRFCSamples() {
        let arabic: [UInt32] = [
            0x644, 0x64A, 0x647, 0x645, 0x627, 0x628, 0x62A, 0x643, 0x644, 0x645, 0x648, 0x634, 0x639, 0x631, 0x628,
            0x64A, 0x61F,
        ]
        #expect(Punycode.decode(Array("egbpdaj6bu4bxfgehfvwxn".utf8)[...]) == arabic)
        let chinese: [UInt32] = [0x4ED6, 0x4EEC, 0x4E3A, 0x4EC0, 0x4E48, 0x4E0D, 0x8BF4, 0x4E2D, 0x6587]
        #expect(Punycode.decode(Array("ihqwcrb4cv8a8dqg056pqjye".utf8)[...]) == chinese)
        #expect(Punycode.decode(Array("Mnchen-3ya".utf8)[...]) == Array("München".unicodeScalars.map(\.value)))
        // A byte that is no digit, an overflow, a non-ASCII byte, a truncated number.
        for invalid in ["zz-!", "99999999999", "-ü", "a9"] {
            #expect(Punycode.decode(Array(invalid.utf8)[...]) == nil, "\(invalid)")
        }
        // "a" decodes (to U+0080); the host check refuses it, not the decoder.
        #expect(Punycode.decode(Array("a".utf8)[...]) == [0x80])
    }

    /// Decoding undoes ``Punycode/encode(_:)`` for generated labels, long ones (over 63 code points,
    /// which libidn2's decoder refuses) included.
    @Test func punycodeRoundTrips() {
        var state: UInt64 = 7
        for length in [1, 2, 5, 17, 63, 64, 70, 200] {
            for _ in 0..<20 {
                let scalars: [UInt32] = (0..<length).map { _ in
                    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    let pick = Int(state >> 33) % 4
                    let value = UInt32(truncatingIfNeeded: state >> 40)
                    return [0x61 + value % 26, 0xE0 + value % 32, 0x4E00 + value % 0x5000, 0x1F300 + value % 0x200][
                        pick]
                }
                guard let encoded = Punycode.encode(scalars) else {
                    Issue.record("encode failed at \(length)")
                    continue
                }
                #expect(Punycode.decode(encoded[...]) == scalars, "\(length)")
            }
        }
    }

    /// WebKit converts a domain with non-ASCII text or an A-label through ICU into a buffer of 2,048
    /// UTF-16 code units (`hostnameBufferLength`): a longer ASCII form is refused. An ASCII domain
    /// without A-labels is only lower-cased, whatever its length. (Oracle: 500 `ä` load, 2,100 are
    /// refused; 3,000 ASCII `a` load; an A-label domain of exactly 2,048 bytes loads, 2,049 is refused.)
    @Test func convertedDomainsAreBoundedAsInWebKit() {
        let short = String(repeating: "ä", count: 500)
        #expect(WebURL("http://\(short).com/")?.host?.hasPrefix("xn--4ca") == true)
        #expect(WebURL("http://" + String(repeating: "ä", count: 2100) + ".com/") == nil)
        let ascii = String(repeating: "a", count: 3000)
        #expect(WebURL("http://\(ascii).com/")?.host == "\(ascii).com")
        let label = "xn--mnchen-3ya"
        let fits = String(repeating: "a", count: Punycode.domainLimit - label.count - 1) + "." + label
        #expect(fits.count == Punycode.domainLimit)
        #expect(WebURL("http://\(fits)/")?.host == fits)
        #expect(WebURL("http://a\(fits)/") == nil)
        // 2,048 distinct code points (the encoder's worst case) and their Punycode as an A-label.
        let distinct = (0..<Punycode.domainLimit).map { UInt32(0x4E00 + $0) }
        #expect(
            WebURL("http://" + String(String.UnicodeScalarView(distinct.compactMap(Unicode.Scalar.init))) + "/") == nil)
        #expect(Punycode.encode(distinct) == nil)
        #expect(Punycode.encode(Array(distinct.prefix(600))).map { $0.count < Punycode.domainLimit } == true)
    }
}
