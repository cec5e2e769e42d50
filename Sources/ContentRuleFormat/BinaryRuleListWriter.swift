import ContentRuleModel

/// Builds the sections of a version-2 binary rule list from a compiled rule list: the tables the
/// matcher reads in place (rules, patterns, conditions, domains, actions) and its indexes (literal
/// grams, domain hash table and postings, the universal and always-checked lists).
struct BinaryRuleListWriter {
    private var sections: [Layout.Tag: ByteWriter] = [:]
    private var patternRecords = ByteWriter()
    private var patternKeys: [PatternKey] = []
    private var conditionRecords = ByteWriter()
    private var conditionEntries = ByteWriter()
    private var strings = StringPool()
    private var patternIDs: [PatternKey: UInt32] = [:]
    private var patternCount = 0
    private var domainIDs: [DomainKey: UInt32] = [:]
    private var domainRecords: [DomainKey] = []
    private var domainPostings: [[Int32]] = []
    private var conditionIDs: [[UInt32]: UInt32] = [:]
    private var conditionCount = 0

    private struct PatternKey: Hashable {
        var kind: Layout.PatternKind
        var flags: UInt8
        var text: ByteString
        var required: ByteString
    }

    private struct DomainKey: Hashable {
        /// The domain without `*`, or for entries the hash table cannot hold, their PCRE2 text.
        var text: ByteString
        var flags: UInt32
    }

    static func encode(_ list: CompiledRuleList) -> [UInt8] {
        var writer = BinaryRuleListWriter()
        return writer.build(list)
    }

    private mutating func build(_ list: CompiledRuleList) -> [UInt8] {
        var rules = ByteWriter()
        var literals: [(rule: Int32, literal: [UInt8])] = []
        var always: [Int32] = []
        var universal: [Int32] = []
        var fallbacks: [(rule: Int32, domain: UInt32)] = []
        var topURLRules: [Int32] = []
        for (position, rule) in list.rules.enumerated() {
            let number = Int32(position)
            let (patternID, required) = pattern(rule.urlFilter)
            var conditionID = Layout.none
            if let condition = rule.condition {
                var entries: [UInt32] = [UInt32(Layout.conditionKind(condition.kind))]
                for value in condition.patterns {
                    if condition.kind.isDomain {
                        let (id, indexed) = domain(value)
                        if domainPostings[Int(id)].last != number { domainPostings[Int(id)].append(number) }
                        if !indexed { fallbacks.append((number, id)) }
                        entries.append(id)
                    } else {
                        entries.append(pattern(value).id)
                    }
                }
                if !condition.kind.isDomain && !condition.kind.testsFrameURL { topURLRules.append(number) }
                conditionID = self.condition(entries)
            }
            let entry = Self.entry(rule, required: required)
            switch entry {
            case .literal: literals.append((number, required ?? []))
            case .always: always.append(number)
            case .universal where rule.condition == nil || rule.condition!.kind.isInverted: universal.append(number)
            case .universal, .domain: break
            }
            rules.u32(patternID)
            rules.u32(conditionID)
            rules.u32(rule.actionSlot)
            rules.u16(rule.resourceTypes.rawValue)
            rules.u8(
                rule.loadTypes.rawValue | rule.loadContexts.rawValue << 2 | Layout.methodCode(rule.requestMethod) << 4)
            rules.u8(entry.rawValue)
        }
        sections[.rules] = rules
        sections[.alwaysChecked] = Self.u32s(always)
        sections[.universal] = Self.u32s(universal)
        sections[.topURLRules] = Self.u32s(topURLRules)
        var fallbackSection = ByteWriter()
        for (rule, domain) in fallbacks {
            fallbackSection.u32(UInt32(rule))
            fallbackSection.u32(domain)
        }
        sections[.domainFallbacks] = fallbackSection
        writePatterns()
        writeRemovedSources(list)
        writeDomains()
        writeLiteralIndex(literals)
        writeActions(list.actionSlots)
        var meta = ByteWriter()
        meta.u32(UInt32(list.sourceRuleCount))
        meta.u32(UInt32(list.rules.count))
        meta.u32(UInt32(list.actionSlots.count))
        meta.u32(UInt32(patternCount))
        meta.u32(UInt32(domainRecords.count))
        if let stylesheet = list.globalStylesheet {
            let (offset, length) = strings.add(stylesheet)
            meta.u32(offset)
            meta.u32(length)
        } else {
            meta.u32(Layout.none)
            meta.u32(0)
        }
        meta.u32(UInt32(conditionCount))
        sections[.meta] = meta
        sections[.strings] = strings.writer
        sections[.patterns] = patternRecords
        sections[.conditions] = conditionRecords
        sections[.conditionEntries] = conditionEntries
        return assemble()
    }

