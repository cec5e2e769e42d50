import ContentRuleCompiler
import TestSupport
import Testing

@testable import ContentRuleFormat
@testable import ContentRuleMatcher

/// The literal scan skips a gram met again through a small direct-mapped table (``RecentGrams``,
/// indexed by the top bits of the gram's filter bit) and records the index slots it took in a small
/// set (``SeenSlots``) or, for a URL of 2 KiB or more, a bit per slot (``SlotBits``): on URLs repeating
/// grams that share a table word (so that they evict each other), short and long, the scan must append
/// the same candidates in the same order and report the same repeated grams as a plain scan of the
/// URL's distinct grams against the whole index, and the fast matcher must answer as the reference
/// matcher.
@Suite struct RecentGramsTests {
    /// Four-letter grams over a small alphabet whose recent-table slots (the filter bit's bits 10–15)
    /// are the same (one word of a long URL's table, and so of a short URL's 8 too), several groups
    /// of them.
    static let collidingGrams: [[UInt8]] = {
        let alphabet = Array("adbs/-jx".utf8)
        var groups: [Int: [[UInt8]]] = [:]
        for a in alphabet {
            for b in alphabet {
                for c in alphabet {
                    for d in alphabet {
                        let gram = [a, b, c, d]
                        groups[IndexHash.gramFilterBit(IndexHash.gram(gram, 0)) >> 10 & 63, default: []].append(gram)
                    }
                }
            }
        }
        // The largest groups first (ties by word), three grams from each of four groups.
        let chosen = groups.sorted { ($0.value.count, $1.key) > ($1.value.count, $0.key) }.prefix(4)
        return chosen.flatMap { $0.value.prefix(3) }
    }()

    /// One rule per colliding gram (a 4-byte literal: its only gram is indexed), plus longer literals
    /// built from two of them, each with its own action.
    static var json: String {
        let literals =
            collidingGrams.map { String(decoding: $0, as: UTF8.self) }
            + [
                String(decoding: collidingGrams[0] + collidingGrams[3], as: UTF8.self),
                String(decoding: collidingGrams[6] + collidingGrams[1], as: UTF8.self),
            ]
        return "["
            + literals.enumerated().map { index, literal in
                #"{"trigger":{"url-filter":"\#(literal)"},"action":{"type":"css-display-none","selector":".r\#(index)"}}"#
            }
            .joined(separator: ",") + "]"
    }

    /// URLs made of the colliding grams in a seeded order, with and without separators, from 40 bytes
    /// to 8 KiB.
    static var urls: [String] {
        var generator = SeededGenerator(seed: 7)
        var urls: [String] = []
        for length in [40, 120, 255, 256, 700, 2047, 2048, 8192] {
            for separated in [false, true] {
                var path: [UInt8] = []
                while path.count < length {
                    path += collidingGrams[Int.random(in: 0..<collidingGrams.count, using: &generator)]
                    if separated && Bool.random(using: &generator) { path.append(UInt8(ascii: "_")) }
                }
                urls.append("https://site.test/" + String(decoding: path, as: UTF8.self))
            }
        }
        return urls
    }

    /// The candidates and repeated grams of `url` without the scan's shortcuts: every distinct gram in
    /// order of first occurrence, looked up by a walk of the whole index.
    static func plainScan(_ mapped: MappedRuleList, _ url: [UInt8]) -> (candidates: [UInt64], repeated: UInt64) {
        var first: [UInt32: Int] = [:]
        var order: [UInt32] = []
        var counts: [UInt32: Int] = [:]
        for at in 0...(url.count - IndexHash.gramLength) {
            let gram = IndexHash.gram(url, at)
            if first[gram] == nil {
                first[gram] = at
                order.append(gram)
            }
            counts[gram, default: 0] += 1
        }
        var candidates: [UInt64] = []
        var repeated: UInt64 = 0
        let sections = mapped.sections
        for gram in order {
            guard let slot = (0..<mapped.literalHashCapacity).first(where: { mapped.literalGram($0) == gram }) else {
                continue
            }
            if counts[gram, default: 0] > 1 { repeated |= IndexHash.gramRepeatBit(gram) }
            let position = UInt64(first[gram, default: 0] + 1)
            let value = mapped.bytes.u32(sections.literalHash.offset + slot * 8 + 4)
            if value & Layout.inlinePosting != 0 {
                candidates.append(UInt64(value & ~Layout.inlinePosting) << 32 | position)
            } else {
                let start = sections.literalPostings.offset + Int(value) * 4
                for index in 0..<Int(mapped.bytes.u32(start)) {
                    candidates.append(UInt64(mapped.bytes.u32(start + 4 + index * 4)) << 32 | position)
                }
            }
        }
        return (candidates, repeated)
    }

