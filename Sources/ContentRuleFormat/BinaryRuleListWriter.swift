import ContentRuleModel

/// Builds the sections of a binary rule list of the current version (``BinaryRuleList/version``) from a
/// compiled rule list: the tables the matcher reads in place (rules, patterns, conditions, domains,
/// actions) and its indexes (literal grams, host index, domain hash table and postings, the universal
/// and always-checked lists).
///
/// Patterns, domain entries, conditions and strings are deduplicated with ``ByteKeyTable``s, which
/// number keys in first-insertion order exactly like the dictionaries they replace.
struct BinaryRuleListWriter {
    var sections: [Layout.Tag: [UInt8]] = [:]
    var strings = StringPool()
    /// Pattern keys: u8 kind, u8 flags, u32 text length, text, required literal (possibly empty).
    private var patterns = ByteKeyTable()
    /// Domain keys: u32 flags, then the domain without `*`, or for entries the hash table cannot hold,
    /// their PCRE2 text.
    private var domains = ByteKeyTable()
    /// Condition keys: u32 kind, then one u32 entry id per value.
    private var conditions = ByteKeyTable()
    private var conditionRecords = ByteWriter()
    private var conditionEntries = ByteWriter()
    /// `domain id << 32 | rule` for each rule that lists the domain, in rule order.
    private var domainUses: [UInt64] = []
    /// SYMB: the selector table, then the PCRE2 text table.
    private var symbolTables: [UInt8] = []
    /// Per pattern: the search plan of a regex pattern (SRCH), in id order.
    var searchPlans: [RegexSearchPlan?] = []
    /// Per pattern: where the scaffolding of a regex pattern's PCRE2 text ends and begins, in id order.
    private var scaffolds: [ScaffoldCut?] = []
    /// Domain entries stored as PCRE2 text that repeats a group (DRPT), ascending.
    var domainRepeats: [UInt32] = []

    private static let patternHeaderSize = 6

    /// The first limit of the format the list exceeds (see `require`), nil while none.
    private var exceeded: String?
    private var maximumActionBytes = Layout.maximumActionLength

    /// - Throws: `BinaryRuleListError.tooLarge` when the list exceeds a limit of the format (a field's
    ///   width: 2^24 − 1 rules, patterns, conditions, condition entries, domain entries or postings,
    ///   16 MiB for one url-filter text, 256 MiB of action bytes, 4,094 templates, and with host keys
    ///   2^23 − 1 rules or index postings); nothing is returned then.
    /// - Parameter maximumActionBytes: the `APAY` limit; lower only in tests (the real one is 256 MiB).
    static func encode(
        _ list: CompiledRuleList, maximumActionBytes: Int = Layout.maximumActionLength
    ) throws(BinaryRuleListError) -> [UInt8] {
        var writer = BinaryRuleListWriter()
        writer.maximumActionBytes = maximumActionBytes
        let bytes = writer.build(list)
        if let limit = writer.exceeded { throw .tooLarge(limit) }
        return bytes
    }

    /// Records the first limit the list exceeds instead of trapping: the writer goes on (the fields
    /// that do not fit are cut to their width, which traps nowhere) and `encode` throws at the end.
    mutating func require(_ condition: Bool, _ limit: @autoclosure () -> String) {
        if !condition && exceeded == nil { exceeded = limit() }
    }

