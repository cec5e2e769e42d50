internal import CPCRE2

/// Compile options for `PCRE2Regex` (a subset of PCRE2's, under Swift names).
public struct PCRE2Options: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// `PCRE2_CASELESS`: without UTF/UCP only ASCII letters fold.
    public static let caseless = PCRE2Options(rawValue: 1 << 0)
    /// `PCRE2_ANCHORED`: a match must start at the beginning of the subject.
    public static let anchored = PCRE2Options(rawValue: 1 << 1)
    /// `PCRE2_DOTALL`: `.` also matches newlines.
    public static let dotAll = PCRE2Options(rawValue: 1 << 2)
    /// JavaScript-flavoured escapes and back-references: `PCRE2_ALT_BSUX` + `PCRE2_EXTRA_ALT_BSUX`
    /// (`\uHHHH`, `\u{…}`, `\xHH`) and `PCRE2_MATCH_UNSET_BACKREF` (an unset group matches empty).
    public static let javaScriptCompatible = PCRE2Options(rawValue: 1 << 3)
    /// `PCRE2_MULTILINE`: `^`/`$` also at line breaks.
    public static let multiline = PCRE2Options(rawValue: 1 << 4)

    var compileOptions: UInt32 {
        var options: UInt32 = 0
        if contains(.caseless) { options |= PCRE2_CASELESS }
        if contains(.anchored) { options |= PCRE2_ANCHORED }
        if contains(.dotAll) { options |= PCRE2_DOTALL }
        if contains(.multiline) { options |= PCRE2_MULTILINE }
        if contains(.javaScriptCompatible) { options |= PCRE2_ALT_BSUX | PCRE2_MATCH_UNSET_BACKREF }
        return options
    }

    var extraOptions: UInt32 { contains(.javaScriptCompatible) ? PCRE2_EXTRA_ALT_BSUX : 0 }
}

/// A PCRE2 compile error (or an internal failure such as out of memory).
public struct PCRE2Error: Error, Sendable, Hashable, CustomStringConvertible {
    /// PCRE2's error code (negative for match-time errors, positive for compile errors).
    public var code: Int32
    /// Byte offset in the pattern where compilation failed (0 when not applicable).
    public var offset: Int
    /// PCRE2's message for `code` (`pcre2_get_error_message`).
    public var message: String

    /// Creates an error.
    public init(code: Int32, offset: Int, message: String) {
        self.code = code
        self.offset = offset
        self.message = message
    }

    /// Builds an error carrying PCRE2's own message for `code`.
    init(code: Int32, offset: Int) {
        var buffer = [UInt8](repeating: 0, count: 256)
        let length = buffer.withUnsafeMutableBufferPointer {
            pcre2_get_error_message_8(code, $0.baseAddress, 256)
        }
        let text =
            length > 0 ? String(decoding: buffer[0..<Int(length)], as: UTF8.self) : "PCRE2 error \(code)"
        self.init(code: code, offset: offset, message: text)
    }

    public var description: String { "PCRE2 error \(code) at offset \(offset): \(message)" }
}

/// The result of one match attempt, distinguishing a resource-limit failure from a clean "no match".
public enum PCRE2MatchOutcome: Sendable, Hashable {
    /// The pattern matched.
    case match
    /// The pattern does not match.
    case noMatch
    /// The match hit the match limit, depth limit, heap limit or JIT stack limit
    /// (`PCRE2Regex.matchLimit`, `PCRE2Regex.depthLimit`); the answer is unknown.
    case limitExceeded
    /// Any other PCRE2 match error (code attached).
    case error(Int32)
}
