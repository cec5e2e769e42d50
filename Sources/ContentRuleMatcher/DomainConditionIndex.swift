import ContentRuleFormat
import ContentRuleModel

/// `if-domain` / `unless-domain` entries as hash tables, with exactly the answer of their generated
/// patterns (`URLFilter.domainPattern`, spec §1.4 and §4.6).
///
/// A domain `d` becomes the unanchored pattern `[a-z][a-z+.-]*:\/\/d[:/]` (or
/// `[a-z][a-z+.-]*:\/\/([^/]*\.)*d[:/]` for `*d`), searched over the whole top URL. It matches iff
/// some occurrence of `://` at `q` in the top URL
/// 1. is preceded by a run of scheme characters (`[a-z+.-]`, also `[A-Z]` unless case-sensitive)
///    that contains a letter: the maximal such run ending at `q - 1` must contain one;
/// 2. is followed, at `h = q + 3`, for `d`: by `d` then `:` or `/`; for `*d`: by `d` starting at `h`
///    or right after a `.` that comes before the first `/` after `h`, then `:` or `/`.
///
/// Since `d` holds no `:` or `/`, `d` must be the text from its start up to the first `:` or `/`. So
/// one scan of the top URL yields every candidate key, and a hash look-up gives the rules whose
/// condition holds. Only domains made of letters, digits, `.`, `-` and `_` take this path (others
/// are left to PCRE2, pattern by pattern). Equivalence with PCRE2 is checked by a randomized differential test.
struct DomainConditionIndex: Sendable {
    /// Key → rule numbers (indices into `CompiledRuleList.rules`), ascending, one table per
    /// (case-sensitive, subdomains) combination: index `caseSensitive ? 2 : 0` + `subdomains ? 1 : 0`.
    private var tables: [[[UInt8]: [Int32]]] = Array(repeating: [:], count: 4)

    var isEmpty: Bool { tables.allSatisfy(\.isEmpty) }

    /// Whether a pattern of a domain condition can use the hash tables (the others are left to PCRE2).
    static func supports(_ pattern: CompiledPattern) -> Bool {
        guard let domain = Self.domain(pattern.source) else { return false }
        return !domain.bytes.isEmpty && pattern.pcre2Pattern != nil
    }

    /// The domain without its leading `*`, if it uses only letters, digits, `.`, `-`, `_`.
    private static func domain(_ source: String) -> (bytes: [UInt8], subdomains: Bool)? {
        var bytes = Array(source.utf8)
        var subdomains = false
        if bytes.first == UInt8(ascii: "*") {
            subdomains = true
            bytes.removeFirst()
        }
        let allowed = bytes.allSatisfy {
            RequiredLiteral.isAlphanumeric($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-")
                || $0 == UInt8(ascii: "_")
        }
        return allowed ? (bytes, subdomains) : nil
    }

    /// Adds the patterns of rule `number`'s domain condition that ``supports(_:)``.
    mutating func add(rule number: Int32, condition: CompiledCondition) {
        for pattern in condition.patterns where Self.supports(pattern) {
            guard let (domain, subdomains) = Self.domain(pattern.source) else { continue }
            let bytes = pattern.caseSensitive ? domain : domain.map(RequiredLiteral.lowercased)
            let table = (pattern.caseSensitive ? 2 : 0) + (subdomains ? 1 : 0)
            if tables[table][bytes]?.last != number { tables[table][bytes, default: []].append(number) }
        }
    }

    /// Rule numbers whose domain condition has a matching entry for `top` (the top URL's
    /// serialization), sorted ascending, without duplicates.
    ///
    /// - Complexity: O(top URL length × number of `.` in its hosts) hash look-ups.
    func matchingRules(top: UnsafeBufferPointer<UInt8>) -> [Int32] {
        var found: [Int32] = []
        let count = top.count
        var q = 1
        while q + 3 <= count {
            guard top[q] == UInt8(ascii: ":"), top[q + 1] == UInt8(ascii: "/"), top[q + 2] == UInt8(ascii: "/") else {
                q += 1
                continue
            }
            let (insensitiveScheme, sensitiveScheme) = Self.schemeBefore(q, in: top)
            let h = q + 3
            // End of the host part for the subdomain form: the first "/" at or after h.
            var slash = h
            while slash < count, top[slash] != UInt8(ascii: "/") { slash += 1 }
            var start = h
            while start < slash {
                // Key: from start up to the first ":" or "/" (which must exist).
                var end = start
                while end < count, top[end] != UInt8(ascii: ":"), top[end] != UInt8(ascii: "/") { end += 1 }
                if end < count && end > start {
                    let key = Array(top[start..<end])
                    for sensitive in [false, true] where sensitive ? sensitiveScheme : insensitiveScheme {
                        let base = sensitive ? 2 : 0
                        let lookup = sensitive ? key : key.map(RequiredLiteral.lowercased)
                        if start == h, let rules = tables[base][lookup] { found.append(contentsOf: rules) }
                        if let rules = tables[base + 1][lookup] { found.append(contentsOf: rules) }
                    }
                }
                // Next candidate start: right after the next "." before slash.
                var dot = start
                while dot < slash, top[dot] != UInt8(ascii: ".") { dot += 1 }
                start = dot + 1
            }
            q += 1
        }
        if found.count > 1 {
            found.sort()
            var unique = 0
            for value in found where unique == 0 || found[unique - 1] != value {
                found[unique] = value
                unique += 1
            }
            found.removeLast(found.count - unique)
        }
        return found
    }

    /// Whether `[a-z][a-z+.-]*` can end right before `q`: case-insensitively and case-sensitively.
    private static func schemeBefore(_ q: Int, in top: UnsafeBufferPointer<UInt8>) -> (Bool, Bool) {
        func isLower(_ byte: UInt8) -> Bool { byte >= 0x61 && byte <= 0x7A }
        func isUpper(_ byte: UInt8) -> Bool { byte >= 0x41 && byte <= 0x5A }
        func isPunctuation(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
        }
        var insensitive = false
        var index = q - 1
        while index >= 0 {
            let byte = top[index]
            if isLower(byte) || isUpper(byte) {
                insensitive = true
                break
            }
            guard isPunctuation(byte) else { break }
            index -= 1
        }
        var sensitive = false
        index = q - 1
        while index >= 0 {
            let byte = top[index]
            if isLower(byte) {
                sensitive = true
                break
            }
            guard isPunctuation(byte) else { break }
            index -= 1
        }
        return (insensitive, sensitive)
    }
}
