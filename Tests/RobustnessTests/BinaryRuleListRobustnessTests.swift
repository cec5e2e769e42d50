import ContentRuleCompiler
import ContentRuleFormat
import ContentRuleMatcher
import ContentRuleModel
import ContentRuleURL
import Foundation
import TestSupport
import Testing

/// Damaged binary rule lists must give a clear error, never a crash, hang or out-of-bounds read.
/// (Swift traps on out-of-bounds access, so any unchecked read fails these tests by crashing.)
@Suite struct BinaryRuleListRobustnessTests {
    /// A small list that uses every kind of payload: conditions, flags, every action type.
    static let sample: [UInt8] = {
        let json = """
            [{"trigger":{"url-filter":"^https?://ads\\\\.example/","resource-type":["image","script"],"load-type":["third-party"]},"action":{"type":"block"}},
             {"trigger":{"url-filter":".*","if-domain":["*news.example","shop.example"]},"action":{"type":"css-display-none","selector":".ad, #banner"}},
             {"trigger":{"url-filter":"track","unless-top-url":["^https://safe\\\\."],"request-method":"post"},"action":{"type":"block-cookies"}},
             {"trigger":{"url-filter":"notify-me","load-context":["child-frame"]},"action":{"type":"notify","notification":"hello"}},
             {"trigger":{"url-filter":"go","if-frame-url":["frame"]},"action":{"type":"redirect","redirect":{"transform":{"scheme":"https","port":"8443","query-transform":{"remove-parameters":["utm"],"add-or-replace-parameters":[{"key":"a","value":"1","replace-only":true}]}}}}},
             {"trigger":{"url-filter":"hdr"},"action":{"type":"modify-headers","priority":3,"request-headers":[{"operation":"set","header":"X-A","value":"1"},{"operation":"remove","header":"Cookie"}]}},
             {"trigger":{"url-filter":"x(y)z"},"action":{"type":"redirect","redirect":{"regex-substitution":"https://\\\\1.test/"}}},
             {"trigger":{"url-filter":"upgrade"},"action":{"type":"make-https"}},
             {"trigger":{"url-filter":"allow"},"action":{"type":"ignore-previous-rules"}},
             {"trigger":{"url-filter":"stop"},"action":{"type":"ignore-following-rules"}}]
            """
        let compiled = RuleListCompiler.compile(json: Array(json.utf8)).list!
        return try! BinaryRuleList.encode(compiled)  // a small list: always fits
    }()

    @Test func sampleOpensAndMatches() throws {
        let rules = try MappedRuleList(bytes: Self.sample)
        #expect(rules.ruleCount == 10)
        #expect(rules.sourceRuleCount == 10)
        let list = ContentRuleList(identifier: "sample", rules: rules)
        try list.compileAllPatterns()
        let load = try #require(Self.loads.first)
        // Spec §4.7: actions from the last fired slot to the first (the css rule comes after the block rule).
        #expect(list.actions(for: load).actions == [.cssDisplayNone(selector: ".ad, #banner"), .block])
    }

    /// XXH64 (seed 0) values from the `xxhash` package on PyPI (the reference implementation's bindings).
    @Test func checksumIsXXH64() {
        let vectors: [([UInt8], UInt64)] = [
            ([], 0xEF46_DB37_51D8_E999), (Array("a".utf8), 0xD24E_C4F1_A98C_6E5B),
            (Array("abc".utf8), 0x44BC_2CF5_AD77_0999),
            (Array("The quick brown fox jumps over the lazy dog".utf8), 0x0B24_2D36_1FDA_71BC),
            (Array((0..<3).flatMap { _ in (0...255).map { UInt8($0) } }), 0x8E03_C838_C596_036F),
        ]
        for (bytes, expected) in vectors { #expect(BinaryRuleList.checksum(bytes) == expected, "\(bytes.count) bytes") }
    }

    @Test func truncationAtEveryOffsetIsAnError() {
        for length in 0..<Self.sample.count {
            #expect(throws: BinaryRuleListError.self) { try MappedRuleList(bytes: Array(Self.sample[0..<length])) }
        }
    }

    @Test func bitFlipsAreCaughtByTheChecksum() {
        var generator = SeededGenerator(seed: 42)
        for _ in 0..<2_000 {
            var bytes = Self.sample
            let offset = 64 + Int(generator.next() % UInt64(bytes.count - 64))
            bytes[offset] ^= UInt8(1 << (generator.next() % 8))
            #expect(throws: BinaryRuleListError.self) { try MappedRuleList(bytes: bytes) }
        }
    }

    @Test func wrongSignatureVersionAndSize() {
        var bytes = Self.sample
        bytes[1] = 0x44
        #expect(throws: BinaryRuleListError.notARuleList) { try MappedRuleList(bytes: bytes) }
        bytes = Self.sample
        #expect(BinaryRuleList.version == 6)
        // Earlier and later versions, including version 2 (16-byte rules, 20-byte patterns), version 3
        // (no host-anchored patterns), version 4 (no host index) and version 5 (no search plans), are
        // refused.
        for version: UInt8 in [9, 1, 2, 3, 4, 5] {
            bytes[8] = version
            #expect(throws: BinaryRuleListError.unsupportedVersion(found: UInt32(version), supported: 6)) {
                try MappedRuleList(bytes: bytes)
            }
        }
        #expect(throws: BinaryRuleListError.self) { try MappedRuleList(bytes: Self.sample + [0]) }
        #expect(throws: BinaryRuleListError.notARuleList) { try MappedRuleList(bytes: []) }
        bytes = Self.sample
        bytes[32] ^= 1
        #expect(throws: BinaryRuleListError.self) { try MappedRuleList(bytes: bytes) }
    }

