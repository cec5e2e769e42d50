/// A CSS token (CSS Syntax Level 3, §4), as much as selector validation needs.
struct CSSToken: Equatable {
    enum Kind: Equatable {
        case ident, function, atKeyword, string, badString, url, badURL, delim
        /// `isID`: the hash's value would start an identifier (type flag "id").
        case hash(isID: Bool)
        /// `isInteger` / `hasSign` describe the written number.
        case number(isInteger: Bool, hasSign: Bool)
        case percentage
        case dimension(isInteger: Bool, hasSign: Bool)
        case whitespace, cdo, cdc, colon, semicolon, comma
        case leftBracket, rightBracket, leftParen, rightParen, leftBrace, rightBrace
    }
    var kind: Kind
    /// Ident/function/hash/string/url name, the delim character, or a number's unit (dimension).
    var value: String = ""
    /// The numeric value of number, percentage and dimension tokens.
    var number: Double = 0
}

/// Tokenizes CSS text (CSS Syntax Level 3 §4.3, with its preprocessing of §3.3). Comments are
/// dropped. Linear in the input; no recursion.
struct CSSTokenizer {
    private var s: [Unicode.Scalar]
    private var i = 0

    init(_ text: String) {
        // Preprocessing: CR LF, CR, FF → LF; NUL and surrogates → U+FFFD.
        // Fast path: ASCII text with nothing to replace maps byte by byte.
        if text.utf8.allSatisfy({ $0 < 0x80 && $0 != 0x0D && $0 != 0x0C && $0 != 0 }) {
            s = text.utf8.map { Unicode.Scalar($0) }
            return
        }
        var out: [Unicode.Scalar] = []
        out.reserveCapacity(text.unicodeScalars.count)
        var previousCR = false
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\r":
                out.append("\n")
                previousCR = true
                continue
            case "\n": if !previousCR { out.append("\n") }
            case "\u{0C}": out.append("\n")
            case "\u{0}": out.append("\u{FFFD}")
            default: out.append(scalar)
            }
            previousCR = false
        }
        s = out
    }

    static func tokenize(_ text: String) -> [CSSToken] {
        var tokenizer = CSSTokenizer(text)
        var tokens: [CSSToken] = []
        tokens.reserveCapacity(tokenizer.s.count / 2)
        while let token = tokenizer.next() { tokens.append(token) }
        return tokens
    }

    private func at(_ k: Int) -> Unicode.Scalar? { k < s.count ? s[k] : nil }
    private static func isNameStart(_ c: Unicode.Scalar) -> Bool {
        (c.value >= 0x41 && c.value <= 0x5A) || (c.value >= 0x61 && c.value <= 0x7A) || c == "_" || c.value >= 0x80
    }
    private static func isName(_ c: Unicode.Scalar) -> Bool {
        isNameStart(c) || isDigit(c) || c == "-"
    }
    private static func isDigit(_ c: Unicode.Scalar) -> Bool { c.value >= 0x30 && c.value <= 0x39 }
    private static func isHex(_ c: Unicode.Scalar) -> Bool {
        isDigit(c) || (c.value >= 0x41 && c.value <= 0x46) || (c.value >= 0x61 && c.value <= 0x66)
    }
    private static func isWhitespace(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\t" || c == "\n" }

    private func isValidEscape(_ k: Int) -> Bool {
        guard at(k) == "\\" else { return false }
        return at(k + 1) != "\n"
    }
    private func startsIdent(_ k: Int) -> Bool {
        guard let c = at(k) else { return false }
        if c == "-" {
            guard let d = at(k + 1) else { return false }
            return Self.isNameStart(d) || d == "-" || isValidEscape(k + 1)
        }
        if Self.isNameStart(c) { return true }
        return isValidEscape(k)
    }
    private func startsNumber(_ k: Int) -> Bool {
        guard let c = at(k) else { return false }
        if c == "+" || c == "-" {
            if let d = at(k + 1), Self.isDigit(d) { return true }
            return at(k + 1) == "." && at(k + 2).map(Self.isDigit) == true
        }
        if c == "." { return at(k + 1).map(Self.isDigit) == true }
        return Self.isDigit(c)
    }

    /// Consumes an escape; positioned after the backslash.
    private mutating func consumeEscape() -> Unicode.Scalar {
        guard let c = at(i) else { return "\u{FFFD}" }
        if Self.isHex(c) {
            var value: UInt32 = 0
            var count = 0
            while count < 6, let h = at(i), Self.isHex(h) {
                value = value * 16 + UInt32(String(h), radix: 16)!
                i += 1
                count += 1
            }
            if let w = at(i), Self.isWhitespace(w) { i += 1 }
            if value == 0 || (value >= 0xD800 && value <= 0xDFFF) || value > 0x10FFFF { return "\u{FFFD}" }
            return Unicode.Scalar(value) ?? "\u{FFFD}"
        }
        i += 1
        return c
    }

    private mutating func consumeName() -> String {
        // Fast path: a name of ASCII name code points only, copied in one piece (no escape, no
        // scalar-by-scalar appends).
        var end = i
        while end < s.count, s[end].value < 0x80, Self.isName(s[end]) { end += 1 }
        if end == s.count || (s[end].value < 0x80 && s[end] != "\\") {
            let start = i
            i = end
            return String(unsafeUninitializedCapacity: end - start) { buffer in
                for offset in 0..<(end - start) { buffer[offset] = UInt8(truncatingIfNeeded: s[start + offset].value) }
                return end - start
            }
        }
        var name = String.UnicodeScalarView()
        while let c = at(i) {
            if Self.isName(c) {
                name.append(c)
                i += 1
            } else if isValidEscape(i) {
                i += 1
                name.append(consumeEscape())
            } else {
                break
            }
        }
        return String(name)
    }

    private mutating func consumeNumber() -> (Double, Bool, Bool) {
        var text = ""
        var isInteger = true
        var hasSign = false
        if let c = at(i), c == "+" || c == "-" {
            hasSign = true
            text.unicodeScalars.append(c)
            i += 1
        }
        while let c = at(i), Self.isDigit(c) {
            text.unicodeScalars.append(c)
            i += 1
        }
        if at(i) == ".", let d = at(i + 1), Self.isDigit(d) {
            isInteger = false
            text += "."
            i += 1
            while let c = at(i), Self.isDigit(c) {
                text.unicodeScalars.append(c)
                i += 1
            }
        }
        if let e = at(i), e == "e" || e == "E" {
            var k = i + 1
            if let sign = at(k), sign == "+" || sign == "-" { k += 1 }
            if let d = at(k), Self.isDigit(d) {
                isInteger = false
                text += "e"
                if let sign = at(i + 1), sign == "+" || sign == "-" { text.unicodeScalars.append(sign) }
                i = k
                while let c = at(i), Self.isDigit(c) {
                    text.unicodeScalars.append(c)
                    i += 1
                }
            }
        }
        return (Double(text) ?? 0, isInteger, hasSign)
    }

    private mutating func consumeString(_ quote: Unicode.Scalar) -> CSSToken {
        var value = String.UnicodeScalarView()
        while let c = at(i) {
            i += 1
            if c == quote { return CSSToken(kind: .string, value: String(value)) }
            if c == "\n" {
                i -= 1
                return CSSToken(kind: .badString)
            }
            if c == "\\" {
                guard let d = at(i) else { continue }
                if d == "\n" {
                    i += 1
                } else {
                    value.append(consumeEscape())
                }
                continue
            }
            value.append(c)
        }
        return CSSToken(kind: .string, value: String(value))  // EOF: parse error, still a string token
    }

    private mutating func consumeURL() -> CSSToken {
        while let c = at(i), Self.isWhitespace(c) { i += 1 }
        var value = String.UnicodeScalarView()
        while let c = at(i) {
            i += 1
            switch c {
            case ")": return CSSToken(kind: .url, value: String(value))
            case " ", "\t", "\n":
                while let w = at(i), Self.isWhitespace(w) { i += 1 }
                if at(i) == nil { return CSSToken(kind: .url, value: String(value)) }
                if at(i) == ")" {
                    i += 1
                    return CSSToken(kind: .url, value: String(value))
                }
                return consumeBadURL()
            case "\"", "'", "(": return consumeBadURL()
            case "\\":
                if isValidEscape(i - 1) { value.append(consumeEscape()) } else { return consumeBadURL() }
            default:
                if c.value <= 0x08 || c.value == 0x0B || (c.value >= 0x0E && c.value <= 0x1F) || c.value == 0x7F {
                    return consumeBadURL()
                }
                value.append(c)
            }
        }
        return CSSToken(kind: .url, value: String(value))
    }

    private mutating func consumeBadURL() -> CSSToken {
        while let c = at(i) {
            if c == ")" {
                i += 1
                break
            }
            if isValidEscape(i) {
                i += 1
                _ = consumeEscape()
            } else {
                i += 1
            }
        }
        return CSSToken(kind: .badURL)
    }

    private mutating func consumeIdentLike() -> CSSToken {
        let name = consumeName()
        if at(i) == "(" {
            i += 1
            if name.lowercased() == "url" {
                var k = i
                while let c = at(k), Self.isWhitespace(c) { k += 1 }
                if let q = at(k), q == "\"" || q == "'" { return CSSToken(kind: .function, value: name) }
                return consumeURL()
            }
            return CSSToken(kind: .function, value: name)
        }
        return CSSToken(kind: .ident, value: name)
    }

    private mutating func consumeNumeric() -> CSSToken {
        let (number, isInteger, hasSign) = consumeNumber()
        if startsIdent(i) {
            let unit = consumeName()
            return CSSToken(kind: .dimension(isInteger: isInteger, hasSign: hasSign), value: unit, number: number)
        }
        if at(i) == "%" {
            i += 1
            return CSSToken(kind: .percentage, number: number)
        }
        return CSSToken(kind: .number(isInteger: isInteger, hasSign: hasSign), number: number)
    }

    /// Code points that are a token on their own.
    static let punctuation: [Unicode.Scalar: CSSToken.Kind] = [
        "(": .leftParen, ")": .rightParen, "[": .leftBracket, "]": .rightBracket, "{": .leftBrace,
        "}": .rightBrace, ",": .comma, ":": .colon, ";": .semicolon,
    ]
    /// ``punctuation`` indexed by ASCII code (all its keys are ASCII): no hashing per code point.
    static let asciiPunctuation: [CSSToken.Kind?] = (0..<128).map { punctuation[Unicode.Scalar(UInt8($0))] }

    mutating func next() -> CSSToken? {
        // Comments.
        while at(i) == "/" && at(i + 1) == "*" {
            i += 2
            while i < s.count && !(at(i) == "*" && at(i + 1) == "/") { i += 1 }
            i = min(i + 2, s.count)
        }
        guard let c = at(i) else { return nil }
        if Self.isWhitespace(c) {
            while let w = at(i), Self.isWhitespace(w) { i += 1 }
            return CSSToken(kind: .whitespace)
        }
        switch c {
        case "\"", "'":
            i += 1
            return consumeString(c)
        case "#":
            if let d = at(i + 1), Self.isName(d) || isValidEscape(i + 1) {
                i += 1
                let isID = startsIdent(i)
                return CSSToken(kind: .hash(isID: isID), value: consumeName())
            }
        case _ where c.value < 0x80 && Self.asciiPunctuation[Int(c.value)] != nil:
            i += 1
            return CSSToken(kind: Self.asciiPunctuation[Int(c.value)]!)
        case "+", ".":
            if startsNumber(i) { return consumeNumeric() }
        case "-":
            if startsNumber(i) { return consumeNumeric() }
            if at(i + 1) == "-" && at(i + 2) == ">" {
                i += 3
                return CSSToken(kind: .cdc)
            }
            if startsIdent(i) { return consumeIdentLike() }
        case "<":
            if at(i + 1) == "!" && at(i + 2) == "-" && at(i + 3) == "-" {
                i += 4
                return CSSToken(kind: .cdo)
            }
        case "@":
            if startsIdent(i + 1) {
                i += 1
                return CSSToken(kind: .atKeyword, value: consumeName())
            }
        case "\\":
            if isValidEscape(i) { return consumeIdentLike() }
        default:
            if Self.isDigit(c) { return consumeNumeric() }
            if Self.isNameStart(c) { return consumeIdentLike() }
        }
        i += 1
        return CSSToken(kind: .delim, value: String(c))
    }
}
