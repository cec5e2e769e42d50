import Foundation
import PCRE2Support
import TestSupport
import Testing

@testable import URLFilterSyntax

/// The compact PCRE2 text must mean exactly what the former `\x{hh}` spelling meant: for every
/// url-filter (and a sample of the domain conditions) of the bundled lists in `rules/` and of the shared
/// corpus, both translations are compiled with PCRE2 and searched in many generated URLs. Also checks
/// that `requiredLiteral`, the search facts' runs, suffix and byte demand (`URLFilterSearchFacts`, what
/// the fast matcher checks) and every run the independent text reading finds (`PCRE2MandatoryLiterals`)
/// hold in every URL the pattern matches, and that the ASCII-subject spelling gives the same answer as
/// the stored text on every subject of bytes 1–127.
@Suite struct CompactTranslationDifferentialTests {
    /// Rule list files: `rules/**.json` of the repository (every url-filter in the slow tier, every
    /// tenth in the fast tier), then those of the shared corpus (slow tier, when present).
    static let bundledFiles: [String] = {
        var files: [String] = []
        let bundled = TestData.repositoryRoot.appendingPathComponent("rules")
        let enumerator = FileManager.default.enumerator(atPath: bundled.path)
        while let path = enumerator?.nextObject() as? String {
            if path.hasSuffix(".json") { files.append(bundled.appendingPathComponent(path).path) }
        }
        return files.sorted()
    }()
    static let sharedFiles: [String] = {
        guard let shared = TestData.shared else { return [] }
        return Corpus.ruleListFiles().map { shared.appendingPathComponent("corpus/rules/\($0)").path }
    }()

    @Test func listsFound() {
        #expect(Self.bundledFiles.filter { $0.contains("/rules/easy2json/") }.count >= 2)
    }

    /// Distinct (pattern, case-sensitivity) pairs of one list: every url-filter and top/frame-url
    /// condition, and up to 1,500 of its domain-condition patterns.
    static func patterns(in path: String) throws -> [(String, Bool)] {
        var text = try String(contentsOfFile: path, encoding: .utf8)
        if path.hasSuffix(".ndjson") {
            text = "[" + text.split(separator: "\n").filter { !$0.isEmpty }.joined(separator: ",") + "]"
        }
        guard let rules = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [Any] else { return [] }
        var seen: Set<String> = []
        var patterns: [(String, Bool)] = []
        var domains: [String] = []
        func add(_ pattern: String, _ caseSensitive: Bool) {
            if seen.insert((caseSensitive ? "1" : "0") + pattern).inserted { patterns.append((pattern, caseSensitive)) }
        }
        for case let rule as [String: Any] in rules {
            guard let trigger = rule["trigger"] as? [String: Any] else { continue }
            if let filter = trigger["url-filter"] as? String {
                add(filter, trigger["url-filter-is-case-sensitive"] as? Bool ?? false)
            }
            for key in ["if-top-url", "unless-top-url", "if-frame-url", "unless-frame-url"] {
                for case let value as String in trigger[key] as? [Any] ?? [] { add(value, false) }
            }
            for key in ["if-domain", "unless-domain"] {
                for case let value as String in trigger[key] as? [Any] ?? [] { domains.append(value) }
            }
        }
        let step = max(1, domains.count / 1500)
        for (position, domain) in domains.enumerated() where position % step == 0 {
            add(URLFilter.domainPattern(for: domain), position % (10 * step) == 0)
        }
        return patterns
    }

    @Test(arguments: bundledFiles)
    func compactMatchesLegacy(_ path: String) throws { try compare(path, stride: TestTier.includesSlow ? 1 : 10) }

    @Test(
        .slowTier, .tags(.corpus), .enabled(if: TestData.shared != nil, "needs ../shared/corpus"),
        arguments: sharedFiles)
    func corpusCompactMatchesLegacy(_ path: String) throws { try compare(path, stride: 1) }

