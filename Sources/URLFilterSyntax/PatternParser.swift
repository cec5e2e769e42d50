// Tokenizer for WebKit's url-filter dialect: a re-statement of the behaviour of JavaScriptCore's
// Yarr parser (`Source/JavaScriptCore/yarr/YarrParser.h`) in legacy (non-Unicode, Annex B) mode with
// back-references disabled and named forward references disallowed, as
// `URLFilterParser::addPattern` calls it. Tokens go straight to the term builder
// (PatternParser+Terms.swift), which mirrors `PatternParser` in `URLFilterParser.cpp`.
//
// Everything here is iterative: nesting depth only grows explicit arrays.

/// Yarr's "infinite" repetition count (`quantifyInfinite`, UINT_MAX).
let quantifyInfinite = UInt32.max

/// Yarr's maximum pattern length (`MAX_PATTERN_SIZE`, in UTF-16 units = bytes for ASCII).
let maximumPatternLength = 1024 * 1024

struct PatternParser {
    enum TokenType { case notAtom, atom, lookbehind }
    enum ParenthesesType { case subpattern, assertion, lookbehind }

    let bytes: [UInt8]
    var index = 0
    /// Set on the first Yarr syntax error; parsing stops there (Yarr returns on error).
    var yarrErrorSpan: Range<Int>?
    /// Why, in words (what YARR's error would say), for the first Yarr syntax error.
    var yarrErrorReason: String?
    var parenthesesStack: [ParenthesesType] = []
    var allGroupNames: Set<String> = []
    var activeGroupNames: [Set<String>] = [[]]
    var kIdentityEscapeSeen = false
    /// Start of the token being parsed (for error spans).
    var tokenStart = 0

    // Term builder state (see PatternParser+Terms.swift).
    let caseSensitive: Bool
    var nodes: [URLFilterTerm] = []
    var info: [NodeInfo] = []
    var canonicalDotStar: Int?
    var openGroups: [(children: [Int], start: Int)] = []
    var floating: Int?
    var sunk: [Int] = []
    var hasBeginningOfLineAssertion = false
    var hasProcessedEndOfLineAssertion = false
    var status: URLFilterParseStatus = .ok
    var statusSpan: Range<Int>?
    /// Character class under construction.
    var classSet = URLFilterCharacterSet()
    var classStart = 0

    init(bytes: [UInt8], caseSensitive: Bool) {
        self.bytes = bytes
        self.caseSensitive = caseSensitive
        // At most one term per pattern byte, plus the canonical `.*`.
        nodes.reserveCapacity(bytes.count + 1)
        info.reserveCapacity(bytes.count + 1)
        sunk.reserveCapacity(bytes.count + 1)
    }

    var atEnd: Bool { index >= bytes.count }
    var hasYarrError: Bool { yarrErrorSpan != nil }
    func peek() -> UInt8 { bytes[index] }
    var peekIsDigit: Bool { !atEnd && isDigit(peek()) }

    mutating func consume() -> UInt8 {
        defer { index += 1 }
        return bytes[index]
    }

    mutating func tryConsume(_ c: Character) -> Bool {
        guard !atEnd, bytes[index] == c.asciiValue! else { return false }
        index += 1
        return true
    }

    mutating func yarrError(_ reason: String) {
        guard yarrErrorSpan == nil else { return }
        yarrErrorSpan = tokenStart..<min(max(index, tokenStart + 1), max(bytes.count, tokenStart + 1))
        yarrErrorReason = reason
    }

    /// The token being parsed, quoted, for a reason.
    var tokenText: String {
        guard tokenStart < bytes.count else { return "the end" }
        return "`" + String(decoding: bytes[tokenStart..<min(bytes.count, max(index, tokenStart + 1))], as: UTF8.self)
            + "`"
    }

