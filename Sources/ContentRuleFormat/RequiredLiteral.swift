/// The longest literal that every URL a url-filter matches must contain, lower-cased.
///
/// The compiler stores it with the pattern (`CompiledPattern.requiredLiteral`, found by
/// URLFilterSyntax on the normalized terms); the binary rule list writer files each rule in the literal
/// index under one of its 4-byte grams and stores it as the pattern's PCRE2 prefilter.
///
/// The result is lower-cased even for case-sensitive filters: the index compares it against the
/// lower-cased URL, a superset test; the regex decides.
enum RequiredLiteral {
    /// The stored required literal's bytes, lower-cased; `nil` when absent, empty or not ASCII.
    /// - Complexity: O(literal length).
    static func extract(from pattern: CompiledPattern) -> [UInt8]? {
        if pattern.matchesEverything { return nil }
        guard let text = pattern.requiredLiteral else { return nil }
        let bytes = text.utf8.map(lowercased)
        return bytes.isEmpty || bytes.contains(where: { $0 >= 0x80 }) ? nil : bytes
    }

    static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    static func lowercased(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
}
