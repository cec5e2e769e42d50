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
        var prefixes = Counter()
        var suffixes = Counter()
        func count(_ text: String, _ cut: ScaffoldCut?) {
            guard let cut else { return }
            var text = text
            text.withUTF8 { bytes in
                if cut.prefixEnd >= minimumLength { prefixes.add(bytes[..<cut.prefixEnd]) }
                if bytes.count - cut.suffixStart >= minimumLength { suffixes.add(bytes[cut.suffixStart...]) }
            }
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
        return TextTemplates(prefixes: prefixes.chosen(), suffixes: suffixes.chosen())
    }

    /// Distinct template candidates and how many texts use each.
    private struct Counter {
        var keys = ByteKeyTable()
        var uses: [Int] = []

        mutating func add(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) {
            keys.append(bytes)
            let (id, isNew) = keys.finish()
            if isNew { uses.append(0) }
            uses[id] += 1
        }

        /// The candidates worth storing, most used first, ties in byte order, at most half of
        /// ``TextTemplates/maximumCount``.
        func chosen() -> [[UInt8]] {
            uses.indices.filter { uses[$0] >= minimumUses }
                .sorted {
                    uses[$0] != uses[$1] ? uses[$0] > uses[$1] : keys[$0].lexicographicallyPrecedes(keys[$1])
                }
                .prefix(TextTemplates.maximumCount / 2).map { Array(keys[$0]) }
        }
    }
}
