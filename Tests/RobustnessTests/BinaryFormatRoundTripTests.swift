import ContentRuleCompiler
import ContentRuleMatcher
import ContentRuleModel
import ContentRuleURL
import Testing

@testable import ContentRuleFormat

/// Format version 4 packs its records (12-byte rules, 16-byte patterns, 4-byte conditions, 6-byte
/// domain entries, 4-byte actions, 3-byte condition entries, domain postings and domain hash slots,
/// single literal postings held in the index slot), spells the `\.` of host names as `.` and codes
/// selectors and PCRE2 texts with symbol tables: everything read back from a written file must equal
/// what the compiler produced.
@Suite struct BinaryFormatRoundTripTests {
    /// Host rules (enough for a shared prefix and suffix template), url-filters with a bare `.` or
    /// other escapes (stored as they are), literals, conditions of every kind, flags and actions.
    static let json: String = {
        var rules: [String] = []
        for index in 0..<24 {
            let types = index % 3 == 0 ? #","resource-type":["image","script"]"# : ""
            let load = index % 4 == 1 ? #","load-type":["third-party"],"load-context":["child-frame"]"# : ""
            let domains = index % 5 == 2 ? #","if-domain":["*site\#(index).test","other.test"]"# : ""
            rules.append(
                #"{"trigger":{"url-filter":"^[htpsw]+:\\/\\/([a-z0-9-]+\\.)?host\#(index)\\.example([\\/:&\\?].*)?$""#
                    + types + load + domains + #"},"action":{"type":"block"}}"#)
        }
        // PCRE2 texts that are not their own required literal (coded with the PCRE2 symbol table) and
        // selectors with a shared vocabulary and non-ASCII bytes (the selector table escapes those).
        for index in 0..<16 {
            rules.append(
                ##"{"trigger":{"url-filter":"/banner[0-9]+/sponsor\##(index)x?\\.[gp][in][fg]$"},"action":{"type":"css-display-none","selector":"#sponsor-\##(index) > .bannière-pub, div[class^=\"sponsor\"]"}}"##
            )
        }
        rules += [
            #"{"trigger":{"url-filter":"^https?://cdn\\.x.y\\.test/"},"action":{"type":"block"}}"#,
            #"{"trigger":{"url-filter":"a\\.b\\\\c\\.d"},"action":{"type":"block-cookies"}}"#,
            #"{"trigger":{"url-filter":"banner\\.gif$","unless-domain":["shop.example"]},"action":{"type":"css-display-none","selector":".ad"}}"#,
            #"{"trigger":{"url-filter":"track\\.js","if-top-url":["^https://top\\.test/"],"request-method":"post"},"action":{"type":"notify","notification":"n"}}"#,
            #"{"trigger":{"url-filter":"pixel","unless-frame-url":["frame\\.test"]},"action":{"type":"make-https"}}"#,
            #"{"trigger":{"url-filter":"Case\\.Sensitive","url-filter-is-case-sensitive":true},"action":{"type":"ignore-previous-rules"}}"#,
            #"{"trigger":{"url-filter":".*"},"action":{"type":"css-display-none","selector":".a, .b"}}"#,
        ]
        return "[" + rules.joined(separator: ",\n") + "]"
    }()

    /// The switch decoders of the matcher's hot reads agree with the codes the writer uses (the order of
    /// `allCases`): every action type and condition kind round-trips.
    @Test func typeCodesRoundTrip() {
        for type in ActionType.allCases {
            #expect(Layout.actionType(code: UInt32(Layout.actionTypeCode(type))) == type)
        }
        for kind in TriggerCondition.Kind.allCases {
            #expect(Layout.conditionKind(code: UInt32(Layout.conditionKind(kind))) == kind)
        }
    }

    @Test func everyRecordReadsBackAsCompiled() throws {
        let list = try #require(RuleListCompiler.compile(json: Array(Self.json.utf8)).list)
        let mapped = try MappedRuleList(bytes: BinaryRuleList.encode(list))
        #expect(mapped.ruleCount == list.rules.count)
        var unescaped = 0
        for (number, compiled) in list.rules.enumerated() {
            let record = mapped.rule(number)
            #expect(record.actionSlot == compiled.actionSlot)
            #expect(record.resourceTypes == compiled.resourceTypes.rawValue)
            #expect(record.loadTypes == compiled.loadTypes.rawValue)
            #expect(record.loadContexts == compiled.loadContexts.rawValue)
            #expect(
                record.method
                    == (compiled.requestMethod == nil
                        ? 0
                        : 1
                            + UInt8(
                                RequestMethod.allCases.firstIndex(of: compiled.requestMethod!)!)))
            #expect(mapped.action(Int(record.actionSlot)) == list.actionSlots[Int(record.actionSlot)])
            Self.expect(mapped, record.pattern, equals: compiled.urlFilter)
            if mapped.pattern(record.pattern).dotsUnescaped { unescaped += 1 }
            #expect((record.condition == nil) == (compiled.condition == nil))
            guard let condition = compiled.condition, let id = record.condition else { continue }
            let stored = mapped.condition(id)
            #expect(stored.kind == condition.kind)
            #expect(stored.entries.count == condition.patterns.count)
            guard condition.kind.isDomain else {
                for (index, value) in zip(stored.entries, condition.patterns) {
                    Self.expect(mapped, mapped.conditionEntry(index), equals: value)
                }
                continue
            }
            for index in stored.entries {
                let domain = mapped.domain(mapped.conditionEntry(index))
                #expect(domain.postings.contains { mapped.domainPosting($0) == Int32(number) })
            }
        }
        // The selectors and the `/banner…` PCRE2 texts are coded (the actions and texts read back above).
        let coded = (0..<mapped.patternCount).filter { mapped.pattern($0).coded }
        #expect(coded.count >= 16)
        #expect(
            list.actionSlots.contains {
                if case .cssDisplayNone(let selector) = $0 { selector.contains("è") } else { false }
            })
        // The host rules are stored with their dots unescaped; `cdn\.x.y\.test` and `a\.b\\c\.d` are not.
        #expect(unescaped >= 24)
        for source in [#"^https?://cdn\.x.y\.test/"#, #"a\.b\\c\.d"#] {
            let rule = try #require(list.rules.firstIndex { $0.urlFilter.source == source }, "\(source)")
            #expect(!mapped.pattern(mapped.rule(rule).pattern).dotsUnescaped)
        }
    }

    /// Stored pattern `id` is `compiled`: the same kind, literal text (lower-cased unless case-sensitive)
    /// or PCRE2 text.
    static func expect(_ mapped: MappedRuleList, _ id: Int, equals compiled: CompiledPattern) {
        let pattern = mapped.pattern(id)
        if let literal = compiled.literal {
            #expect(pattern.kind == .literal)
            let text = compiled.caseSensitive ? literal.text : literal.text.lowercased()
            #expect(Array(pattern.text) == Array(text.utf8))
        } else if let pcre2 = compiled.pcre2Pattern {
            #expect(pattern.kind == .regex)
            #expect(mapped.regexSource(id) == pcre2)
        } else {
            #expect(pattern.kind == .everything)
        }
    }

    /// Each literal rule is found by the literal index from a URL that contains its literal, whether
    /// its gram has one rule (held in the slot) or several (an LPST list).
    /// An `if-domain` rule whose literal is inside `https://` or `http://` is reached through its domains,
    /// not filed under a gram nearly every URL has; other literals, and other conditions, stay indexed.
    @Test func schemeLiteralsWithIfDomainGoThroughTheirDomains() throws {
        let rules = [
            (#""url-filter":"https://","if-domain":["a.test"]"#, 1),
            (#""url-filter":"^http:","if-domain":["a.test"]"#, 1),
            (#""url-filter":"ttps","if-domain":["*a.test"]"#, 1),
            (#""url-filter":"https://ads","if-domain":["a.test"]"#, 0),
            (#""url-filter":"https://","unless-domain":["a.test"]"#, 0),
            (#""url-filter":"https://","if-top-url":["a\\.test"]"#, 0),
            (#""url-filter":"https://""#, 0),
        ]
        let json =
            "[" + rules.map { #"{"trigger":{\#($0.0)},"action":{"type":"block"}}"# }.joined(separator: ",") + "]"
        let list = try #require(RuleListCompiler.compile(json: Array(json.utf8)).list)
        let mapped = try MappedRuleList(bytes: BinaryRuleList.encode(list))
        for (number, (trigger, entry)) in rules.enumerated() {
            #expect(mapped.rule(number).entry == entry, "\(trigger)")
        }
        // The answers: the domain rules fire on a.test's loads only (the matcher against the reference
        // matcher, and against the rules' meaning).
        let matcher = ContentRuleList(identifier: "t", rules: try MappedRuleList(bytes: BinaryRuleList.encode(list)))
        let cases = [
            ("https://a.test/", "https://ads.a.test/x", [0, 2, 3, 5, 6]), ("http://a.test/", "http://a.test/x", [1]),
            ("https://b.test/", "https://b.test/x", [4, 6]),
        ]
        for (top, url, fired) in cases {
            let topURL = try #require(WebURL(top))
            let load = ResourceLoadInfo(url: try #require(WebURL(url)), mainDocumentURL: topURL, resourceType: .image)
            let fast = matcher.actions(for: load)
            let reference = matcher.referenceActions(for: load)
            #expect(fast == reference)
            #expect(fast.firedRules == fired.map(UInt32.init), "\(top)")
        }
    }

    @Test func literalIndexFindsEveryLiteralRule() throws {
        let json =
            "["
            + (0..<40).map {
                #"{"trigger":{"url-filter":"\#($0 % 2 == 0 ? "shared" : "unique\($0)")-x"},"action":{"type":"block"}}"#
            }
            .joined(separator: ",") + "]"
        let list = try #require(RuleListCompiler.compile(json: Array(json.utf8)).list)
        let mapped = try MappedRuleList(bytes: BinaryRuleList.encode(list))
        for number in 0..<40 {
            let url = Array("https://a.test/\(number % 2 == 0 ? "shared" : "unique\(number)")-x".utf8)
            var candidates: [UInt64] = []
            url.withUnsafeBufferPointer { _ = mapped.collectLiteralCandidates($0, into: &candidates) }
            #expect(candidates.contains { IndexHash.candidateRule($0) == number }, "rule \(number)")
        }
    }

    /// More than 65,536 patterns: 12-byte RULE records (`u24` fields) instead of 9-byte ones; every
    /// rule reads back with its pattern, condition and slot.
    @Test func wideRuleRecordsReadBack() throws {
        let count = 66_000
        let json =
            "["
            + (0..<count).map {
                let condition = $0 % 3 == 0 ? #","if-domain":["d\#($0 % 70_000).test"]"# : ""
                let action = $0 % 2 == 0 ? "block" : "block-cookies"
                return #"{"trigger":{"url-filter":"p\#($0)-x"\#(condition)},"action":{"type":"\#(action)"}}"#
            }
            .joined(separator: ",") + "]"
        let list = try #require(RuleListCompiler.compile(json: Array(json.utf8)).list)
        let mapped = try MappedRuleList(bytes: BinaryRuleList.encode(list))
        #expect(mapped.sections.ruleLayout.size == 12)
        #expect(mapped.patternCount > 0x1_0000)
        for (number, compiled) in list.rules.enumerated() {
            let record = mapped.rule(number)
            #expect(record.actionSlot == compiled.actionSlot)
            #expect((record.condition == nil) == (compiled.condition == nil))
            let pattern = mapped.pattern(record.pattern)
            #expect(Array(pattern.text) == Array((compiled.urlFilter.literal?.text ?? "").utf8))
        }
    }

    /// 8-byte DOMS records (written when a domain text end does not fit in 24 bits or a postings end in
    /// 21) read back like the 6-byte ones: the sample list with its DOMS rewritten in the wide layout
    /// opens and gives the same domain entries and the same actions.
    @Test func wideDomainRecordsReadBack() throws {
        let sample = BinaryRuleListRobustnessTests.sample
        let compact = try MappedRuleList(bytes: sample)
        let wide = try MappedRuleList(bytes: Self.widenedDomains(sample))
        #expect(compact.sections.domainLayout.size == 6)
        #expect(wide.sections.domainLayout.size == 8)
        #expect(compact.domainCount == 2)
        for id in 0..<compact.domainCount {
            let (a, b) = (compact.domain(id), wide.domain(id))
            #expect(Array(a.text) == Array(b.text))
            #expect(a.postings == b.postings)
            #expect([a.subdomains, a.caseSensitive, a.indexed] == [b.subdomains, b.caseSensitive, b.indexed])
        }
        #expect(Array(compact.domain(0).text) == Array("news.example".utf8))
        #expect(compact.domain(0).subdomains && !compact.domain(1).subdomains)
        let lists = [compact, wide].map { ContentRuleList(identifier: "sample", rules: $0) }
        for load in BinaryRuleListRobustnessTests.loads {
            #expect(lists[0].actions(for: load) == lists[1].actions(for: load))
        }
    }

    /// `bytes` with its 6-byte DOMS records as 8-byte ones (`u32` text end, `u32` postings end | flags << 29),
    /// the sections after DOMS moved, the file size and checksum updated.
    static func widenedDomains(_ bytes: [UInt8]) -> [UInt8] {
        func u32(_ from: [UInt8], _ at: Int, width: Int = 4) -> UInt32 {
            (0..<width).reduce(0) { $0 | UInt32(from[at + $1]) << (8 * UInt32($1)) }
        }
        func set(_ into: inout [UInt8], _ at: Int, _ value: UInt32) {
            for index in 0..<4 { into[at + index] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(index))) }
        }
        let sectionCount = Int(u32(bytes, 24))
        var output = Array(bytes[0..<(64 + sectionCount * 16)])
        for index in 0..<sectionCount {
            let entry = 64 + index * 16
            let (offset, length) = (Int(u32(bytes, entry + 8)), Int(u32(bytes, entry + 12)))
            var content = Array(bytes[offset..<(offset + length)])
            if content.count > 0, Array(bytes[entry..<(entry + 4)]) == Array("DOMS".utf8) {
                content = stride(from: 0, to: length, by: 6).flatMap { at in
                    let packed = u32(content, at + 3, width: 3)
                    var record = [UInt8](repeating: 0, count: 8)
                    set(&record, 0, u32(content, at, width: 3))
                    set(&record, 4, packed & 0x1F_FFFF | (packed >> 21) << 29)
                    return record
                }
            }
            while output.count % 8 != 0 { output.append(0) }
            set(&output, entry + 8, UInt32(output.count))
            set(&output, entry + 12, UInt32(content.count))
            output += content
        }
        set(&output, 16, UInt32(output.count))
        BinaryRuleListRobustnessTests.fixChecksum(&output)
        return output
    }
}