    /// How the fast matcher reaches a rule (see ``Layout/Entry``).
    private static func entry(_ rule: CompiledRule, required: [UInt8]?) -> Layout.Entry {
        if let condition = rule.condition, rule.requestMethod != nil || condition.kind.testsFrameURL { return .always }
        if rule.urlFilter.matchesEverything { return .universal }
        if let required, required.count >= IndexHash.gramLength, !required.contains(0) { return .literal }
        if rule.condition?.kind == .ifDomain { return .domain }
        return .always
    }

    /// The id of a url-filter (or top/frame-URL condition) pattern, and its required literal.
    private mutating func pattern(_ pattern: CompiledPattern) -> (id: UInt32, required: [UInt8]?) {
        let required = RequiredLiteral.extract(from: pattern)
        var key: PatternKey
        var flags: UInt8 = pattern.caseSensitive ? Layout.patternCaseSensitive : 0
        if pattern.matchesEverything {
            key = PatternKey(kind: .everything, flags: 0, text: ByteString(""), required: ByteString(""))
        } else if let literal = pattern.literal {
            if literal.anchoredAtStart { flags |= Layout.patternAnchoredAtStart }
            if literal.anchoredAtEnd { flags |= Layout.patternAnchoredAtEnd }
            let text = pattern.caseSensitive ? literal.text : literal.text.lowercased()
            key = PatternKey(kind: .literal, flags: flags, text: ByteString(text), required: Self.text(required))
        } else {
            key = PatternKey(
                kind: .regex, flags: flags, text: ByteString(pattern.pcre2Pattern ?? ""), required: Self.text(required))
        }
        if let id = patternIDs[key] { return (id, required) }
        let id = UInt32(patternCount)
        patternCount += 1
        patternIDs[key] = id
        patternKeys.append(key)
        return (id, required)
    }

    /// PATS and TMPL: each PCRE2 text is stored as a shared prefix template, its own middle and a
    /// shared suffix template (``PatternTemplates``).
    private mutating func writePatterns() {
        let regexTexts = patternKeys.filter { $0.kind == .regex }.map(\.text.bytes)
        let (prefixes, suffixes) = PatternTemplates.choose(regexTexts)
        var prefixIDs: [ByteString: UInt16] = [:]
        var suffixIDs: [ByteString: UInt16] = [:]
        var templates = ByteWriter()
        for (index, prefix) in prefixes.enumerated() {
            prefixIDs[ByteString(bytes: prefix)] = UInt16(index)
            let (offset, length) = strings.add(ByteString(bytes: prefix))
            templates.u32(offset)
            templates.u32(length)
        }
        for (index, suffix) in suffixes.enumerated() {
            suffixIDs[ByteString(bytes: suffix)] = UInt16(prefixes.count + index)
            let (offset, length) = strings.add(ByteString(bytes: suffix))
            templates.u32(offset)
            templates.u32(length)
        }
        for key in patternKeys {
            var text = key.text.bytes
            var prefixID = UInt16.max
            var suffixID = UInt16.max
            if key.kind == .regex, let (prefixEnd, suffixStart) = PatternTemplates.cuts(text) {
                let prefix = prefixIDs[ByteString(bytes: Array(text[..<prefixEnd]))]
                let suffix = suffixIDs[ByteString(bytes: Array(text[suffixStart...]))]
                let start = prefix == nil ? 0 : prefixEnd
                let end = suffix == nil ? text.count : suffixStart
                if start <= end {
                    prefixID = prefix ?? .max
                    suffixID = suffix ?? .max
                    text = Array(text[start..<end])
                }
            }
            let (textOffset, textLength) = strings.add(ByteString(bytes: text))
            let required = key.required.bytes.prefix(Int(UInt16.max))
            let (requiredOffset, requiredLength) = strings.add(ByteString(bytes: Array(required)))
            patternRecords.u32(textOffset)
            patternRecords.u32(textLength)
            patternRecords.u32(requiredOffset)
            patternRecords.u16(UInt16(requiredLength))
            patternRecords.u8(key.kind.rawValue)
            patternRecords.u8(key.flags)
            patternRecords.u16(prefixID)
            patternRecords.u16(suffixID)
        }
        sections[.templates] = templates
    }

