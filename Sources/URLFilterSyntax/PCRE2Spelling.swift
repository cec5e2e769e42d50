// The shortest exact PCRE2 spelling of literal characters and character classes, for patterns
// compiled with no options (no extended mode, no `PCRE2_ALT_BSUX`, no UTF).

/// The translator's spelling of WebKit's `.` and of an unanchored search's skip group: written down
/// here once (the tests' independent reading of the PCRE2 text takes them from here too).
enum URLFilterPCRE2 {
    /// WebKit's `.` (code points 1–127) as the class ``PCRE2Spelling/appendClass(low:high:to:)``
    /// writes for it (`PCRE2SpellingTests` checks the two agree).
    static let universalClass = #"[\x{01}-\x{7f}]"#
    /// An unanchored search's skip over whole runs of code points 1–127 and one byte outside them
    /// (``Translator``).
    static let skipOutsideRuns = #"(?:[\x{01}-\x{7f}]*+[^\x{01}-\x{7f}])*?"#
}

/// Writes ASCII code points 1–127 as PCRE2 pattern text.
///
/// Outside a class: a PCRE2 metacharacter (`\ ^ $ . [ | ( ) ? * + {`) is written `\` + itself, other
/// printable ASCII (space through `~`) as itself, and a control character or DEL as `\x{hh}`.
/// Inside a class: `\ ] [ ^ -` are written `\` + itself (`[` too, so that no `[:`, `[.`, `[=` POSIX
/// syntax can form), other printable ASCII as itself, controls and DEL as `\x{hh}`. A backslash
/// followed by a non-alphanumeric character always matches that character literally in PCRE2.
enum PCRE2Spelling {
    /// Bit *n* set: code point *n* needs a backslash outside a class.
    private static let metaOutside: UInt128 = mask(#"\^$.[|()?*+{"#)
    /// Bit *n* set: code point *n* needs a backslash inside a class.
    private static let metaInside: UInt128 = mask(#"\]^-["#)

    private static func mask(_ characters: String) -> UInt128 {
        characters.utf8.reduce(UInt128(0)) { $0 | UInt128(1) << UInt128($1) }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    @inline(__always) private static func isPrintable(_ c: UInt8) -> Bool { c >= 0x20 && c < 0x7F }

    private static func appendHex(_ c: UInt8, to out: inout [UInt8]) {
        out.append(contentsOf: [0x5C, 0x78, 0x7B, hexDigits[Int(c >> 4)], hexDigits[Int(c & 0xF)], 0x7D])
    }

    /// Appends the literal `c` (1–127) as it must appear outside a class.
    static func appendLiteral(_ c: UInt8, to out: inout [UInt8]) {
        guard isPrintable(c) else { return appendHex(c, to: &out) }
        if (metaOutside >> UInt128(c)) & 1 == 1 { out.append(0x5C) }
        out.append(c)
    }

    /// Appends `c` (1–127) as it must appear inside a class.
    static func appendClassMember(_ c: UInt8, to out: inout [UInt8]) {
        guard isPrintable(c) else { return appendHex(c, to: &out) }
        if (metaInside >> UInt128(c)) & 1 == 1 { out.append(0x5C) }
        out.append(c)
    }

    /// Appends `[…]` listing the code points whose bits are set (bit 0 must be clear); runs of three or
    /// more consecutive code points become ranges. A `-` that is not inside such a run goes last,
    /// unescaped (`[+.A-Za-z-]`): just before `]` it is literal.
    static func appendClass(low: UInt64, high: UInt64, to out: inout [UInt8]) {
        out.append(0x5B)
        var bits = UInt128(high) << 64 | UInt128(low)
        let dash = UInt128(1) << 0x2D
        let neighbours = UInt128(1) << 0x2C | UInt128(1) << 0x2E
        // `-` alone or with one neighbour (`,-` / `-.`) is no 3-run member: `-` moves to the end.
        var trailingDash = false
        if bits & dash != 0 && bits & neighbours != neighbours {
            trailingDash = true
            bits &= ~dash
        }
        while bits != 0 {
            let first = bits.trailingZeroBitCount
            let runLength = (~(bits >> UInt128(first))).trailingZeroBitCount
            let last = first + runLength - 1
            if runLength >= 3 {
                appendClassMember(UInt8(first), to: &out)
                out.append(0x2D)
                appendClassMember(UInt8(last), to: &out)
            } else {
                for c in first...last { appendClassMember(UInt8(c), to: &out) }
            }
            // Clear bits first...last.
            let width = UInt128(last + 1)
            bits = last + 1 >= 128 ? 0 : (bits >> width) << width
        }
        if trailingDash { out.append(0x2D) }
        out.append(0x5D)
    }
}
