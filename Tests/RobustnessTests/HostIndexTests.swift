import ContentRuleCompiler
import ContentRuleModel
import ContentRuleURL
import Foundation
import Testing

@testable import ContentRuleFormat
@testable import ContentRuleMatcher

/// The host index (HGRM, `Documentation/BinaryFormat.md`): a rule whose url-filter is host-anchored
/// (`^[htpsw]+://([a-z0-9-]+\.)?` then its required literal) is filed under its literal's first 24,
/// 16, 8 or 4 bytes and found from the URL's bytes just after `://` or after the first label's dot; other
/// rules stay in the literal index. The answers are the reference matcher's.
@Suite struct HostIndexTests {
    /// Host-anchored url-filters with literals of 4–7, 8–15, 16–23 and 24 or more bytes, several sharing
    /// a 24-byte beginning (an LPST list) or a whole literal; one with a path after the host; then rules
    /// the host index does not take: a literal, a PCRE2 url-filter that is not host-anchored, one whose
    /// literal is too short.
    static let hosts = [
        "ads.x", "track.example", "metrics.example-analytics.test", "metrics.example-analytics.test",
        "metrics.example-analytics.test.cdn", "b.doubleclick.net/pagead", "pixel.test", "stat.io",
        "ads.example-cdn.net",
    ]
    static let json: String = {
        var rules = hosts.map { host in
            let escaped = host.replacingOccurrences(of: ".", with: "\\\\.").replacingOccurrences(of: "/", with: "\\\\/")
            return
                #"{"trigger":{"url-filter":"^[htpsw]+:\\/\\/([a-z0-9-]+\\.)?\#(escaped)([\\/:&\\?].*)?$"},"action":{"type":"block"}}"#
        }
        rules += [
            #"{"trigger":{"url-filter":"track.example"},"action":{"type":"block-cookies"}}"#,
            #"{"trigger":{"url-filter":"^https?://[^/]*\\.track\\.example/"},"action":{"type":"notify","notification":"n"}}"#,
            #"{"trigger":{"url-filter":"^[htpsw]+:\\/\\/([a-z0-9-]+\\.)?a\\.b([\\/:&\\?].*)?$"},"action":{"type":"block"}}"#,
        ]
        return "[" + rules.joined(separator: ",") + "]"
    }()

    static func mapped() throws -> MappedRuleList {
        let list = try #require(RuleListCompiler.compile(json: Array(json.utf8)).list)
        return try MappedRuleList(bytes: BinaryRuleList.encode(list))
    }

    /// The rules `collectHostCandidates` appends for `url` (lower-cased), as rule numbers.
    static func hostCandidates(_ mapped: MappedRuleList, _ url: String) -> Set<Int> {
        let bytes = Array(url.lowercased().utf8)
        var candidates: [UInt64] = []
        bytes.withUnsafeBufferPointer { buffer in
            let (hostStart, afterFirstLabel) = LoweredURL.hostAnchorEnds(buffer)
            mapped.collectHostCandidates(
                buffer, hostStart: hostStart, afterFirstLabel: afterFirstLabel, into: &candidates)
        }
        #expect(candidates.allSatisfy { $0 & 0xFFFF_FFFF == 0 })
        return Set(candidates.map(IndexHash.candidateRule))
    }

    static func literalCandidates(_ mapped: MappedRuleList, _ url: String) -> Set<Int> {
        let bytes = Array(url.lowercased().utf8)
        var candidates: [UInt64] = []
        bytes.withUnsafeBufferPointer { _ = mapped.collectLiteralCandidates($0, into: &candidates) }
        return Set(candidates.map(IndexHash.candidateRule))
    }