    /// Every `stride`-th pattern of the list at `path`, checked as the suite's documentation says.
    func compare(_ path: String, stride: Int) throws {
        let scratch = PCRE2Scratch()
        var generator = SeededGenerator(seed: UInt64(truncatingIfNeeded: path.utf8.count) &* 7919)
        var checked = 0
        var accepted = 0
        var asciiChecked = 0
        for (index, (pattern, caseSensitive)) in try Self.patterns(in: path).enumerated() where index % stride == 0 {
            let result = URLFilter.parse(pattern, caseSensitive: caseSensitive)
            guard result.status == .ok, let compact = result.pcre2Pattern, let tree = result.terms else { continue }
            accepted += 1
            let legacy = LegacyTranslation.pcre2Pattern(tree, caseSensitive: caseSensitive)
            // The linear-search groups (`(?>…)`, see `Translator.pcre2Pattern`) add at most 64 bytes each.
            let linearSearchGroups = compact.components(separatedBy: "(?>").count - 1
            #expect(compact.utf8.count <= legacy.utf8.count + 64 * linearSearchGroups, "\(pattern)")
            let new: PCRE2Regex
            let old: PCRE2Regex
            do {
                old = try PCRE2Regex(legacy, options: [])
            } catch {
                continue  // only oversized patterns (error 120) fail; the compact one may then fit
            }
            new = try PCRE2Regex(compact, options: [])
            // The fast matcher's spelling for subjects of bytes 1–127 and its prefilters.
            let facts = try #require(result.searchFacts, "\(pattern)")
            let ascii = try facts.asciiSubjectPattern.map { try PCRE2Regex($0, options: []) }
            // Runs of one byte and more, read off the text.
            let mandatory = PCRE2MandatoryLiterals.analysis(
                of: Array(compact.utf8), minimumLength: 1, limit: .max)
            checked += 1
            for subject in URLSamples.subjects(for: tree, caseSensitive: caseSensitive, using: &generator) {
                let isMatch = subject.withUnsafeBufferPointer { new.matches($0, scratch: scratch) }
                let wasMatch = subject.withUnsafeBufferPointer { old.matches($0, scratch: scratch) }
                #expect(
                    isMatch == wasMatch,
                    "\(pattern) → \(compact) vs \(legacy) on \(String(decoding: subject, as: UTF8.self))")
                if let ascii, subject.allSatisfy({ $0 >= 0x01 && $0 <= 0x7F }) {
                    asciiChecked += 1
                    let asciiMatch = subject.withUnsafeBufferPointer { ascii.matches($0, scratch: scratch) }
                    #expect(
                        asciiMatch == isMatch,
                        "\(pattern) → ASCII-subject spelling of \(compact) on \(String(decoding: subject, as: UTF8.self))"
                    )
                }
                if isMatch {
                    let haystack = mandatory.caseless ? subject.map(URLSamples.lowercased) : subject
                    for run in mandatory.runs + facts.mandatoryRuns {
                        #expect(
                            URLSamples.contains(haystack, run),
                            "\(compact): mandatory \(String(decoding: run, as: UTF8.self)) not in a match")
                    }
                    let demanded = facts.caseless ? subject.map(URLSamples.lowercased) : subject
                    for entry in facts.byteDemand {
                        #expect(
                            demanded.count(where: { $0 == entry.byte }) >= entry.count,
                            "\(compact): a match holds \(UnicodeScalar(entry.byte)) fewer than \(entry.count) times")
                    }
                    for suffix in [mandatory.suffix, facts.suffix] {
                        #expect(
                            haystack.reversed().starts(with: suffix.reversed()),
                            "\(compact): a match does not end with \(String(decoding: suffix, as: UTF8.self))")
                    }
                }
                if isMatch, let literal = result.requiredLiteral {
                    #expect(caseSensitive || literal == literal.lowercased(), "\(pattern)")
                    let haystack = caseSensitive ? subject : subject.map(URLSamples.lowercased)
                    #expect(URLSamples.contains(haystack, Array(literal.utf8)), "\(pattern): \(literal)")
                }
            }
        }
        // Only patterns over PCRE2's size limit are skipped (lists like block-cookies have none to check).
        #expect(checked >= accepted - 2, "\(path)")
        if path.hasSuffix("easylist.json") {
            #expect(checked > 5_000 / stride)
            #expect(asciiChecked > 50_000 / stride)
        }
    }
}