    @Test func theGramsCollideInTheTable() {
        #expect(Self.collidingGrams.count == 12)
        let words = Set(Self.collidingGrams.map { IndexHash.gramFilterBit(IndexHash.gram($0, 0)) >> 10 & 63 })
        #expect(words.count == 4)
        #expect(RecentGrams.count(8192) == 64 && RecentGrams.count(40) == 8)
    }

    @Test func scanAnswersLikeAPlainScan() throws {
        let list = try #require(RuleListCompiler.compile(json: Array(Self.json.utf8)).list)
        let mapped = try MappedRuleList(bytes: BinaryRuleList.encode(list))
        var repeatedSome = false
        for url in Self.urls {
            let bytes = Array(url.utf8)
            var candidates: [UInt64] = []
            let repeated = bytes.withUnsafeBufferPointer { mapped.collectLiteralCandidates($0, into: &candidates) }
            let plain = Self.plainScan(mapped, bytes)
            #expect(candidates == plain.candidates, "\(url.prefix(80))… (\(bytes.count) bytes)")
            #expect(repeated == plain.repeated, "\(url.prefix(80))… (\(bytes.count) bytes)")
            repeatedSome = repeatedSome || repeated != 0
            #expect(!candidates.isEmpty)
        }
        #expect(repeatedSome)
    }

    /// A URL with more candidates than ``ContentRuleList/touchFrom`` (their records are read in a pass
    /// of their own first): literal and PCRE2 url-filters under one gram, with and without resource
    /// types and conditions, answer as the reference matcher.
    @Test func manyCandidatesAnswerAsTheReference() throws {
        var rules: [String] = []
        for index in 0..<(2 * ContentRuleList.touchFrom + 8) {
            let filter = index % 3 == 0 ? #"banner[0-9]+\\.gif"# : index % 3 == 1 ? "banner" : "banner\(index)"
            let type = index % 4 == 0 ? #","resource-type":["image"]"# : ""
            let condition = index % 5 == 0 ? #","if-domain":["site.test"]"# : ""
            rules.append(
                #"{"trigger":{"url-filter":"\#(filter)"\#(type)\#(condition)},"action":{"type":"css-display-none","selector":".b\#(index)"}}"#
            )
        }
        let list = try #require(TestLists.compile("[" + rules.joined(separator: ",") + "]").list)
        var candidates: [UInt64] = []
        Array("https://x.test/banner1.gif".utf8).withUnsafeBufferPointer {
            _ = list.rules.collectLiteralCandidates($0, into: &candidates)
        }
        #expect(candidates.count >= ContentRuleList.touchFrom)
        for url in ["https://x.test/banner1.gif", "https://x.test/banner12/banner3", "https://x.test/banne"] {
            let load = try #require(TestLists.script(url))
            let fast = list.actions(for: load)
            #expect(fast.firedRules == list.referenceActions(for: load).firedRules, "\(url)")
            #expect(fast == list.referenceActions(for: load), "\(url)")
        }
    }

    @Test func fastMatcherAnswersAsTheReference() throws {
        let list = try #require(TestLists.compile(Self.json).list)
        // The URLs as they are, and upper-cased (the scan reads the lower-cased URL).
        for url in Self.urls + Self.urls.map({ "https://site.test/" + $0.dropFirst(18).uppercased() }) {
            let load = try #require(TestLists.script(url))
            let fast = list.actions(for: load)
            let reference = list.referenceActions(for: load)
            #expect(fast.firedRules == reference.firedRules, "\(url.prefix(80))…")
            #expect(fast == reference, "\(url.prefix(80))…")
        }
    }
}

