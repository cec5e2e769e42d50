// SRCH and DRPT: how the matcher searches each PCRE2 pattern, as the compiler planned it
// (``RegexSearchPlan``), stored so that no reader analyses pattern text.

extension BinaryRuleListWriter {
    /// A text stored between a prefix and a suffix template: its own part (with each `\\.` spelled `.`
    /// when `dotsUnescaped`), the template ids (prefix | suffix << 12, ``Layout/noTemplate`` for none), and
    /// whether the part is the same bytes as its pattern's in PATS.
    struct StoredText {
        var middle: ArraySlice<UInt8>
        var dotsUnescaped: Bool
        var templates: UInt32
        var sameAsPattern: Bool
    }

    /// SRCH (one record per pattern, in id order) and DRPT. An ASCII-subject text is stored like a
    /// PCRE2 text, between templates (`asciiTexts`, cut by ``writePatterns(_:)``); its own part is
    /// coded with the PCRE2 texts' symbol table `symbols` when that makes it shorter, and not stored
    /// again when it is its pattern's own part in PATS.
    mutating func writeSearchPlans(_ symbols: SymbolTable, asciiTexts: [Int: StoredText]) {
        var records = ByteWriter()
        records.reserve(searchPlans.count * Layout.Tag.searchPlans.elementSize)
        for (id, plan) in searchPlans.enumerated() {
            guard let plan else {
                records.u32(0)
                records.u32(0)
                continue
            }
            var flags = Layout.searchPlanned
            if plan.caseless { flags |= Layout.searchCaseless }
            if plan.repeatsAGroup { flags |= Layout.searchRepeatsAGroup }
            var templateIDs = Layout.noTemplate | Layout.noTemplate << 12
            var blob: [UInt8] = []
            if let ascii = asciiTexts[id] {
                flags |= Layout.searchASCIISubject
                templateIDs = ascii.templates
                if ascii.dotsUnescaped { flags |= Layout.searchASCIIDotsUnescaped }
                if ascii.sameAsPattern {
                    flags |= Layout.searchASCIIInPattern
                } else {
                    var stored = Array(ascii.middle)
                    let coded = symbols.encode(stored)
                    if coded.count < stored.count {
                        stored = coded
                        flags |= Layout.searchASCIICoded
                    }
                    let (offset, length) = strings.add(stored[...])
                    require(
                        length <= Layout.maximumTextLength,
                        "a url-filter of \(length) bytes (at most \(Layout.maximumTextLength))")
                    for word in [offset, length] {
                        blob += [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: word >> $0) }
                    }
                }
            }
            blob += Self.prefilterBytes(plan)
            records.u32(flags | templateIDs << Layout.searchTemplateShift)
            records.u32(strings.add(blob[...]).0)
        }
        sections[.searchPlans] = records.bytes
        var repeats = ByteWriter()
        for id in domainRepeats { repeats.u32(id) }
        sections[.domainRepeats] = repeats.bytes
    }

    /// The prefilter bytes of SRCH (``Layout``): runs, suffix, byte demand, each with a one-byte count
    /// (the plan keeps every length and count within 255: ``RegexSearchPlan/maximumLength``).
    static func prefilterBytes(_ plan: RegexSearchPlan) -> [UInt8] {
        let limit = RegexSearchPlan.maximumLength
        let runs = plan.mandatory.prefix(2)
        var out: [UInt8] = [UInt8(runs.count)]
        for run in runs {
            out.append(UInt8(min(run.count, limit)))
            out += run.prefix(limit)
        }
        let suffix = plan.suffix.suffix(limit)
        out.append(UInt8(suffix.count))
        out += suffix
        let demand = plan.byteDemand.prefix(limit)
        out.append(UInt8(demand.count))
        for entry in demand { out += [entry.byte, entry.count] }
        return out
    }
}