    private mutating func build(_ list: CompiledRuleList) -> [UInt8] {
        /// Per rule: pattern, condition + 1, action slot, the 24 bits of flags (packed once the counts are known).
        var rules: [(pattern: UInt32, condition: UInt32, slot: UInt32, flags: UInt32)] = []
        rules.reserveCapacity(list.rules.count)
        // The rules filed in the literal index and in the host index, under the compiler's keys.
        var grams: [(rule: Int32, gram: UInt32, code: UInt8)] = []
        var hostKeys: [(rule: Int32, key: UInt64)] = []
        var always: [UInt32] = []
        var universal: [UInt32] = []
        var fallbacks = ByteWriter()
        var topURLRules: [UInt32] = []
        patterns.reserve(keys: list.rules.count, bytes: 1 << 20)
        strings.reserve(strings: list.rules.count)
        for (position, rule) in list.rules.enumerated() {
            let number = Int32(position)
            let patternID = pattern(rule.urlFilter)
            var conditionID = Layout.none
            if let condition = rule.condition {
                conditions.append(u32: UInt32(Layout.conditionKind(condition.kind)))
                for value in condition.patterns {
                    if condition.kind.isDomain {
                        let (id, indexed) = domain(value)
                        domainUses.append(UInt64(id) << 32 | UInt64(UInt32(bitPattern: number)))
                        if !indexed {
                            fallbacks.u32(UInt32(number))
                            fallbacks.u32(id)
                        }
                        conditions.append(u32: id)
                    } else {
                        conditions.append(u32: pattern(value))
                    }
                }
                if !condition.kind.isDomain && !condition.kind.testsFrameURL { topURLRules.append(UInt32(number)) }
                conditionID = finishCondition()
            }
            let entry = entry(rule, pattern: Int(patternID))
            switch entry {
            case .literal:
                switch rule.indexKey {
                case .gram(let gram, let code): grams.append((number, gram, code))
                case .host(let key): hostKeys.append((number, key))
                case nil: break  // not reached: `entry` demotes a literal entry without a key
                }
            case .always: always.append(UInt32(number))
            case .universal where rule.condition == nil || rule.condition!.kind.isInverted:
                universal.append(UInt32(number))
            case .universal, .domain: break
            }
            let packed =
                rule.loadTypes.rawValue | rule.loadContexts.rawValue << 2 | Layout.methodCode(rule.requestMethod) << 4
            rules.append(
                (
                    patternID, conditionID &+ 1,  // none (0xFFFFFFFF) + 1 = 0
                    rule.actionSlot,
                    UInt32(rule.resourceTypes.rawValue & 0x3FFF | UInt16(entry.rawValue) << 14) | UInt32(packed) << 16
                ))
        }
        require(
            patterns.count <= Layout.maximumCount && conditions.count <= Layout.maximumCount
                && domains.count <= Layout.maximumCount && list.actionSlots.count <= Layout.maximumCount
                && list.rules.count <= Layout.maximumCount,
            "more than \(Layout.maximumCount) rules, patterns, conditions, domain entries or action slots")
        sections[.rules] = Self.packRules(
            rules, RuleLayout(patterns: patterns.count, conditions: conditions.count, slots: list.actionSlots.count))
        sections[.alwaysChecked] = Self.u32s(always)
        sections[.universal] = Self.u32s(universal)
        sections[.topURLRules] = Self.u32s(topURLRules)
        sections[.domainFallbacks] = fallbacks.bytes
        writeDomains()  // first: the domain texts open STRS
        writePatterns(list.templates)
        writeRemovedSources(list)
        writeLiteralIndexes(grams: grams, hostKeys: hostKeys, ruleCount: list.rules.count)
        writeActions(list.actionSlots)
        var meta = ByteWriter()
        meta.u32(UInt32(list.sourceRuleCount))
        meta.u32(UInt32(list.rules.count))
        meta.u32(UInt32(list.actionSlots.count))
        meta.u32(UInt32(patterns.count))
        meta.u32(UInt32(domains.count))
        if let stylesheet = list.globalStylesheet {
            let (offset, length) = strings.add(stylesheet)
            meta.u32(offset)
            meta.u32(length)
        } else {
            meta.u32(Layout.none)
            meta.u32(0)
        }
        meta.u32(UInt32(conditions.count))
        sections[.meta] = meta.bytes
        sections[.strings] = strings.bytes
        sections[.conditions] = conditionRecords.bytes
        sections[.conditionEntries] = conditionEntries.bytes
        return assemble()
    }