/// URLs generated from a pattern's terms (so that many match), their mutations (so that many almost
/// match) and a fixed pool of ordinary URLs.
enum URLSamples {
    static let pool: [[UInt8]] =
        [
            "https://www.example.com/", "http://example.com/ads/banner.gif?x=1&y=2", "https://a.b.c.d/e/f.js",
            "https://ads.doubleclick.net/pagead/id", "http://localhost:8080/path;params?q#frag", "ws://x.y/z",
            "https://EXAMPLE.COM/UPPER/Case.PNG", "https://xn--bcher-kva.example/%E2%82%AC", "about:blank",
            "https://user:pass@host.example:443/a/b/../c?d=e/f", "https://example.com/-_.~!$&'()*+,;=:@",
            "https://example.com/[]{}|\\^`\"<>", "data:text/html,<b>x</b>", "",
        ].map { Array($0.utf8) }
        + [[0x68, 0x01, 0x7F, 0x2E], [0x00, 0x2F, 0x80, 0xFF, 0x61], [0x2D, 0x5D, 0x5C, 0x5E, 0x5B]]

    /// Bytes that sit on the edges of the spelling rules.
    static let spicy: [UInt8] =
        Array(#"-]\^[.?*+(){}|$/:=,&#%~ "#.utf8) + [
            0x00, 0x01, 0x0A, 0x1F, 0x7F, 0x80, 0xFF, 0x41, 0x5A, 0x61, 0x7A, 0x30,
        ]

    static func lowercased(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return needle.isEmpty }
        for start in 0...(haystack.count - needle.count)
        where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return true
        }
        return false
    }

    static func subjects(
        for tree: URLFilterTermTree, caseSensitive: Bool, using generator: inout SeededGenerator
    ) -> [[UInt8]] {
        var subjects = pool
        for _ in 0..<8 {
            guard var sample = instance(of: tree, using: &generator) else { break }
            if !caseSensitive && Bool.random(using: &generator) {
                sample = sample.map { isAlpha($0) && Bool.random(using: &generator) ? $0 ^ 0x20 : $0 }
            }
            if !tree.isAnchoredAtStart && Bool.random(using: &generator) {
                sample = Array("https://www.".utf8) + sample
            }
            subjects.append(sample)
            for _ in 0..<2 where !sample.isEmpty {
                var mutated = sample
                let position = Int.random(in: 0..<mutated.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: mutated[position] = spicy.randomElement(using: &generator)!
                case 1: mutated.remove(at: position)
                default: mutated.insert(spicy.randomElement(using: &generator)!, at: position)
                }
                subjects.append(mutated)
            }
        }
        return subjects
    }

    /// One string built by walking the terms: each set contributes one of its characters (or, with end
    /// of input, possibly stops), each quantifier repeats 0–2 times. Nil for very deep trees.
    static func instance(of tree: URLFilterTermTree, using generator: inout SeededGenerator) -> [UInt8]? {
        var out: [UInt8] = []
        var stopped = false
        func emit(_ index: Int, depth: Int) -> Bool {
            guard depth < 64 else { return false }
            let node = tree.nodes[index]
            let repetitions: Int
            switch node.quantifier {
            case .one: repetitions = 1
            case .zeroOrOne: repetitions = Int.random(in: 0...1, using: &generator)
            case .zeroOrMore: repetitions = Int.random(in: 0...2, using: &generator)
            case .oneOrMore: repetitions = Int.random(in: 1...2, using: &generator)
            }
            for _ in 0..<repetitions where !stopped {
                switch node.atom {
                case .characterSet(let set):
                    let characters = set.matchedCharacters
                    if set.matchesEndOfInput && (characters.isEmpty || Bool.random(using: &generator)) {
                        stopped = true
                    } else if let character = characters.randomElement(using: &generator) {
                        out.append(character)
                    }
                case .group(let children):
                    for child in children where !emit(child, depth: depth + 1) { return false }
                }
            }
            return true
        }
        for index in tree.topLevel where !stopped {
            guard emit(index, depth: 0) else { return nil }
        }
        return out
    }
}
