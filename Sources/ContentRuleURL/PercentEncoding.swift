// Percent-encode sets and percent-decoding (WHATWG URL Standard, "Percent-encoded bytes").

/// The percent-encode sets of the URL Standard, as byte predicates. Bytes ≥ 0x80 (UTF-8 of
/// non-ASCII code points) are in every set, so encoding byte by byte equals UTF-8 percent-encoding.
enum PercentEncodeSet {
    case c0Control, fragment, query, specialQuery, path, userinfo

    @inline(__always) func contains(_ c: UInt8) -> Bool {
        if c < 0x20 || c > 0x7E { return true }
        switch self {
        case .c0Control: return false
        case .fragment:
            return c == 0x20 || c == 0x22 || c == 0x3C || c == 0x3E || c == 0x60
        case .query:
            return c == 0x20 || c == 0x22 || c == 0x23 || c == 0x3C || c == 0x3E
        case .specialQuery:
            return c == 0x20 || c == 0x22 || c == 0x23 || c == 0x3C || c == 0x3E || c == 0x27
        case .path:
            return PercentEncodeSet.query.contains(c) || c == 0x3F || c == 0x5E || c == 0x60 || c == 0x7B
                || c == 0x7D
        case .userinfo:
            return PercentEncodeSet.path.contains(c) || c == 0x2F || c == 0x3A || c == 0x3B || c == 0x3D
                || c == 0x40 || (c >= 0x5B && c <= 0x5E) || c == 0x7C
        }
    }
}

enum PercentEncoding {
    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// Appends `c` to `output`, percent-encoded when it is in `set`.
    @inline(__always) static func append(_ c: UInt8, to output: inout [UInt8], set: PercentEncodeSet) {
        if set.contains(c) {
            output.append(UInt8(ascii: "%"))
            output.append(hexDigits[Int(c >> 4)])
            output.append(hexDigits[Int(c & 0xF)])
        } else {
            output.append(c)
        }
    }

    /// Percent-encodes every byte of `bytes` that is in `set`.
    static func encode<S: Sequence<UInt8>>(_ bytes: S, set: PercentEncodeSet) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.underestimatedCount)
        for c in bytes { append(c, to: &output, set: set) }
        return String(decoding: output, as: UTF8.self)
    }

    /// Percent-decodes `bytes` (`%XY` with two hex digits becomes one byte; anything else stays).
    static func decode<C: Collection<UInt8>>(_ bytes: C) -> [UInt8] where C.Index == Int {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let c = bytes[i]
            if c == UInt8(ascii: "%") && i + 2 < bytes.endIndex && ASCII.isHexDigit(bytes[i + 1])
                && ASCII.isHexDigit(bytes[i + 2])
            {
                output.append(ASCII.hexValue(bytes[i + 1]) << 4 | ASCII.hexValue(bytes[i + 2]))
                i += 3
            } else {
                output.append(c)
                i += 1
            }
        }
        return output
    }
}