    /// RULE: each rule's fields at their bit positions, little-endian, `layout.size` bytes per rule.
    private static func packRules(
        _ rules: [(pattern: UInt32, condition: UInt32, slot: UInt32, flags: UInt32)], _ layout: RuleLayout
    ) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: rules.count * layout.size)
        for (number, rule) in rules.enumerated() {
            let fields = [
                (rule.flags, 0), (rule.pattern, layout.positions.pattern), (rule.condition, layout.positions.condition),
                (rule.slot, layout.positions.slot),
            ]
            for (value, position) in fields {
                var value = UInt64(value) << UInt64(position % 8)
                var index = number * layout.size + position / 8
                while value != 0 {
                    bytes[index] |= UInt8(truncatingIfNeeded: value)
                    value >>= 8
                    index += 1
                }
            }
        }
        return bytes
    }

    /// LGRM, LPST and HGRM: the literal index's table and postings, then the host index's table with its
    /// postings after the literal index's in LPST.
    private mutating func writeLiteralIndexes(
        grams: [(rule: Int32, gram: UInt32, code: UInt8)], hostKeys: [(rule: Int32, key: UInt64)], ruleCount: Int
    ) {
        var (table, postings) = LiteralIndex.encode(grams)
        let host = HostIndex.encode(hostKeys, postingsBase: postings.count / 4)
        postings += host.postings
        require(
            hostKeys.isEmpty || HostIndex.fits(rules: ruleCount, postingWords: postings.count / 4),
            "more than \(Layout.hostValueMask) rules or index postings with a host index")
        sections[.hostHash] = host.table
        sections[.literalHash] = table
        sections[.literalPostings] = postings
    }

    /// How the fast matcher reaches a rule: the compiler's ``CompiledRule/entry``, or ``RuleEntry/always``
    /// (correct for every rule) when that way in does not fit what is stored: a literal entry needs an
    /// index key (``CompiledRule/indexKey``) that files it under its stored literal (a gram of it; for
    /// the host index, the key of its beginning and a host-anchored pattern), a universal one a pattern
    /// that matches everything, a domain one an `if-domain` condition.
    private func entry(_ rule: CompiledRule, pattern id: Int) -> Layout.Entry {
        switch rule.entry {
        case .literal where filesUnderItsLiteral(rule.indexKey, pattern: id): return .literal
        case .universal where rule.urlFilter.matchesEverything: return .universal
        case .domain where rule.condition?.kind == .ifDomain: return .domain
        default: return .always
        }
    }

    /// Whether `key` files pattern `id`'s rule where the matcher finds it in a lower-cased URL: its
    /// required literal is lower-case ASCII without a NUL, and the key is a gram (never 0) of it with
    /// no neighbour code or the code of the gram's first occurrence (``IndexHash/neighbourCode(_:gramAt:)``),
    /// or, for a host-anchored pattern, the host key of its stored part. O(literal length).
    private func filesUnderItsLiteral(_ key: IndexKey?, pattern id: Int) -> Bool {
        let literal = patterns.bytes[requiredRange(id)]
        guard literal.count >= IndexHash.gramLength,
            literal.allSatisfy({ $0 != 0 && $0 < 0x80 && !($0 >= 0x41 && $0 <= 0x5A) })
        else { return false }
        switch key {
        case .gram(let gram, let code):
            guard gram != 0,
                let offset = (literal.startIndex...(literal.endIndex - IndexHash.gramLength)).first(where: {
                    IndexHash.gram(patterns.bytes, $0) == gram
                })
            else { return false }
            return code == 0 || code == IndexHash.neighbourCode(literal, gramAt: offset - literal.startIndex)
        case .host(let hash):
            let flags = patterns.bytes[patterns.range(id).lowerBound + 1]
            return flags & Layout.patternHostAnchored != 0 && hash == HostIndex.key(required(id))
        case nil: return false
        }
    }

    /// The id of a url-filter (or top/frame-URL condition) pattern.
    private mutating func pattern(_ pattern: CompiledPattern) -> UInt32 {
        var flags: UInt8 = pattern.caseSensitive ? Layout.patternCaseSensitive : 0
        if pattern.matchesEverything {
            patterns.append(Layout.PatternKind.everything.rawValue)
            patterns.append(0)
            patterns.append(u32: 0)
            let (id, isNew) = patterns.finish()
            if isNew {
                searchPlans.append(nil)
                scaffolds.append(nil)
            }
            return UInt32(id)
        }
        var text: String
        var kind = Layout.PatternKind.regex
        if let literal = pattern.literal {
            kind = .literal
            if literal.anchoredAtStart { flags |= Layout.patternAnchoredAtStart }
            if literal.anchoredAtEnd { flags |= Layout.patternAnchoredAtEnd }
            text = pattern.caseSensitive ? literal.text : Self.lowercased(literal.text)
        } else {
            text = pattern.pcre2Pattern ?? ""
        }
        // The literal the compiler chose for the index and the first check (``CompiledPattern/requiredLiteral``),
        // and whether it follows the host anchor (``Layout/patternHostAnchored``).
        let stored = pattern.requiredLiteral.map { Array($0.utf8) } ?? []
        if kind == .regex && pattern.hostAnchored && !stored.isEmpty { flags |= Layout.patternHostAnchored }
        patterns.append(kind.rawValue)
        patterns.append(flags)
        patterns.append(u32: UInt32(text.utf8.count))
        patterns.append(text)
        patterns.append(stored)
        let (id, isNew) = patterns.finish()
        if isNew {
            searchPlans.append(kind == .regex ? pattern.searchPlan : nil)
            scaffolds.append(kind == .regex ? pattern.scaffold : nil)
        }
        return UInt32(id)
    }

    /// `String.lowercased()`, without a new string when it is ASCII and already lower-case.
    private static func lowercased(_ text: String) -> String {
        text.utf8.allSatisfy({ $0 < 0x80 && !($0 >= 0x41 && $0 <= 0x5A) }) ? text : text.lowercased()
    }

    private func textRange(_ id: Int) -> Range<Int> {
        let start = patterns.range(id).lowerBound
        let bytes = patterns.bytes
        let length =
            Int(bytes[start + 2]) | Int(bytes[start + 3]) << 8 | Int(bytes[start + 4]) << 16
            | Int(bytes[start + 5]) << 24
        return (start + Self.patternHeaderSize)..<(start + Self.patternHeaderSize + length)
    }

    /// Where pattern `id`'s required literal is in `patterns.bytes` (empty when it has none).
    private func requiredRange(_ id: Int) -> Range<Int> { textRange(id).upperBound..<patterns.range(id).upperBound }

    /// Pattern `id`'s required literal as stored: a prefix of a literal every matching URL contains is one
    /// too, so a longer one is cut to ``Layout/maximumRequiredLength``.
    private func required(_ id: Int) -> ArraySlice<UInt8> {
        patterns.bytes[requiredRange(id)].prefix(Layout.maximumRequiredLength)
    }

    /// PATS and TMPL: each PCRE2 text, and each ASCII-subject text (SRCH), is stored as a prefix
    /// template, its own middle and a suffix template, when its scaffolding is one the compiler chose
    /// (``PatternTemplates``).
    private mutating func writePatterns(_ chosen: TextTemplates) {
        let bytes = patterns.bytes
        var templates = PatternTemplates(chosen)
        require(
            chosen.prefixes.count + chosen.suffixes.count <= TextTemplates.maximumCount,
            "more than \(TextTemplates.maximumCount) templates")
        var templateRecords = ByteWriter()
        for template in templates.all {
            let (offset, length) = strings.add(template[...])
            templateRecords.u32(offset)
            templateRecords.u32(length)
        }
        // Each record's fields, then its stored text: PCRE2 texts that are not also their required literal
        // (a host name usually is: those bytes are stored anyway) are coded with a symbol table (``SymbolTable``).
        var fields: [(kind: UInt8, flags: UInt8, stored: ArraySlice<UInt8>, templates: UInt32)] = []
        fields.reserveCapacity(patterns.count)
        for id in 0..<patterns.count {
            let start = patterns.range(id).lowerBound
            let kind = bytes[start]
            var text = textRange(id)
            var templateIDs = Layout.noTemplate | Layout.noTemplate << 12
            if kind == Layout.PatternKind.regex.rawValue {
                (text, templateIDs) = templates.cut(bytes, text, scaffolds[id])
            }
            var flags = bytes[start + 1]
            var stored = bytes[text]
            if kind == Layout.PatternKind.regex.rawValue, let unescaped = Self.unescapedDots(stored) {
                stored = unescaped[...]
                flags |= Layout.patternDotsUnescaped
            }
            fields.append((kind, flags, stored, templateIDs << 8))
        }
        var asciiTexts: [Int: StoredText] = [:]
        for id in 0..<patterns.count {
            guard let plan = searchPlans[id], let ascii = plan.asciiSubjectPattern else { continue }
            let text = Array(ascii.utf8)
            let (range, templateIDs) = templates.cut(text, 0..<text.count, plan.asciiSubjectScaffold)
            let unescaped = Self.unescapedDots(text[range])
            asciiTexts[id] = StoredText(
                middle: unescaped?[...] ?? text[range], dotsUnescaped: unescaped != nil, templates: templateIDs,
                sameAsPattern: false)
            // The same bytes as the PCRE2 text's own part: the reader takes that part (PATS).
            if asciiTexts[id]!.middle.elementsEqual(fields[id].stored),
                asciiTexts[id]!.dotsUnescaped == (fields[id].flags & Layout.patternDotsUnescaped != 0)
            {
                asciiTexts[id]!.sameAsPattern = true
            }
        }
        let codable = fields.indices.filter {
            fields[$0].kind == Layout.PatternKind.regex.rawValue && !fields[$0].stored.elementsEqual(required($0))
        }
        let symbols = SymbolTable(training: codable.map { Array(fields[$0].stored) })
        for id in codable {
            let coded = symbols.encode(Array(fields[id].stored))
            guard coded.count < fields[id].stored.count else { continue }
            fields[id].stored = coded[...]
            fields[id].flags |= Layout.patternCoded
        }
        symbolTables.append(contentsOf: symbols.section)
        writeSearchPlans(symbols, asciiTexts: asciiTexts)
        var records = ByteWriter()
        records.reserve(patterns.count * Layout.Tag.patterns.elementSize)
        for (id, field) in fields.enumerated() {
            let (textOffset, textLength) = strings.add(field.stored)
            require(
                textLength <= Layout.maximumTextLength,
                "a url-filter of \(textLength) bytes (at most \(Layout.maximumTextLength))")
            let required = required(id)
            let (requiredOffset, requiredLength) = strings.add(required)
            records.u32(textOffset)
            records.u32(textLength | UInt32(field.kind) << 24 | UInt32(field.flags) << 26)
            records.u32(requiredOffset)
            records.u32(requiredLength | field.templates)
        }
        sections[.templates] = templateRecords.bytes
        sections[.patterns] = records.bytes
    }

    /// `text` with every `\\.` spelled `.`, when that is reversible: `text` has a `\\.`, no other `\\` and
    /// no bare `.` (``MappedRuleList/regexSource(_:)`` puts the backslashes back). Host names in
    /// url-filters are spelled so; stored like this they share their bytes with the domain entries and
    /// required literals that spell the same host.
    static func unescapedDots(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        var result: [UInt8] = []
        result.reserveCapacity(text.count)
        var index = text.startIndex
        while index < text.endIndex {
            let byte = text[index]
            if byte == UInt8(ascii: ".") { return nil }
            if byte == UInt8(ascii: "\\") {
                guard index + 1 < text.endIndex, text[index + 1] == UInt8(ascii: ".") else { return nil }
                index += 1
                result.append(UInt8(ascii: "."))
            } else {
                result.append(byte)
            }
            index += 1
        }
        return result.count < text.count ? result : nil
    }

    /// The id of a domain entry, and whether the hash table holds it.
    private mutating func domain(_ pattern: CompiledPattern) -> (UInt32, Bool) {
        var flags: UInt32 = pattern.caseSensitive ? Layout.domainCaseSensitive : 0
        var source = pattern.source
        source.makeContiguousUTF8()
        return source.utf8.withContiguousStorageIfAvailable { utf8 in
            var text = utf8[...]
            // A leading `*` Character (a `*` byte that no combining scalar follows).
            if text.first == UInt8(ascii: "*"), text.count == 1 || text[1] < 0x80 || pattern.source.first == "*" {
                flags |= Layout.domainSubdomains
                text = text.dropFirst()
            }
            let indexed =
                !text.isEmpty && pattern.pcre2Pattern != nil
                && text.allSatisfy {
                    RequiredLiteral.isAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-")
                        || $0 == UInt8(ascii: "_")
                }
            if indexed {
                domains.append(u32: flags | Layout.domainIndexed)
                domains.append(text)
            } else {
                domains.append(u32: flags)
                domains.append(pattern.pcre2Pattern ?? "")
            }
            let (id, isNew) = domains.finish()
            if isNew && !indexed && pattern.searchPlan?.repeatsAGroup == true { domainRepeats.append(UInt32(id)) }
            return (UInt32(id), indexed)
        }!
    }

    /// The id of the condition just appended to `conditions`; identical conditions share one record.
    private mutating func finishCondition() -> UInt32 {
        let (id, isNew) = conditions.finish()
        if isNew {
            let key = conditions[id]
            let first = UInt32(conditionEntries.bytes.count / 3)
            require(first <= Layout.conditionFirstMask, "more than \(Layout.conditionFirstMask) condition entries")
            conditionRecords.u32(first | UInt32(key[key.startIndex]) << 29)
            // The key's u32 entries (ids below 2^24) as u24s.
            for at in stride(from: key.startIndex + 4, to: key.endIndex, by: 4) {
                conditionEntries.u8(key[at])
                conditionEntries.u8(key[at + 1])
                conditionEntries.u8(key[at + 2])
            }
        }
        return UInt32(id)
    }

    private mutating func writeRemovedSources(_ list: CompiledRuleList) {
        var kept = [Bool](repeating: false, count: list.sourceRuleCount)
        for rule in list.rules where Int(rule.sourceIndex) < kept.count { kept[Int(rule.sourceIndex)] = true }
        sections[.removedSources] = Self.u32s(kept.indices.filter { !kept[$0] }.map { UInt32($0) })
    }

    private mutating func writeDomains() {
        // Postings: the rules of each domain entry in rule order, without repeats (a stable counting sort).
        var firsts = [Int](repeating: 0, count: domains.count + 1)
        for use in domainUses { firsts[Int(use >> 32) + 1] += 1 }
        for id in 0..<domains.count { firsts[id + 1] += firsts[id] }
        var grouped = [UInt32](repeating: 0, count: domainUses.count)
        var next = firsts
        for use in domainUses {
            let id = Int(use >> 32)
            let rule = UInt32(truncatingIfNeeded: use)
            if next[id] > firsts[id], grouped[next[id] - 1] == rule { continue }
            grouped[next[id]] = rule
            next[id] += 1
        }
        var ends: [(text: UInt32, postings: UInt32, flags: UInt32)] = []
        ends.reserveCapacity(domains.count)
        var postings = ByteWriter()
        postings.reserve(domainUses.count * 3)
        var indexedCount = 0
        let bytes = domains.bytes
        for id in 0..<domains.count {
            let range = domains.range(id)
            let flags = UInt32(bytes[range.lowerBound])
            for index in firsts[id]..<next[id] { postings.u24(grouped[index]) }
            require(
                postings.bytes.count / 3 <= Layout.domainPostingsMask,
                "more than \(Layout.domainPostingsMask) domain postings")
            let text = strings.addUnshared(bytes[(range.lowerBound + 4)..<range.upperBound])
            ends.append((text, UInt32(postings.bytes.count / 3), flags))
            if flags & Layout.domainIndexed != 0 { indexedCount += 1 }
        }
        // Looked up only when a top URL is seen for the first time: a fuller table is fine.
        var capacity = 16
        while capacity * 4 < indexedCount * 5 { capacity *= 2 }
        var slots = [UInt32](repeating: Layout.none24, count: indexedCount == 0 ? 0 : capacity)
        for id in 0..<domains.count {
            let range = domains.range(id)
            let flags = UInt32(bytes[range.lowerBound])
            guard flags & Layout.domainIndexed != 0 else { continue }
            let lowercase = flags & Layout.domainCaseSensitive == 0
            var slot =
                bytes[(range.lowerBound + 4)..<range.upperBound].withUnsafeBufferPointer {
                    IndexHash.domain($0, lowercase: lowercase, flags: flags & 3)
                } & (capacity - 1)
            while slots[slot] != Layout.none24 { slot = (slot + 1) & (capacity - 1) }
            slots[slot] = UInt32(id)
        }
        let layout = DomainLayout(textEnd: Int(ends.last?.text ?? 0), postingsEnd: postings.bytes.count / 3)
        var records = ByteWriter()
        records.reserve(domains.count * layout.size)
        for end in ends {
            let packed = end.postings | end.flags << layout.flagShift
            if layout.size == 6 {
                records.u24(end.text)
                records.u24(packed)
            } else {
                records.u32(end.text)
                records.u32(packed)
            }
        }
        sections[.domains] = records.bytes
        sections[.domainPostings] = postings.bytes
        var table = ByteWriter()
        table.reserve(slots.count * 3)
        for slot in slots { table.u24(slot) }
        sections[.domainHash] = table.bytes
    }

    /// ACTN: per slot `u32` end of its bytes in APAY | type << 28; APAY: the slots' bytes back to back in slot
    /// order — a css-display-none selector's codes (with the list's ``SymbolTable``, SYMB), a notification's
    /// text, the encoding of a redirect or modify-headers action, nothing for the other types.
    private mutating func writeActions(_ actions: [Action]) {
        var records = ByteWriter()
        var payloads = ByteWriter()
        var selectors = ByteKeyTable()
        for case .cssDisplayNone(let selector) in actions {
            selectors.append(selector)
            _ = selectors.finish()
        }
        let texts = (0..<selectors.count).map { Array(selectors[$0]) }
        let symbols = SymbolTable(training: texts)
        let limit = maximumActionBytes
        for action in actions {
            switch action {
            case .cssDisplayNone(let text): payloads.append(symbols.encode(Array(text.utf8)))
            case .notify(let text): payloads.append(Array(text.utf8))
            case .redirect, .modifyHeaders: payloads.encode(action)
            default: break
            }
            let length = UInt32(truncatingIfNeeded: payloads.bytes.count)
            require(payloads.bytes.count <= limit, "more than \(limit) bytes of actions (selectors, notifications, …)")
            records.u32(UInt32(Layout.actionTypeCode(action.type)) << Layout.actionTypeShift | length)
        }
        sections[.actions] = records.bytes
        sections[.actionPayloads] = payloads.bytes
        symbolTables.insert(contentsOf: symbols.section, at: 0)
        sections[.selectorSymbols] = symbolTables
    }

    private static func u32s(_ values: [UInt32]) -> [UInt8] {
        var writer = ByteWriter()
        writer.u32s(values)
        return writer.bytes
    }

    /// Header, section table, then every section 8-byte aligned; the checksum covers all bytes after the header.
    private func assemble() -> [UInt8] {
        let tags = Layout.Tag.allCases
        let tableEnd = Layout.headerSize + tags.count * Layout.sectionEntrySize
        var total = tableEnd
        for tag in tags { total = Layout.aligned(total) + (sections[tag]?.count ?? 0) }
        var afterHeader = ByteWriter()
        afterHeader.reserve(total - Layout.headerSize)
        var offset = tableEnd
        for tag in tags {
            let start = Layout.aligned(offset)
            let count = sections[tag]?.count ?? 0
            afterHeader.u32(tag.rawValue)
            afterHeader.u32(0)
            afterHeader.u32(UInt32(start))
            afterHeader.u32(UInt32(count))
            offset = start + count
        }
        offset = tableEnd
        for tag in tags {
            let start = Layout.aligned(offset)
            for _ in offset..<start { afterHeader.u8(0) }
            if let bytes = sections[tag] { afterHeader.append(bytes) }
            offset = start + (sections[tag]?.count ?? 0)
        }
        var header = ByteWriter()
        header.reserve(total)
        for byte in Layout.signature { header.u8(byte) }
        header.u32(BinaryRuleList.version)
        header.u32(UInt32(Layout.headerSize))
        header.u64(UInt64(total))
        header.u32(UInt32(tags.count))
        header.u32(0)
        header.u64(Checksum.xxh64(afterHeader.bytes))
        while header.bytes.count < Layout.headerSize { header.u8(0) }
        header.append(afterHeader.bytes)
        return header.bytes
    }
}
