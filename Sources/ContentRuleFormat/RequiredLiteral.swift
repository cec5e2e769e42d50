/// The longest literal that every URL a url-filter matches must contain, lower-cased.
///
/// Read from the PCRE2 source that URLFilterSyntax's translator emits for the compiled list (the
/// matcher does not link the url-filter parser). That source is a small, regular language: an
/// optional `(?i)`, an optional `\A`, then a sequence of letters/digits, `\x{hh}` escapes, character
/// classes `[...]`, non-capturing groups `(?:...)`, `\z` and `(?!)`, each optionally followed by
/// `?`, `*` or `+`. Only unquantified top-level characters (and the first copy of a `+` character)
/// form literal runs. Anything else in the source makes the extraction give up (`nil`): a literal is
/// only reported when it is certainly a substring of every matched URL.
///
/// The result is lower-cased even for case-sensitive filters: the index compares it against the
/// lower-cased URL, a superset test; the regex decides.
enum RequiredLiteral {
    /// - Complexity: O(pattern length); no recursion.
    static func extract(from pattern: CompiledPattern) -> [UInt8]? {
        if pattern.matchesEverything { return nil }
        if let literal = pattern.literal {
            let bytes = Array(literal.text.utf8).map(lowercased)
            return bytes.isEmpty || bytes.contains(where: { $0 >= 0x80 }) ? nil : bytes
        }
        guard let source = pattern.pcre2Pattern else { return nil }
        return extract(pcre2: Array(source.utf8))
    }

    static func extract(pcre2 source: [UInt8]) -> [UInt8]? {
        var index = 0
        func hasPrefix(_ text: String) -> Bool {
            let bytes = Array(text.utf8)
            return index + bytes.count <= source.count && source[index..<(index + bytes.count)].elementsEqual(bytes)
        }
        if hasPrefix("(?i)") { index += 4 }
        if hasPrefix(#"\A"#) { index += 2 }
        var best: [UInt8] = []
        var run: [UInt8] = []
        func close() {
            if run.count > best.count { best = run }
            run = []
        }
        while index < source.count {
            let byte = source[index]
            var character: UInt8?
            if isAlphanumeric(byte) {
                character = lowercased(byte)
                index += 1
            } else if byte == UInt8(ascii: "\\") {
                guard index + 1 < source.count else { return nil }
                let next = source[index + 1]
                if next == UInt8(ascii: "z") {
                    index += 2
                } else if next == UInt8(ascii: "x") {
                    guard let (value, end) = hexEscape(source, at: index) else { return nil }
                    character = lowercased(value)
                    index = end
                } else {
                    return nil
                }
            } else if byte == UInt8(ascii: "[") {
                guard let end = classEnd(source, from: index) else { return nil }
                index = end
            } else if byte == UInt8(ascii: "(") {
                guard let end = groupEnd(source, from: index) else { return nil }
                index = end
            } else {
                return nil
            }
            var quantifier: UInt8?
            if index < source.count,
                [UInt8(ascii: "?"), UInt8(ascii: "*"), UInt8(ascii: "+")].contains(source[index])
            {
                quantifier = source[index]
                index += 1
            }
            guard let character, character < 0x80 else {
                close()
                continue
            }
            switch quantifier {
            case nil:
                run.append(character)
            case UInt8(ascii: "+")?:
                run.append(character)
                close()
                run = [character]
            default:
                close()
            }
        }
        close()
        return best.isEmpty ? nil : best
    }

    /// `\x{hh}` at `start`: the byte and the index after `}`.
    private static func hexEscape(_ source: [UInt8], at start: Int) -> (UInt8, Int)? {
        guard start + 3 < source.count, source[start + 2] == UInt8(ascii: "{") else { return nil }
        var value = 0
        var index = start + 3
        while index < source.count, source[index] != UInt8(ascii: "}") {
            guard let digit = hexDigit(source[index]), index - start < 7 else { return nil }
            value = value * 16 + digit
            index += 1
        }
        guard index < source.count, index > start + 3, value <= 0xFF else { return nil }
        return (UInt8(value), index + 1)
    }

    /// The index after the `]` closing the class opened at `start` (our classes never contain a bare `]`).
    private static func classEnd(_ source: [UInt8], from start: Int) -> Int? {
        var index = start + 1
        while index < source.count {
            let byte = source[index]
            if byte == UInt8(ascii: "]") { return index + 1 }
            if byte == UInt8(ascii: "\\") {
                guard let (_, end) = hexEscape(source, at: index) else { return nil }
                index = end
            } else if isAlphanumeric(byte) || byte == UInt8(ascii: "-") {
                index += 1
            } else {
                return nil
            }
        }
        return nil
    }

    /// The index after the `)` closing the group opened at `start`; only `(?:` and `(?!` open groups.
    private static func groupEnd(_ source: [UInt8], from start: Int) -> Int? {
        var depth = 0
        var index = start
        while index < source.count {
            let byte = source[index]
            switch byte {
            case UInt8(ascii: "("):
                guard index + 2 < source.count, source[index + 1] == UInt8(ascii: "?"),
                    source[index + 2] == UInt8(ascii: ":") || source[index + 2] == UInt8(ascii: "!")
                else { return nil }
                depth += 1
                index += 3
            case UInt8(ascii: ")"):
                depth -= 1
                index += 1
                if depth == 0 { return index }
            case UInt8(ascii: "\\"):
                guard index + 1 < source.count else { return nil }
                if source[index + 1] == UInt8(ascii: "x") {
                    guard let (_, end) = hexEscape(source, at: index) else { return nil }
                    index = end
                } else {
                    index += 2
                }
            case UInt8(ascii: "["):
                guard let end = classEnd(source, from: index) else { return nil }
                index = end
            default:
                index += 1
            }
        }
        return nil
    }

    static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    static func lowercased(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }

    private static func hexDigit(_ byte: UInt8) -> Int? {
        switch byte {
        case 0x30...0x39: return Int(byte - 0x30)
        case 0x41...0x46: return Int(byte - 0x41 + 10)
        case 0x61...0x66: return Int(byte - 0x61 + 10)
        default: return nil
        }
    }
}