/// The matcher lower-cases the URL 8 bytes at a time (``LoweredURL/lowercased(word:)``) and counts
/// its bytes: every byte value at every position of a word, and URLs of every length around the word
/// size, must give ``IndexHash/lowercased(_:)`` of each byte and the counts of a byte-by-byte pass.
@Suite struct LoweredURLTests {
    @Test func wordLowerCasingEqualsTheByteOne() {
        for value in 0...255 {
            for position in 0..<8 {
                // The byte among neighbours that are `@`, `[`, `Z` and a high byte (no carry between bytes).
                var bytes: [UInt8] = [0x40, 0x5B, 0x5A, 0xC1, 0x7F, 0x41, 0x80, 0xDA]
                bytes[position] = UInt8(value)
                let word = bytes.withUnsafeBufferPointer { $0.u64(0) }
                let lowered = withUnsafeBytes(of: LoweredURL.lowercased(word: word)) { Array($0) }
                #expect(lowered == bytes.map(IndexHash.lowercased), "\(value) at \(position)")
            }
        }
    }

    /// The request's remembered regex answers: empty at first, an answer read back as stored, a pattern
    /// that shares the slot (ids 16 apart) replaces it without being taken for it, and the ASCII flag.
    @Test func rememberedAnswersAreKeptPerPattern() {
        let url = Array("https://a.test/x".utf8)
        url.withUnsafeBufferPointer { buffer in
            LoweredURL.with(buffer) { lowered in
                #expect(lowered.isASCIIWithoutNUL)
                for id in [0, 1, 15, 16, 17, 70_000] { #expect(lowered.knownAnswer(pattern: id) == nil) }
                lowered.remember(true, pattern: 1)
                lowered.remember(false, pattern: 2)
                #expect(lowered.knownAnswer(pattern: 1) == true)
                #expect(lowered.knownAnswer(pattern: 2) == false)
                #expect(lowered.knownAnswer(pattern: 17) == nil)
                lowered.remember(false, pattern: 17)
                #expect(lowered.knownAnswer(pattern: 17) == false)
                #expect(lowered.knownAnswer(pattern: 1) == nil)
            }
        }
        // A new request starts empty; bytes outside 1–127 clear the ASCII flag.
        let words: [[UInt8]] = [
            [0x61, 0x62, 0x63, 0x00, 0x64, 0x65, 0x66, 0x67, 0x68], [0x01, 0x00] + Array(repeating: 0x61, count: 8),
            Array(repeating: 0x7F, count: 16),
        ]
        for bytes in [[UInt8](url), [0x61, 0x00, 0x62], [0x61, 0x80], Array(repeating: 0x61, count: 9) + [0xFF]] + words
        {
            bytes.withUnsafeBufferPointer { buffer in
                LoweredURL.with(buffer) { lowered in
                    #expect(lowered.knownAnswer(pattern: 1) == nil)
                    #expect(lowered.isASCIIWithoutNUL == bytes.allSatisfy { $0 >= 1 && $0 <= 0x7F })
                }
            }
        }
    }

    @Test func loweredBytesAndCountsEqualAByteByBytePass() {
        var generator = SeededGenerator(seed: 11)
        // Lengths around the word size, and around the length from which the counts are kept in four
        // tables (``LoweredURL/splitCountsFromLength``).
        let split = LoweredURL.splitCountsFromLength
        for length in Array(0...40) + [split - 1, split, split + 1, split + 7, split + 8, 3 * split + 5] {
            // Any bytes; ASCII bytes 1–127 only; and those with one high byte somewhere.
            let any = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let ascii = (0..<length).map { _ in UInt8.random(in: 1...127, using: &generator) }
            var high = ascii
            if length > 0 { high[Int.random(in: 0..<length, using: &generator)] = 0x80 }
            for url in [any, ascii, high] {
                let expected = url.map(IndexHash.lowercased)
                var counts = [Int32](repeating: 0, count: 256)
                for byte in expected { counts[Int(byte)] += 1 }
                url.withUnsafeBufferPointer { buffer in
                    LoweredURL.with(buffer) { lowered in
                        #expect(Array(lowered.bytes) == expected, "\(length)")
                        #expect(Array(lowered.byteCounts.prefix(256)) == counts, "\(length)")
                        #expect(lowered.isASCIIWithoutNUL == url.allSatisfy { $0 >= 1 && $0 <= 127 }, "\(length)")
                    }
                }
            }
        }
    }
}

/// The searches of a long URL count the occurrences of their anchor bytes they follow and, once those
/// cost as much as building it (midway through a search if need be), build the table of the URL's
/// hashed 4-byte grams (``URLGramTable``), which then rules out a needle with a gram the URL lacks
/// without a search: every answer, before, while and after the table is built, must equal a
/// plain search's.
@Suite struct URLGramTableTests {
    /// Whether `needle` occurs in `subject`, one offset after the other.
    static func plainContains(_ subject: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= subject.count else { return false }
        return (0...(subject.count - needle.count)).contains { Array(subject[$0..<($0 + needle.count)]) == needle }
    }