    /// Runs Yarr's `parse()`; afterwards either `yarrErrorSpan` is set or the builder holds the terms.
    mutating func parse() {
        if bytes.count > maximumPatternLength {
            yarrErrorSpan = 0..<bytes.count
            yarrErrorReason = "the pattern is longer than YARR's limit of \(maximumPatternLength) characters"
            return
        }
        parseTokens()
        if !hasYarrError, kIdentityEscapeSeen, !allGroupNames.isEmpty {
            tokenStart = 0
            index = bytes.count
            yarrError(
                "an identity escape (`\\` before a character with no escape meaning) in a pattern with a named group")
        }
    }

    mutating func parseTokens() {
        var last = TokenType.notAtom
        while !atEnd && !hasYarrError {
            tokenStart = index
            switch peek() {
            case UInt8(ascii: "|"):
                index += 1
                fail(.disjunction, tokenStart..<index)
                last = .notAtom
                activeGroupNames[activeGroupNames.count - 1] =
                    activeGroupNames.count > 1 ? activeGroupNames[activeGroupNames.count - 2] : []
            case UInt8(ascii: "("):
                parseParenthesesBegin()
                last = .notAtom
            case UInt8(ascii: ")"):
                last = parseParenthesesEnd()
            case UInt8(ascii: "^"):
                index += 1
                assertionBOL()
                last = .notAtom
            case UInt8(ascii: "$"):
                index += 1
                atomCharacter(0)
                last = .notAtom
            case UInt8(ascii: "."):
                index += 1
                atomDot()
                last = .atom
            case UInt8(ascii: "["):
                parseCharacterClass()
                last = .atom
            case UInt8(ascii: "\\"):
                last = parseAtomEscape()
            case UInt8(ascii: "*"):
                index += 1
                parseQuantifier(last, 0, quantifyInfinite)
                last = .notAtom
            case UInt8(ascii: "+"):
                index += 1
                parseQuantifier(last, 1, quantifyInfinite)
                last = .notAtom
            case UInt8(ascii: "?"):
                index += 1
                parseQuantifier(last, 0, 1)
                last = .notAtom
            case UInt8(ascii: "{"):
                if let (minimum, maximum) = braceQuantifier() {
                    if minimum <= maximum {
                        parseQuantifier(last, minimum, maximum)
                    } else {
                        yarrError("the quantifier \(tokenText) has its minimum above its maximum")
                    }
                    last = .notAtom
                } else {
                    atomCharacter(UInt32(consume()))  // Annex B: a lone `{` is a literal
                    last = .atom
                }
            default:
                // Includes `]`, `}` and a `{` that does not start a complete quantifier (Annex B).
                atomCharacter(UInt32(consume()))
                last = .atom
            }
        }
        if !hasYarrError && !parenthesesStack.isEmpty {
            tokenStart = bytes.count
            yarrError("a `(` that is never closed")
        }
    }

    /// `{n}`, `{n,}`, `{n,m}` at `index`: consumes it and returns (min, max), or consumes nothing.
    mutating func braceQuantifier() -> (UInt32, UInt32)? {
        let saved = index
        index += 1
        if peekIsDigit {
            let minimum = consumeNumber()
            var maximum = minimum
            if tryConsume(",") { maximum = peekIsDigit ? consumeNumber() : quantifyInfinite }
            if tryConsume("}") { return (minimum, maximum) }
        }
        index = saved
        return nil
    }

    mutating func parseQuantifier(_ last: TokenType, _ minimum: UInt32, _ maximum: UInt32) {
        if minimum == quantifyInfinite {
            yarrError("the quantifier \(tokenText) repeats too many times")
            return
        }
        switch last {
        case .atom:
            _ = tryConsume("?")  // lazy suffix: meaningless for this engine
            quantifyAtom(minimum, maximum)
        case .lookbehind, .notAtom:
            yarrError("nothing to repeat before the quantifier \(tokenText)")
        }
    }