    /// The user-facing messages name the version this build writes and reads.
    @Test func errorMessagesNameTheCurrentVersion() {
        let version = BinaryRuleList.version
        #expect(BinaryRuleListError.tooLarge("x").description.contains("binary rule list version \(version):"))
        #expect(
            BinaryRuleListError.unsupportedVersion(found: 1, supported: version).description
                .contains("reads version \(version)"))
    }

    /// A file written by the version-5 writer (`Tests/Data/format/v5-sample.cbin`, compiled from
    /// `v5-sample.json` by the build before version 6) is refused with the error naming both versions,
    /// and the CLI says the same and exits 1.
    @Test func aVersion5FileIsRefused() throws {
        let path = TestData.repositoryRoot.appendingPathComponent("Tests/Data/format/v5-sample.cbin").path
        #expect(throws: BinaryRuleListError.unsupportedVersion(found: 5, supported: BinaryRuleList.version)) {
            try MappedRuleList(contentsOfFile: path)
        }
        let message = BinaryRuleListError.unsupportedVersion(found: 5, supported: BinaryRuleList.version).description
        #expect(message.contains("version 5") && message.contains("version \(BinaryRuleList.version)"))
        #expect(message.hasSuffix("compile the rule list again"))
    }

    /// The hostile case: bytes after the header changed and the checksum recomputed, so only the
    /// reader's own validation stands between the data and a crash. Every file must either fail to
    /// open, or open and then answer requests with both strategies (any answer, but no trap).
    @Test(.slowTier) func corruptPayloadWithValidChecksumNeverCrashes() {
        var generator = SeededGenerator(seed: 7)
        var errors = 0
        for round in 0..<20_000 {
            var bytes = Self.sample
            let changes = 1 + round % 4
            for _ in 0..<changes {
                let offset = 64 + Int(generator.next() % UInt64(bytes.count - 64))
                bytes[offset] = round % 3 == 0 ? 0xFF : UInt8(truncatingIfNeeded: generator.next())
            }
            Self.fixChecksum(&bytes)
            do {
                Self.exercise(try MappedRuleList(bytes: bytes))
            } catch {
                errors += 1
            }
        }
        #expect(errors > 0)
    }

    /// Huge counts, offsets and lengths at every position after the header must not allocate or read
    /// past the end.
    @Test func hugeValuesAreRejectedOrHarmless() {
        for offset in stride(from: 64, to: Self.sample.count - 4, by: 1) {
            var bytes = Self.sample
            for index in 0..<4 { bytes[offset + index] = 0xFF }
            Self.fixChecksum(&bytes)
            if let rules = try? MappedRuleList(bytes: bytes) { Self.exercise(rules) }
        }
    }

    /// Requests that reach every kind of rule of the sample.
    static let loads: [ResourceLoadInfo] = {
        let pairs = [
            ("https://ads.example/x.png", "https://news.example/"), ("https://a.test/track", "https://safe.test/"),
            ("https://a.test/notify-me", "https://shop.example/"), ("https://a.test/go", "https://a.test/"),
            ("https://a.test/hdr/xyz/upgrade/allow/stop", "https://www.news.example/"),
        ]
        return pairs.map { url, top in
            ResourceLoadInfo(
                url: WebURL(url)!, mainDocumentURL: WebURL(top)!, frameURL: WebURL(top)!, resourceType: .image,
                loadContext: .childFrame, requestMethod: .post)
        }
    }()

    static func exercise(_ rules: MappedRuleList) {
        let list = ContentRuleList(identifier: "corrupt", rules: rules)
        for load in loads {
            _ = list.actions(for: load).actions
            _ = list.referenceActions(for: load).firedRules
        }
    }

    static func fixChecksum(_ bytes: inout [UInt8]) {
        let checksum = BinaryRuleList.checksum(Array(bytes[64...]))
        for index in 0..<8 { bytes[32 + index] = UInt8(truncatingIfNeeded: checksum >> (8 * UInt64(index))) }
    }
}

extension BinaryRuleListRobustnessTests {
    /// A hostile file stores a case-insensitive literal with an upper-case byte (our compiler stores them
    /// lower-cased; the `binary` fuzz target's first finding, `Fuzz/RESULTS.md`). Both strategies must
    /// decide alike.
    @Test func uppercaseLiteralInAFileIsDecidedAlikeByBothStrategies() throws {
        var bytes = Self.sample
        let literal = Array("notify-me".utf8)
        let start = try #require(
            (64...(bytes.count - literal.count)).first { Array(bytes[$0..<($0 + literal.count)]) == literal })
        bytes[start] = UInt8(ascii: "N")
        Self.fixChecksum(&bytes)
        let list = ContentRuleList(identifier: "hostile", rules: try MappedRuleList(bytes: bytes))
        for url in ["https://a.test/notify-me", "https://a.test/Notify-me", "https://a.test/NOTIFY-ME"] {
            let load = ResourceLoadInfo(
                url: WebURL(url)!, mainDocumentURL: WebURL("https://a.test/")!, resourceType: .image,
                loadContext: .childFrame)
            #expect(list.actions(for: load) == list.referenceActions(for: load), "\(url)")
        }
    }
}