    @Test func searchesAnswerAsAPlainSearch() {
        // Pieces repeated to 4 KiB and 16 KiB, the second URL with one odd piece near its end.
        let urls: [[UInt8]] = [
            Array(("https://adversarial.test/" + String(repeating: "/ads.", count: 820)).utf8),
            Array(
                ("https://adversarial.test/" + String(repeating: "ad/x.", count: 3_300) + "/ads.js?"
                    + String(repeating: "ad/x.", count: 10)).utf8),
        ]
        // Needles made of the URLs' bytes: present, absent with every byte present (a missing pair),
        // straddling the repeated pieces.
        let needles = [
            "ads.js", "/ads./ads.", "s./a", ".js", "ads./ads/", "/ads./x", "x./ad/x.", "ad/x.ad", "ad/x./ad",
            "/ads.js?ad", "d/x", "https://adv", "test/ad", "x./ads.js?ad/x.", "s.j", "/", "ads",
            // Every pair occurs, not every gram: ruled out by the table once built.
            "/ads./ads.js", "d/x.ad/x.ad/x.x", "ad/x.ad/",
        ].map { Array($0.utf8) }
        var builtFor = 0
        for url in urls {
            #expect(url.count >= URLGramTable.minimumLength)
            url.withUnsafeBufferPointer { buffer in
                LoweredURL.with(buffer) { lowered in
                    #expect(lowered.byteCounts.count == URLGramTable.statisticsCount)
                    // Twice over: the pairs are built during the first round.
                    for round in 0..<2 {
                        for needle in needles {
                            let found = needle.withUnsafeBufferPointer {
                                ContentRuleList.contains(lowered.bytes, $0, byteCounts: lowered.byteCounts)
                            }
                            let text = String(decoding: needle, as: UTF8.self)
                            #expect(found == Self.plainContains(url, needle), "\(round) \(text)")
                        }
                    }
                    if lowered.byteCounts[URLGramTable.state] == -1 { builtFor += 1 }
                }
            }
        }
        #expect(builtFor == urls.count)
    }

    /// One search whose anchor byte occurs far more often than its budget builds the table midway and
    /// asks it: `/ad/` in a URL of `/ad.` repeated (every byte common, the gram `/ad/` absent).
    @Test func aLongSearchBuildsTheTableMidway() {
        let url = Array(("https://adversarial.test/" + String(repeating: "/ad.", count: 2_000)).utf8)
        url.withUnsafeBufferPointer { buffer in
            LoweredURL.with(buffer) { lowered in
                #expect(lowered.byteCounts[URLGramTable.state] == 0)
                for (needle, expected) in [("/ad/", false), ("/ad./ad.", true), ("d./a", true), ("t//ad.", true)] {
                    let found = Array(needle.utf8).withUnsafeBufferPointer {
                        ContentRuleList.contains(lowered.bytes, $0, byteCounts: lowered.byteCounts)
                    }
                    #expect(found == expected, "\(needle)")
                    #expect(found == Self.plainContains(url, Array(needle.utf8)), "\(needle)")
                    // Built during the first search (2,000 occurrences of `/`, a budget of 680).
                    #expect(lowered.byteCounts[URLGramTable.state] == -1, "\(needle)")
                }
            }
        }
    }
}