    mutating func consumeNumber() -> UInt32 {
        var n: UInt32 = UInt32(consume() - UInt8(ascii: "0"))
        var overflow = false
        while peekIsDigit {
            let digit = UInt32(consume() - UInt8(ascii: "0"))
            let (m, o1) = n.multipliedReportingOverflow(by: 10)
            let (s, o2) = m.addingReportingOverflow(digit)
            overflow = overflow || o1 || o2
            n = s
        }
        return overflow ? quantifyInfinite : n
    }

    /// Annex B legacy octal: up to `count` octal digits while the value stays below 32.
    mutating func consumeOctal(_ count: Int) -> UInt32 {
        var octal: UInt32 = 0
        var remaining = count
        while remaining > 0 && octal < 32 && !atEnd && isOctalDigit(peek()) {
            octal = octal * 8 + UInt32(consume() - UInt8(ascii: "0"))
            remaining -= 1
        }
        return octal
    }

    mutating func tryConsumeHex(_ count: Int) -> Int? {
        let saved = index
        var n = 0
        for _ in 0..<count {
            guard !atEnd, let v = hexValue(peek()) else {
                index = saved
                return nil
            }
            n = n << 4 | v
            index += 1
        }
        return n
    }

    // MARK: Parentheses

    mutating func parseParenthesesBegin() {
        index += 1
        var type = ParenthesesType.subpattern
        if tryConsume("?") {
            if atEnd {
                yarrError("`(?` at the end of the pattern")
                return
            }
            switch consume() {
            case UInt8(ascii: ":"):
                subpatternBegin()
            case UInt8(ascii: "="), UInt8(ascii: "!"):
                fail(.group, tokenStart..<index)
                type = .assertion
            case UInt8(ascii: "<"):
                if let name = tryConsumeGroupName() {
                    if kIdentityEscapeSeen {
                        yarrError("a named group after an identity escape")
                        return
                    }
                    allGroupNames.insert(name)
                    if activeGroupNames[activeGroupNames.count - 1].insert(name).inserted {
                        subpatternBegin()
                    } else {
                        yarrError("the group name `\(name)` is used twice")
                        return
                    }
                } else if hasYarrError {
                    return
                } else if tryConsume("=") || tryConsume("!") {
                    fail(.group, tokenStart..<index)
                    type = .lookbehind
                } else {
                    yarrError("an invalid group name after `(?<`")
                    return
                }
            case let c where isModifierFlag(c) || c == UInt8(ascii: "-"):
                // `(?ims-ims:…)` modifier groups: accepted by current Yarr, rejected as Group by WebKit.
                index -= 1
                guard parseModifiers() else {
                    yarrError("invalid modifiers after `(?`")
                    return
                }
                fail(.group, tokenStart..<index)
            default:
                yarrError("an unknown kind of group \(tokenText)")
                return
            }
        } else {
            subpatternBegin()
        }
        parenthesesStack.append(type)
        activeGroupNames.append(activeGroupNames[activeGroupNames.count - 1])
    }

    func isModifierFlag(_ c: UInt8) -> Bool {
        c == UInt8(ascii: "i") || c == UInt8(ascii: "m") || c == UInt8(ascii: "s")
    }

    /// `ims-ims:` after `(?`; false on malformed modifiers (repeated flag, `-` with nothing, no `:`).
    mutating func parseModifiers() -> Bool {
        var seen: Set<UInt8> = []
        var added = 0
        var removed = 0
        var afterDash = false
        while !atEnd {
            let c = consume()
            if c == UInt8(ascii: ":") { return !(afterDash && added == 0 && removed == 0) }
            if c == UInt8(ascii: "-") {
                if afterDash { return false }
                afterDash = true
                continue
            }
            guard isModifierFlag(c), seen.insert(c).inserted else { return false }
            if afterDash { removed += 1 } else { added += 1 }
        }
        return false
    }