    private static func text(_ bytes: [UInt8]?) -> ByteString {
        ByteString(bytes.map { String(decoding: $0, as: UTF8.self) } ?? "")
    }

    /// The id of a domain entry, and whether the hash table holds it.
    private mutating func domain(_ pattern: CompiledPattern) -> (UInt32, Bool) {
        var flags: UInt32 = pattern.caseSensitive ? Layout.domainCaseSensitive : 0
        var text = Substring(pattern.source)
        if text.first == "*" {
            flags |= Layout.domainSubdomains
            text = text.dropFirst()
        }
        let indexed =
            !text.isEmpty && pattern.pcre2Pattern != nil
            && text.utf8.allSatisfy {
                RequiredLiteral.isAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-")
                    || $0 == UInt8(ascii: "_")
            }
        let key: DomainKey
        if indexed {
            key = DomainKey(text: ByteString(String(text)), flags: flags | Layout.domainIndexed)
        } else {
            key = DomainKey(text: ByteString(pattern.pcre2Pattern ?? ""), flags: flags)
        }
        if let id = domainIDs[key] { return (id, indexed) }
        let id = UInt32(domainRecords.count)
        domainIDs[key] = id
        domainRecords.append(key)
        domainPostings.append([])
        return (id, indexed)
    }

    /// The id of a condition given as `[kind] + entry ids`; identical conditions share one record.
    private mutating func condition(_ entries: [UInt32]) -> UInt32 {
        if let id = conditionIDs[entries] { return id }
        let id = UInt32(conditionCount)
        conditionCount += 1
        conditionIDs[entries] = id
        conditionRecords.u8(UInt8(entries[0]))
        conditionRecords.u8(0)
        conditionRecords.u16(0)
        conditionRecords.u32(UInt32(conditionEntries.bytes.count / 4))
        conditionRecords.u32(UInt32(entries.count - 1))
        for value in entries.dropFirst() { conditionEntries.u32(value) }
        return id
    }

    private mutating func writeRemovedSources(_ list: CompiledRuleList) {
        var kept = [Bool](repeating: false, count: list.sourceRuleCount)
        for rule in list.rules where Int(rule.sourceIndex) < kept.count { kept[Int(rule.sourceIndex)] = true }
        sections[.removedSources] = Self.u32s(kept.indices.filter { !kept[$0] }.map { Int32($0) })
    }

    private mutating func writeDomains() {
        var records = ByteWriter()
        var postings = ByteWriter()
        var indexedCount = 0
        for (id, key) in domainRecords.enumerated() {
            let (offset, length) = strings.add(key.text)
            records.u32(offset)
            records.u32(min(length, UInt32(Layout.maximumDomainLength)) | key.flags << 24)
            records.u32(UInt32(postings.bytes.count / 4))
            records.u32(UInt32(domainPostings[id].count))
            for rule in domainPostings[id] { postings.u32(UInt32(rule)) }
            if key.flags & Layout.domainIndexed != 0 { indexedCount += 1 }
        }
        // Looked up only when a top URL is seen for the first time: a fuller table is fine.
        var capacity = 16
        while capacity * 4 < indexedCount * 5 { capacity *= 2 }
        var slots = [UInt32](repeating: Layout.none, count: indexedCount == 0 ? 0 : capacity)
        for (id, key) in domainRecords.enumerated() where key.flags & Layout.domainIndexed != 0 {
            let bytes = key.text.bytes
            let lowercase = key.flags & Layout.domainCaseSensitive == 0
            var slot =
                bytes.withUnsafeBufferPointer {
                    IndexHash.domain($0, lowercase: lowercase, flags: key.flags & 3)
                } & (capacity - 1)
            while slots[slot] != Layout.none { slot = (slot + 1) & (capacity - 1) }
            slots[slot] = UInt32(id)
        }
        sections[.domains] = records
        sections[.domainPostings] = postings
        sections[.domainHash] = Self.u32s(slots.map { Int32(bitPattern: $0) })
    }

