/// The TMPL section: the shared beginnings and endings of PCRE2 texts that the compiler chose
/// (``TextTemplates``), stored once; a pattern stores the text between its prefix template and its
/// suffix template, and the matcher joins the three before compiling it with PCRE2.
struct PatternTemplates {
    /// TMPL ids of the prefix templates and of the suffix templates, by their bytes.
    private var prefixIDs: [ArraySlice<UInt8>: UInt32] = [:]
    private var suffixIDs: [ArraySlice<UInt8>: UInt32] = [:]
    /// Every template, in TMPL order: the prefixes, then the suffixes.
    let all: [[UInt8]]

    /// The first ``TextTemplates/maximumCount`` of `templates` (the writer refuses a list with more); a
    /// template listed twice keeps its first id.
    init(_ templates: TextTemplates) {
        all = Array((templates.prefixes + templates.suffixes).prefix(TextTemplates.maximumCount))
        for (id, template) in all.enumerated() {
            if id < templates.prefixes.count {
                if prefixIDs[template[...]] == nil { prefixIDs[template[...]] = UInt32(id) }
            } else if suffixIDs[template[...]] == nil {
                suffixIDs[template[...]] = UInt32(id)
            }
        }
    }

    /// The part of the text at `range` of `bytes` that a pattern stores, between the templates that its
    /// scaffolding (`cut`) is, and their ids (prefix | suffix << 12; ``Layout/noTemplate`` for none, and
    /// both none when the cuts overlap or lie outside the text).
    func cut(_ bytes: [UInt8], _ range: Range<Int>, _ cut: ScaffoldCut?) -> (Range<Int>, UInt32) {
        let none = Layout.noTemplate | Layout.noTemplate << 12
        guard let cut, cut.prefixEnd >= 0, cut.prefixEnd <= cut.suffixStart, cut.suffixStart <= range.count else {
            return (range, none)
        }
        let prefix = prefixIDs[bytes[range.lowerBound..<(range.lowerBound + cut.prefixEnd)]]
        let suffix = suffixIDs[bytes[(range.lowerBound + cut.suffixStart)..<range.upperBound]]
        let from = prefix == nil ? 0 : cut.prefixEnd
        let to = suffix == nil ? range.count : cut.suffixStart
        return (
            (range.lowerBound + from)..<(range.lowerBound + to),
            (prefix ?? Layout.noTemplate) | (suffix ?? Layout.noTemplate) << 12
        )
    }
}