    mutating func parseParenthesesEnd() -> TokenType {
        index += 1
        guard let type = parenthesesStack.popLast() else {
            yarrError("a `)` with no `(` before it")
            return .notAtom
        }
        parenthesesEnd()
        activeGroupNames.removeLast()
        return type == .lookbehind ? .lookbehind : .atom  // legacy mode: look-aheads are quantifiable
    }

    mutating func tryConsumeGroupName() -> String? {
        if atEnd { return nil }
        let saved = index
        var ch = tryConsumeIdentifierCharacter()
        if isIdentifierStart(ch) {
            var name = ""
            name.unicodeScalars.append(Unicode.Scalar(UInt32(ch))!)
            while !atEnd && !hasYarrError {
                ch = tryConsumeIdentifierCharacter()
                if ch == Int(UInt8(ascii: ">")) { return name }
                guard isIdentifierPart(ch), let scalar = Unicode.Scalar(UInt32(ch)) else { break }
                name.unicodeScalars.append(scalar)
            }
        }
        index = saved
        return nil
    }

    /// One group-name character: plain, or `\uHHHH` / `\u{…}` (surrogate pairs combined). -1 on failure
    /// (with a Yarr error for a malformed escape).
    mutating func tryConsumeIdentifierCharacter() -> Int {
        guard tryConsume("\\") else { return Int(consume()) }
        guard tryConsume("u"), !atEnd else {
            yarrError("an invalid escape in a group name")
            return -1
        }
        if tryConsume("{") {
            var codePoint = 0
            repeat {
                guard !atEnd, let v = hexValue(peek()) else {
                    yarrError("an invalid escape in a group name")
                    return -1
                }
                index += 1
                codePoint = codePoint << 4 | v
                if codePoint > 0x10FFFF {
                    yarrError("an invalid escape in a group name")
                    return -1
                }
            } while !atEnd && peek() != UInt8(ascii: "}")
            guard tryConsume("}") else {
                yarrError("an invalid escape in a group name")
                return -1
            }
            return codePoint
        }
        guard let unit = tryConsumeHex(4) else {
            yarrError("an invalid escape in a group name")
            return -1
        }
        if (0xD800...0xDBFF).contains(unit), bytes.count - index >= 6, peek() == UInt8(ascii: "\\") {
            let saved = index
            index += 1
            if tryConsume("u"), let trail = tryConsumeHex(4), (0xDC00...0xDFFF).contains(trail) {
                return 0x10000 + ((unit - 0xD800) << 10) + (trail - 0xDC00)
            }
            index = saved
        }
        return unit
    }

    func generalCategory(_ ch: Int) -> Unicode.GeneralCategory? {
        guard ch >= 0, let scalar = Unicode.Scalar(UInt32(ch)) else { return nil }
        return scalar.properties.generalCategory
    }

    func isIdentifierStart(_ ch: Int) -> Bool {
        if ch >= 0 && ch < 128 {
            let c = UInt8(ch)
            return isAlpha(c) || c == UInt8(ascii: "_") || c == UInt8(ascii: "$")
        }
        switch generalCategory(ch) {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter:
            return true
        default: return false
        }
    }

    func isIdentifierPart(_ ch: Int) -> Bool {
        if isIdentifierStart(ch) || ch == 0x200C || ch == 0x200D { return true }
        switch generalCategory(ch) {
        case .nonspacingMark, .spacingMark, .decimalNumber, .connectorPunctuation: return true
        default: return false
        }
    }
}

func isDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") }
func isOctalDigit(_ c: UInt8) -> Bool { c >= UInt8(ascii: "0") && c <= UInt8(ascii: "7") }
func isAlpha(_ c: UInt8) -> Bool {
    (c | 0x20) >= UInt8(ascii: "a") && (c | 0x20) <= UInt8(ascii: "z")
}
func hexValue(_ c: UInt8) -> Int? {
    switch c {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(c - UInt8(ascii: "0"))
    case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(c - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(c - UInt8(ascii: "A") + 10)
    default: nil
    }
}
