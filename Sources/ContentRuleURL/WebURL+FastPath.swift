// A fast path for URLs that are already in WHATWG canonical form (the common case for requests).

extension URLRecord {
    /// Builds the record of `string` without running the state machine when `string` is an
    /// `http`/`https`/`ws`/`wss` URL that the basic URL parser would return unchanged: lower-case
    /// scheme, `//`, a lower-case ASCII domain whose last label does not start with a digit, an
    /// optional canonical non-default port, then a path, query and fragment that contain only bytes
    /// the parser keeps as they are, no dot segments and no `%2e`. Returns nil for anything else (the
    /// caller then runs the full parser). O(n), one pass.
    static func parseCanonical(_ string: String) -> URLRecord? {
        var result: URLRecord?
        string.utf8.withContiguousStorageIfAvailable { buffer in
            var record: URLRecord? = URLRecord()
            if scanCanonical(buffer, into: &record) { result = record }
        }
        return result
    }

    /// Whether ``parseCanonical(_:)`` answers for `string`, without building the record's strings.
    static func isCanonical(_ string: String) -> Bool {
        string.utf8.withContiguousStorageIfAvailable { bytes in
            var none: URLRecord? = nil
            return scanCanonical(bytes, into: &none)
        } ?? false
    }

    /// The fast path's scan: whether `bytes` qualify; the components go to `record` unless it is nil
    /// (then only the checks are made, no string is built).
    private static func scanCanonical(_ bytes: UnsafeBufferPointer<UInt8>, into record: inout URLRecord?) -> Bool {
        let build = record != nil
        let count = bytes.count
        var i = 0
        // Scheme.
        while i < count && bytes[i] >= 0x61 && bytes[i] <= 0x7A { i += 1 }
        let scheme: String
        switch i {
        case 2 where bytes[0] == 0x77 && bytes[1] == 0x73: scheme = "ws"
        case 3 where bytes[0] == 0x77 && bytes[1] == 0x73 && bytes[2] == 0x73: scheme = "wss"
        case 4 where bytes[0] == 0x68 && bytes[1] == 0x74 && bytes[2] == 0x74 && bytes[3] == 0x70: scheme = "http"
        case 5 where bytes[0] == 0x68 && bytes[1] == 0x74 && bytes[2] == 0x74 && bytes[3] == 0x70 && bytes[4] == 0x73:
            scheme = "https"
        default: return false
        }
        guard i + 3 <= count, bytes[i] == 0x3A, bytes[i + 1] == 0x2F, bytes[i + 2] == 0x2F else { return false }
        i += 3
        // Host: [a-z0-9.-]+, the last label must not start with a digit (IPv4 candidates go the slow way).
        let hostStart = i
        var labelStart = i
        while i < count {
            let c = bytes[i]
            if (c >= 0x61 && c <= 0x7A) || c == 0x2D || ASCII.isDigit(c) {
                i += 1
            } else if c == 0x2E {
                i += 1
                if i < count && bytes[i] != 0x3A && bytes[i] != 0x2F && bytes[i] != 0x3F && bytes[i] != 0x23 {
                    labelStart = i
                }
            } else {
                break
            }
        }
        guard i > hostStart, labelStart < i, !ASCII.isDigit(bytes[labelStart]) else { return false }
        if build {
            record?.scheme = scheme
            record?.host = .domain(String(decoding: UnsafeBufferPointer(rebasing: bytes[hostStart..<i]), as: UTF8.self))
        }
        // Port.
        if i < count && bytes[i] == 0x3A {
            i += 1
            let portStart = i
            var value = 0
            while i < count && ASCII.isDigit(bytes[i]) && i - portStart < 5 {
                value = value * 10 + Int(bytes[i] - 0x30)
                i += 1
            }
            guard i > portStart, bytes[portStart] != 0x30, value <= 65535 else { return false }
            let port = UInt16(value)
            guard port != URLRecord.defaultPort(forSpecialScheme: scheme) else { return false }
            record?.port = port
        }
        // Path: must start with "/" (an empty path is serialized as "/").
        guard i < count, bytes[i] == 0x2F else { return false }
        let pathPlain = ASCIISet.pathPlain
        let queryPlain = ASCIISet.queryPlain
        var segments: [String] = []
        while i < count && bytes[i] == 0x2F {
            i += 1
            let segmentStart = i
            while i < count {
                let c = bytes[i]
                if pathPlain.contains(c) {
                    i += 1
                    continue
                }
                if c == 0x2F || c == 0x3F || c == 0x23 { break }
                guard c == 0x25 else { return false }
                if i + 2 < count && bytes[i + 1] == 0x32 && (bytes[i + 2] | 0x20) == 0x65 { return false }
                i += 1
            }
            let length = i - segmentStart
            if length == 1 && bytes[segmentStart] == 0x2E { return false }
            if length == 2 && bytes[segmentStart] == 0x2E && bytes[segmentStart + 1] == 0x2E { return false }
            if build {
                segments.append(
                    String(decoding: UnsafeBufferPointer(rebasing: bytes[segmentStart..<i]), as: UTF8.self))
            }
        }
        if build { record?.path = .segments(segments) }
        // Query.
        if i < count && bytes[i] == 0x3F {
            i += 1
            let queryStart = i
            while i < count && queryPlain.contains(bytes[i]) { i += 1 }
            if i < count && bytes[i] != 0x23 { return false }
            if build {
                record?.query = String(decoding: UnsafeBufferPointer(rebasing: bytes[queryStart..<i]), as: UTF8.self)
            }
        }
        // Fragment.
        if i < count && bytes[i] == 0x23 {
            i += 1
            let fragmentStart = i
            while i < count {
                let c = bytes[i]
                if c <= 0x20 || c >= 0x7F || c == 0x22 || c == 0x3C || c == 0x3E || c == 0x60 { return false }
                i += 1
            }
            if build {
                record?.fragment = String(
                    decoding: UnsafeBufferPointer(rebasing: bytes[fragmentStart..<count]), as: UTF8.self)
            }
        }
        return i == count
    }
}

/// A set of ASCII bytes as a 128-bit mask: a membership test is a shift and a mask.
struct ASCIISet {
    private var low: UInt64 = 0
    private var high: UInt64 = 0

    /// The printable bytes 0x21–0x7E except those of `excluded`.
    init(printableExcept excluded: String) {
        for c in UInt8(0x21)...UInt8(0x7E) where !excluded.utf8.contains(c) {
            if c < 64 { low |= 1 << UInt64(c) } else { high |= 1 << UInt64(c - 64) }
        }
    }

    @inline(__always) func contains(_ c: UInt8) -> Bool {
        c < 64 ? (low >> UInt64(c)) & 1 != 0 : c < 128 && (high >> UInt64(c & 63)) & 1 != 0
    }

    /// Path bytes the parser keeps as they are, other than the `/`, `?`, `#` that end a segment and
    /// the `%` that may start a `%2e`.
    static let pathPlain = ASCIISet(printableExcept: "\"<>\\^`{}/?#%")
    /// Query bytes the parser keeps as they are, other than the `#` that ends the query.
    static let queryPlain = ASCIISet(printableExcept: "\"'<>#")
}