    @Test func hostAnchoredRulesAreFoundAtTheHostOnly() throws {
        let mapped = try Self.mapped()
        // The two metrics rules share their literal; the third shares their first 24 bytes (a list of three).
        // Elsewhere in the URL, or after two labels, a literal is not looked up; a probe can still meet
        // another key's slot with its check byte (1 in 255 per slot visited), whose rules the matcher's
        // own checks rule out: at most a few such candidates over all these URLs.
        var misplaced: [String] = []
        for (number, host) in Self.hosts.enumerated() {
            for url in ["https://\(host)/x", "http://www.\(host)", "wss://A1-b.\(host.uppercased())?q"] {
                #expect(Self.hostCandidates(mapped, url).contains(number), "\(url)")
            }
            #expect(!Self.literalCandidates(mapped, "https://\(host)/x").contains(number), "\(host)")
            for url in ["https://site.test/\(host)", "https://a.b.\(host)/", "ftp://\(host)/"]
            where Self.hostCandidates(mapped, url).contains(number) {
                misplaced.append(url)
            }
        }
        #expect(misplaced.count <= 2, "\(misplaced)")
        // The rules the host index does not take are not in it.
        let all = Self.hosts.map { "https://\($0)/" } + ["https://a.b/", "https://www.track.example/"]
        for url in all {
            let found = Self.hostCandidates(mapped, url)
            #expect(found.allSatisfy { $0 < Self.hosts.count }, "\(url)")
        }
        #expect(
            Self.literalCandidates(mapped, "https://a.b.track.example/").isSuperset(of: [
                Self.hosts.count, Self.hosts.count + 1,
            ]))
    }

    @Test func answersEqualTheReferenceMatcher() throws {
        let matcher = ContentRuleList(identifier: "h", rules: try Self.mapped())
        var urls: [String] = []
        for host in Self.hosts + ["a.b", "track.examples", "metrics.example-analytics.tes", "ads.xy"] {
            for shape in [
                "https://%/", "http://w.%", "https://%:8080/p", "https://%?a", "https://x.y.%/", "https://z/%",
            ] {
                urls.append(shape.replacingOccurrences(of: "%", with: host))
            }
        }
        var fired = 0
        for url in urls {
            let load = ResourceLoadInfo(url: try #require(WebURL(url)), mainDocumentURL: nil, resourceType: .image)
            let fast = matcher.actions(for: load)
            #expect(fast == matcher.referenceActions(for: load), "\(url)")
            fired += fast.firedRules.count
        }
        #expect(fired > urls.count / 2)
    }

    /// HGRM damage is refused with the slot's offset: a used slot's rule or list out of range, an
    /// empty slot with other bits set, a table without an empty slot.
    @Test func damagedHostIndexIsRefused() throws {
        let list = try #require(RuleListCompiler.compile(json: Array(Self.json.utf8)).list)
        let sample = try BinaryRuleList.encode(list)
        let table = BinaryRuleListOpeningTests.section("HGRM", in: sample)
        let slots = (0..<16).map { table + 4 * $0 }
        func slot(_ bytes: [UInt8], _ at: Int) -> UInt32 {
            (0..<4).reduce(0) { $0 | UInt32(bytes[at + $1]) << (8 * UInt32($1)) }
        }
        let inline = try #require(slots.first { slot(sample, $0) & Layout.hostInlinePosting != 0 })
        let listed = try #require(
            slots.first { slot(sample, $0) != 0 && slot(sample, $0) & Layout.hostInlinePosting == 0 })
        let empty = try #require(slots.first { slot(sample, $0) == 0 })
        let cases: [(at: Int, value: UInt32, reported: Int)] = [
            (inline, slot(sample, inline) & ~Layout.hostValueMask | UInt32(list.rules.count), inline),  // no such rule
            (listed, slot(sample, listed) & ~Layout.hostValueMask | 0x7F_FFFF, listed),  // past LPST
            (empty, 5, empty),  // no check byte, not 0
        ]
        for (at, value, reported) in cases {
            var bytes = sample
            BinaryRuleListOpeningTests.setU32(&bytes, at, value)
            BinaryRuleListRobustnessTests.fixChecksum(&bytes)
            BinaryRuleListOpeningTests.expectMalformed(bytes, reportedAt: reported, "slot at \(at)")
        }
        var full = sample
        for at in slots where slot(sample, at) == 0 {
            BinaryRuleListOpeningTests.setU32(&full, at, 1 << Layout.hostCheckShift | Layout.hostInlinePosting)
        }
        BinaryRuleListRobustnessTests.fixChecksum(&full)
        BinaryRuleListOpeningTests.expectMalformed(full, reportedAt: table, "no empty slot")
        // The sample itself opens: its table is 16 slots (7 keys, at most 70% full).
        #expect(slots.count == 16)
        _ = try MappedRuleList(bytes: sample)
    }

    /// The literal index files a literal under its gram that the fewest literals contain, counting the
    /// host index's literals too (URL-like text): `abcd` of a host literal moves `abcdwxyz` to `bcdw`.
    @Test func hostLiteralsCountInTheGramChoice() throws {
        func grams(_ rules: [String]) throws -> Set<String> {
            let json =
                "["
                + rules.map { #"{"trigger":{"url-filter":"\#($0)"},"action":{"type":"block"}}"# }
                .joined(separator: ",") + "]"
            let list = try #require(RuleListCompiler.compile(json: Array(json.utf8)).list)
            let mapped = try MappedRuleList(bytes: BinaryRuleList.encode(list))
            return Set(
                (0..<mapped.literalHashCapacity).map(mapped.literalGram).filter { $0 != 0 }.map { gram in
                    String(decoding: withUnsafeBytes(of: gram.littleEndian) { Array($0) }, as: UTF8.self)
                })
        }
        let host = #"^[htpsw]+:\\/\\/([a-z0-9-]+\\.)?abcdhost\\.test"#
        #expect(try grams(["abcdwxyz"]) == ["abcd"])
        #expect(try grams(["abcdwxyz", host]) == ["bcdw"])
    }

    /// A list whose rule numbers or LPST offsets would not fit the slots' 23 bits keeps every rule in
    /// the literal index.
    @Test func slotLimits() {
        #expect(HostIndex.fits(rules: 0x7F_FFFF, postingWords: 0x7F_FFFF))
        #expect(!HostIndex.fits(rules: 0x80_0000, postingWords: 0))
        #expect(!HostIndex.fits(rules: 10, postingWords: 0x80_0000))
    }
}
