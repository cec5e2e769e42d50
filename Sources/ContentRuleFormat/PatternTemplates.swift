/// The TMPL section: the shared beginnings and endings of PCRE2 texts that the compiler chose
/// (``TextTemplates``), stored once; a pattern stores the text between its prefix template and its
/// suffix template, and the matcher joins the three before compiling it with PCRE2.
struct PatternTemplates {
    /// The prefix templates and the suffix templates, each numbered in TMPL order within its kind.
    private var prefixes = ByteKeyTable()
    private var suffixes = ByteKeyTable()
    /// TMPL id of the first suffix template (the number of prefix templates).
    private let firstSuffix: Int
    /// Every template, in TMPL order: the prefixes, then the suffixes.
    let all: [[UInt8]]

    /// The first ``TextTemplates/maximumCount`` of `templates` (the writer refuses a list with more); a
    /// template listed twice within its kind keeps its first id.
    init(_ templates: TextTemplates) {
        all = Array((templates.prefixes + templates.suffixes).prefix(TextTemplates.maximumCount))
        firstSuffix = min(templates.prefixes.count, all.count)
        for template in all[..<firstSuffix] {
            prefixes.append(template)
            _ = prefixes.finishUnshared()
        }
        for template in all[firstSuffix...] {
            suffixes.append(template)
            _ = suffixes.finishUnshared()
        }
    }

    /// The part of the text at `range` of `bytes` that a pattern stores, between the templates that its
    /// scaffolding (`cut`) is, and their ids (prefix | suffix << 12; ``Layout/noTemplate`` for none, and
    /// both none when the cuts overlap or lie outside the text).
    mutating func cut(_ bytes: [UInt8], _ range: Range<Int>, _ cut: ScaffoldCut?) -> (Range<Int>, UInt32) {
        let none = Layout.noTemplate | Layout.noTemplate << 12
        guard let cut, cut.prefixEnd >= 0, cut.prefixEnd <= cut.suffixStart, cut.suffixStart <= range.count else {
            return (range, none)
        }
        prefixes.append(bytes[range.lowerBound..<(range.lowerBound + cut.prefixEnd)])
        let prefix = prefixes.lookUp()
        suffixes.append(bytes[(range.lowerBound + cut.suffixStart)..<range.upperBound])
        let suffix = suffixes.lookUp().map { firstSuffix + $0 }
        let from = prefix == nil ? 0 : cut.prefixEnd
        let to = suffix == nil ? range.count : cut.suffixStart
        return (
            (range.lowerBound + from)..<(range.lowerBound + to),
            (prefix.map(UInt32.init) ?? Layout.noTemplate) | (suffix.map(UInt32.init) ?? Layout.noTemplate) << 12
        )
    }
}