    /// Files each rule under the gram of its required literal that the fewest rules use (grams that
    /// nearly every URL contains are avoided when the literal has others). Sorted arrays, no hashing:
    /// O(total literal length × log).
    private mutating func writeLiteralIndex(_ literals: [(rule: Int32, literal: [UInt8])]) {
        let common = [
            "http", "ttp:", "tps:", "ttps", "tp:/", "ps:/", "p://", "s://", "://w", "//ww", "/www", "www.",
            ".com", "com/", ".net", ".org", "html", ".htm", ".js?", "ript", "scri", "crip",
        ].map { IndexHash.gram(Array($0.utf8), 0) }.sorted()
        // (gram, literal) pairs, unique: how many literals contain each gram.
        var pairs: [UInt64] = []
        pairs.reserveCapacity(literals.reduce(0) { $0 + $1.literal.count })
        for (index, entry) in literals.enumerated() {
            for at in 0...(entry.literal.count - IndexHash.gramLength) {
                pairs.append(UInt64(IndexHash.gram(entry.literal, at)) << 32 | UInt64(index))
            }
        }
        pairs.sort()
        var grams: [UInt32] = []
        var counts: [Int] = []
        var previous = UInt64.max
        for pair in pairs where pair != previous {
            previous = pair
            let gram = UInt32(truncatingIfNeeded: pair >> 32)
            if grams.last == gram {
                counts[counts.count - 1] += 1
            } else {
                grams.append(gram)
                counts.append(1)
            }
        }
        var chosen: [UInt64] = []  // gram << 32 | rule
        chosen.reserveCapacity(literals.count)
        for (rule, literal) in literals {
            var best: UInt32 = 0
            var bestCost = Int.max
            for at in 0...(literal.count - IndexHash.gramLength) {
                let gram = IndexHash.gram(literal, at)
                let isCommon = common[min(SortedIndex.lowerBound(common, gram), common.count - 1)] == gram
                let cost = counts[SortedIndex.lowerBound(grams, gram)] + (isCommon ? 1_000_000 : 0)
                if cost < bestCost {
                    best = gram
                    bestCost = cost
                }
            }
            chosen.append(UInt64(best) << 32 | UInt64(UInt32(bitPattern: rule)))
        }
        chosen.sort()
        var distinct = 0
        for index in chosen.indices where index == 0 || chosen[index] >> 32 != chosen[index - 1] >> 32 { distinct += 1 }
        // At most 70% full: most grams of a URL are not in the table, and misses end at an empty slot.
        var capacity = 16
        while capacity * 7 < distinct * 10 { capacity *= 2 }
        var keys = [UInt32](repeating: 0, count: chosen.isEmpty ? 0 : capacity)
        var offsets = [UInt32](repeating: 0, count: keys.count)
        var postings: [UInt32] = []
        var start = 0
        while start < chosen.count {
            let gram = UInt32(truncatingIfNeeded: chosen[start] >> 32)
            var end = start
            while end < chosen.count, UInt32(truncatingIfNeeded: chosen[end] >> 32) == gram { end += 1 }
            var slot = IndexHash.gramSlot(gram) & (capacity - 1)
            while keys[slot] != 0 { slot = (slot + 1) & (capacity - 1) }
            keys[slot] = gram
            offsets[slot] = UInt32(postings.count)
            postings.append(UInt32(end - start))
            for index in start..<end { postings.append(UInt32(truncatingIfNeeded: chosen[index])) }
            start = end
        }
        var table = ByteWriter()
        for slot in keys.indices {
            table.u32(keys[slot])
            table.u32(offsets[slot])
        }
        sections[.literalHash] = table
        sections[.literalPostings] = Self.u32s(postings.map { Int32(bitPattern: $0) })
    }

