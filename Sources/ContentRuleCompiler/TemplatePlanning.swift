import ContentRuleFormat
import ContentRuleModel

/// The compiler's choice of the PCRE2 texts' shared beginnings and endings that the binary rule list
/// stores once (``TextTemplates``): of each distinct regex pattern's PCRE2 text and ASCII-subject
/// text, the scaffolding before its first cut and after its last (``ScaffoldCut``), when it is at least
/// ``minimumLength`` bytes and shared by at least ``minimumUses`` texts.
///
/// 28,000 of the 83,750 rules of the combined benchmark list are
/// `^[htpsw]+:\/\/([a-z0-9-]+\.)?HOST([\/:&\?].*)?$`: two templates hold their scaffolding once.
enum TemplatePlanning {
    static let minimumLength = 8
    static let minimumUses = 8

    /// What makes two patterns one stored pattern (the binary rule list stores each once): its text,
    /// case-sensitivity, required literal and host anchoring.
    private struct StoredPattern: Hashable {
        var text: String
        var caseSensitive: Bool
        var requiredLiteral: String?
        var hostAnchored: Bool
    }

    /// The templates for the regex patterns of `rules` (url-filters and top- or frame-URL conditions):
    /// each kind most used first, ties in byte order, at most half of ``TextTemplates/maximumCount``
    /// each. O(total text length + distinct candidates × log).
    static func choose(_ rules: [CompiledRule]) -> TextTemplates {
        var seen = Set<StoredPattern>()
        var prefixes: [ArraySlice<UInt8>: Int] = [:]
        var suffixes: [ArraySlice<UInt8>: Int] = [:]
        func count(_ text: String, _ cut: ScaffoldCut?) {
            guard let cut else { return }
            let bytes = Array(text.utf8)
            if cut.prefixEnd >= minimumLength { prefixes[bytes[..<cut.prefixEnd], default: 0] += 1 }
            if bytes.count - cut.suffixStart >= minimumLength { suffixes[bytes[cut.suffixStart...], default: 0] += 1 }
        }
        func add(_ pattern: CompiledPattern) {
            guard pattern.literal == nil, let text = pattern.pcre2Pattern else { return }
            let key = StoredPattern(
                text: text, caseSensitive: pattern.caseSensitive, requiredLiteral: pattern.requiredLiteral,
                hostAnchored: pattern.hostAnchored && pattern.requiredLiteral != nil)
            guard seen.insert(key).inserted else { return }
            count(text, pattern.scaffold)
            if let plan = pattern.searchPlan, let ascii = plan.asciiSubjectPattern {
                count(ascii, plan.asciiSubjectScaffold)
            }
        }
        for rule in rules {
            add(rule.urlFilter)
            if let condition = rule.condition, !condition.kind.isDomain { condition.patterns.forEach(add) }
        }
        return TextTemplates(prefixes: chosen(prefixes), suffixes: chosen(suffixes))
    }

    /// The candidates worth storing, most used first, ties in byte order.
    private static func chosen(_ uses: [ArraySlice<UInt8>: Int]) -> [[UInt8]] {
        uses.filter { $0.value >= minimumUses }
            .sorted { $0.value != $1.value ? $0.value > $1.value : $0.key.lexicographicallyPrecedes($1.key) }
            .prefix(TextTemplates.maximumCount / 2).map { Array($0.key) }
    }
}
