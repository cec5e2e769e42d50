// SRCH and DRPT: how the matcher searches each PCRE2 pattern, as the compiler planned it
// (``RegexSearchPlan``), stored so that no reader analyses pattern text.

extension BinaryRuleListWriter {
    /// SRCH (one record per pattern, in id order) and DRPT. The ASCII-subject spellings are coded with
    /// the PCRE2 texts' symbol table `symbols` when that makes them shorter.
    mutating func writeSearchPlans(_ symbols: SymbolTable) {
        var records = ByteWriter()
        records.reserve(searchPlans.count * Layout.Tag.searchPlans.elementSize)
        for plan in searchPlans {
            guard let plan else {
                for _ in 0..<4 { records.u32(0) }
                continue
            }
            var flags = Layout.searchPlanned
            if plan.caseless { flags |= Layout.searchCaseless }
            if plan.repeatsAGroup { flags |= Layout.searchRepeatsAGroup }
            var ascii: (offset: UInt32, length: UInt32) = (0, 0)
            if let text = plan.asciiSubjectPattern {
                flags |= Layout.searchASCIISubject
                var stored = Array(text.utf8)
                let coded = symbols.encode(stored)
                if coded.count < stored.count {
                    stored = coded
                    flags |= Layout.searchASCIICoded
                }
                ascii = strings.add(stored[...])
                require(
                    ascii.length <= Layout.searchLengthMask,
                    "a url-filter of \(ascii.length) bytes (at most \(Layout.searchLengthMask))")
            }
            let prefilter = strings.add(Self.prefilterBytes(plan)[...])
            records.u32(ascii.offset)
            records.u32(ascii.length & Layout.searchLengthMask | flags << Layout.searchFlagShift)
            records.u32(prefilter.0)
            records.u32(prefilter.1)
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