    /// ACTN: per slot `u8` type, 3 bytes 0, `u32` offset, `u32` length — a string in STRS for
    /// css-display-none and notify, the action's encoding in APAY for redirect and modify-headers.
    private mutating func writeActions(_ actions: [Action]) {
        var records = ByteWriter()
        var payloads = ByteWriter()
        for action in actions {
            records.u8(Layout.actionTypeCode(action.type))
            records.u8(0)
            records.u16(0)
            switch action {
            case .cssDisplayNone(let text), .notify(let text):
                let (offset, length) = strings.add(text)
                records.u32(offset)
                records.u32(length)
            case .redirect, .modifyHeaders:
                let start = payloads.bytes.count
                payloads.encode(action)
                records.u32(UInt32(start))
                records.u32(UInt32(payloads.bytes.count - start))
            default:
                records.u32(0)
                records.u32(0)
            }
        }
        sections[.actions] = records
        sections[.actionPayloads] = payloads
    }

    private static func u32s(_ values: [Int32]) -> ByteWriter {
        var writer = ByteWriter()
        for value in values { writer.u32(UInt32(bitPattern: value)) }
        return writer
    }

    /// Header, section table, then every section 8-byte aligned; the checksum covers all bytes after the header.
    private func assemble() -> [UInt8] {
        let tags = Layout.Tag.allCases
        var offset = Layout.headerSize + tags.count * Layout.sectionEntrySize
        var table = ByteWriter()
        var body: [UInt8] = []
        for tag in tags {
            let bytes = sections[tag]?.bytes ?? []
            let start = Layout.aligned(offset)
            body.append(contentsOf: [UInt8](repeating: 0, count: start - offset))
            table.u32(tag.rawValue)
            table.u32(0)
            table.u32(UInt32(start))
            table.u32(UInt32(bytes.count))
            body.append(contentsOf: bytes)
            offset = start + bytes.count
        }
        let afterHeader = table.bytes + body
        var header = ByteWriter()
        for byte in Layout.signature { header.u8(byte) }
        header.u32(BinaryRuleList.version)
        header.u32(UInt32(Layout.headerSize))
        header.u64(UInt64(Layout.headerSize + afterHeader.count))
        header.u32(UInt32(tags.count))
        header.u32(0)
        header.u64(Checksum.xxh64(afterHeader))
        while header.bytes.count < Layout.headerSize { header.u8(0) }
        return header.bytes + afterHeader
    }
}

/// Binary search in an ascending array.
enum SortedIndex {
    /// Index of the first element not below `value`.
    static func lowerBound(_ values: [UInt32], _ value: UInt32) -> Int {
        var low = 0
        var high = values.count
        while low < high {
            let middle = (low + high) / 2
            if values[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

/// Deduplicated UTF-8 strings, appended to the STRS section.
///
/// Keys are byte strings, not `String`s: `String` equality is Unicode canonical equivalence, which
/// would merge differently encoded selectors.
struct StringPool {
    private(set) var writer = ByteWriter()
    private var offsets: [ByteString: UInt32] = [:]

    mutating func add(_ text: String) -> (UInt32, UInt32) { add(ByteString(text)) }

    mutating func add(_ key: ByteString) -> (UInt32, UInt32) {
        let length = UInt32(key.bytes.count)
        if length == 0 { return (0, 0) }
        if let offset = offsets[key] { return (offset, length) }
        let offset = UInt32(writer.bytes.count)
        writer.append(key.bytes)
        offsets[key] = offset
        return (offset, length)
    }
}

/// UTF-8 bytes as a dictionary key, hashed in bulk.
struct ByteString: Hashable {
    let bytes: [UInt8]
    init(_ text: String) { bytes = Array(text.utf8) }
    init(bytes: [UInt8]) { self.bytes = bytes }
    func hash(into hasher: inout Hasher) { bytes.withUnsafeBytes { hasher.combine(bytes: $0) } }
}
