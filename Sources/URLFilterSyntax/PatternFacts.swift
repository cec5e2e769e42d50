/// Facts about a parsed url-filter that the compiler and the matcher use, read from its terms (never
/// from the PCRE2 text the ``Translator`` writes).
enum PatternFacts {
    /// The literal right after WebKit's host anchor, when a case-insensitive pattern begins with it:
    /// `^[htpsw]+://([a-z0-9-]+\.)?` (spec §3: a scheme of those letters, `://`, at most one label and
    /// its dot). The literal is the characters that follow, each matched exactly once (letters in
    /// either case; lower-cased here), up to the first term that is not such a character; one
    /// repeated by `+` ends it, included; one made optional by `?` or `*` ends it, left out. Every URL
    /// the pattern matches holds the literal just after the scheme's `://` or just after the first
    /// label's dot. `nil` when the pattern does not begin with the anchor; empty when nothing follows it.
    ///
    /// - Complexity: O(number of top-level terms).
    static func hostAnchorHead(_ tree: URLFilterTermTree, caseSensitive: Bool) -> String? {
        guard !caseSensitive, tree.isAnchoredAtStart else { return nil }
        let terms = tree.topLevel.map { tree.nodes[$0] }
        guard terms.count >= 5, isSet(terms[0], matching: "hpstw", .oneOrMore),
            isSet(terms[1], matching: ":", .one), isSet(terms[2], matching: "/", .one),
            isSet(terms[3], matching: "/", .one), case .group(let children) = terms[4].atom,
            terms[4].quantifier == .zeroOrOne, children.count == 2,
            isSet(tree.nodes[children[0]], matching: "0123456789abcdefghijklmnopqrstuvwxyz-", .oneOrMore),
            isSet(tree.nodes[children[1]], matching: ".", .one)
        else { return nil }
        var head: [UInt8] = []
        for term in terms.dropFirst(5) {
            guard let character = singleCharacter(term) else { break }
            if term.quantifier == .zeroOrOne || term.quantifier == .zeroOrMore { break }
            head.append(character)
            if term.quantifier == .oneOrMore { break }
        }
        return String(decoding: head, as: UTF8.self)
    }

    /// Whether `term` is a character set matching exactly `characters` (letters in both cases) with
    /// `quantifier`.
    private static func isSet(_ term: URLFilterTerm, matching characters: String, _ quantifier: URLFilterQuantifier)
        -> Bool
    {
        guard case .characterSet(let set) = term.atom, term.quantifier == quantifier, !set.matchesEndOfInput else {
            return false
        }
        var expected = URLFilterCharacterSet()
        for character in characters.utf8 { expected.add(character, caseSensitive: false) }
        return set.matchedMask == expected.matchedMask
    }

    /// The one printable character (space to `~`, lower-cased) a case-insensitive set matches: a
    /// single code point, or a letter in its two cases; `nil` for any other term (a serialized URL
    /// holds no control character).
    private static func singleCharacter(_ term: URLFilterTerm) -> UInt8? {
        guard case .characterSet(let set) = term.atom, !set.matchesEndOfInput else { return nil }
        let matched = set.matchedCharacters
        if matched.count == 1 { return matched[0] >= 0x20 && matched[0] < 0x7F ? matched[0] : nil }
        if matched.count == 2, let other = URLFilterCharacterSet.otherCase(matched[0]), other == matched[1] {
            return max(matched[0], matched[1])
        }
        return nil
    }
}
