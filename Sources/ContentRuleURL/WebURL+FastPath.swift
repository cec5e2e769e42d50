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
            if scanCanonical(buffer, building: true, into: &record) { result = record }
        }
        return result
    }

    /// Whether ``parseCanonical(_:)`` answers for `string`, without building the record's strings.
    static func isCanonical(_ string: String) -> Bool {
        string.utf8.withContiguousStorageIfAvailable { bytes in
            // No record: nothing to make or destroy.
            var none: URLRecord?
            return scanCanonical(bytes, building: false, into: &none)
        } ?? false
    }

    /// The fast path's scan: whether `bytes` qualify; the components go to `record` when `build` (else
    /// only the checks are made, no string is built, and `record` may be nil: no record to make).
    private static func scanCanonical(
        _ bytes: UnsafeBufferPointer<UInt8>, building build: Bool, into record: inout URLRecord?
    ) -> Bool {
        CanonicalByteClass.table.withUnsafeBufferPointer { classes in
            scanCanonical(bytes, classes: CanonicalByteClass(classes), building: build, into: &record)
        }
    }

    private static func scanCanonical(
        _ bytes: UnsafeBufferPointer<UInt8>, classes: CanonicalByteClass, building build: Bool,
        into record: inout URLRecord?
    ) -> Bool {
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
        while true {
            i = classes.skip(CanonicalByteClass.hostLabel, bytes, from: i)
            guard i < count, bytes[i] == 0x2E else { break }
            i += 1
            if i < count && bytes[i] != 0x3A && bytes[i] != 0x2F && bytes[i] != 0x3F && bytes[i] != 0x23 {
                labelStart = i
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
            if build { record?.port = port }
        }
        // Path: must start with "/" (an empty path is serialized as "/"). One run of the bytes the
        // parser keeps and the `/` between segments, stopped at each `.` (a segment `.` or `..` is
        // refused) and `%` (a `%2e` is refused), ended by `?`, `#` or the end. Past
        // ``CanonicalByteClass/dotStops`` dots, the run takes the dots too and the dot segments are
        // looked for after it (``hasDotSegment(_:from:to:)``): a path repeating `.js` costs no stop
        // per dot.
        guard i < count, bytes[i] == 0x2F else { return false }
        let pathStart = i
        var run = CanonicalByteClass.pathRun
        var dots = 0
        // Where the dot segments are left to `hasDotSegment` (-1: none).
        var pairsFrom = -1
        while true {
            i = classes.skip(run, bytes, from: i)
            guard i < count else { break }
            if bytes[i] == 0x2E {
                // The segment's first byte (after the path's leading `/`, `i - 1` is in the path).
                if bytes[i - 1] == 0x2F && Self.isDotSegment(bytes, dot: i) { return false }
                dots += 1
                if dots == CanonicalByteClass.dotStops {
                    run = CanonicalByteClass.pathRunAndDots
                    pairsFrom = i + 1
                }
            } else {
                guard bytes[i] == 0x25 else { break }
                if i + 2 < count && bytes[i + 1] == 0x32 && (bytes[i + 2] | 0x20) == 0x65 { return false }
            }
            i += 1
        }
        if i < count && bytes[i] != 0x3F && bytes[i] != 0x23 { return false }
        if pairsFrom >= 0 && Self.hasDotSegment(bytes, from: pairsFrom, to: i) { return false }
        if build {
            var segments: [String] = []
            var segmentStart = pathStart + 1
            for index in segmentStart...i where index == i || bytes[index] == 0x2F {
                let segment = UnsafeBufferPointer(rebasing: bytes[segmentStart..<index])
                segments.append(String(decoding: segment, as: UTF8.self))
                segmentStart = index + 1
            }
            record?.path = .segments(segments)
        }
        // Query.
        if i < count && bytes[i] == 0x3F {
            i += 1
            let queryStart = i
            i = classes.skip(CanonicalByteClass.queryPlain, bytes, from: i)
            if i < count && bytes[i] != 0x23 { return false }
            if build {
                record?.query = String(decoding: UnsafeBufferPointer(rebasing: bytes[queryStart..<i]), as: UTF8.self)
            }
        }
        // Fragment.
        if i < count && bytes[i] == 0x23 {
            i += 1
            let fragmentStart = i
            i = classes.skip(CanonicalByteClass.fragmentPlain, bytes, from: i)
            guard i == count else { return false }
            if build {
                record?.fragment = String(
                    decoding: UnsafeBufferPointer(rebasing: bytes[fragmentStart..<count]), as: UTF8.self)
            }
        }
        return i == count
    }

    /// Whether a `/` at `from` or later and before `end - 1` is followed by a dot segment
    /// (``isDotSegment(_:dot:)``). Eight bytes at a time, the words overlapping by one byte so that
    /// each pair lies in one: the zero-byte test flags each `/` (and a `.` just after one) before each
    /// `.` (and a `/` just after one); it errs only next to a real pair, and each flag is checked.
    private static func hasDotSegment(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Bool {
        let raw = UnsafeRawBufferPointer(bytes)
        let ones: UInt64 = 0x0101_0101_0101_0101
        @inline(__always) func pairAt(_ slash: Int) -> Bool {
            bytes[slash] == 0x2F && bytes[slash + 1] == 0x2E && isDotSegment(bytes, dot: slash + 1)
        }
        var at = start
        while at + 8 <= end {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: at, as: UInt64.self))
            let slashes = word ^ (ones &* 0x2F)
            let dots = word ^ (ones &* 0x2E)
            var pairs = (slashes &- ones) & ~slashes & ((dots &- ones) & ~dots & (ones &* 0x80)) &>> 8
            while pairs != 0 {
                if pairAt(at + pairs.trailingZeroBitCount >> 3) { return true }
                pairs &= pairs &- 1
            }
            at += 7
        }
        while at + 1 < end {
            if pairAt(at) { return true }
            at += 1
        }
        return false
    }

    /// Whether the path segment that begins with the `.` at `dot` is `.` or `..`: the dot (twice)
    /// followed by the end, `/`, `?` or `#`.
    @inline(__always) private static func isDotSegment(_ bytes: UnsafeBufferPointer<UInt8>, dot: Int) -> Bool {
        @inline(__always) func endsSegment(_ at: Int) -> Bool {
            at == bytes.count || bytes[at] == 0x2F || bytes[at] == 0x3F || bytes[at] == 0x23
        }
        if endsSegment(dot + 1) { return true }
        return bytes[dot + 1] == 0x2E && endsSegment(dot + 2)
    }
}

/// What the fast path accepts of each byte, one bit per part of the URL: a scan of a part reads one
/// table entry per byte, four bytes per step.
struct CanonicalByteClass {
    /// `[a-z0-9-]`: a host label's bytes (the `.` between labels is handled by the scan).
    static let hostLabel: UInt8 = 1
    /// Path bytes the parser keeps as they are and the `/` between segments, other than the `?` and
    /// `#` that end the path, the `.` that may begin a dot segment and the `%` that may start a `%2e`.
    static let pathRun: UInt8 = 2
    /// ``pathRun`` and the `.`, once a path has had ``dotStops`` dots.
    static let pathRunAndDots: UInt8 = 16
    /// Dots a path's run stops at before it takes them in (``pathRunAndDots``).
    static let dotStops = 16
    /// Query bytes the parser keeps as they are, other than the `#` that ends the query.
    static let queryPlain: UInt8 = 4
    /// Fragment bytes the parser keeps as they are.
    static let fragmentPlain: UInt8 = 8

    /// 256 entries, indexed by byte.
    static let table: [UInt8] = (0...255).map { (c: Int) -> UInt8 in
        let byte = UInt8(c)
        func printable(except excluded: String) -> Bool {
            byte >= 0x21 && byte <= 0x7E && !excluded.utf8.contains(byte)
        }
        var bits: UInt8 = 0
        if (byte >= 0x61 && byte <= 0x7A) || byte == 0x2D || ASCII.isDigit(byte) { bits |= hostLabel }
        if printable(except: "\"<>\\^`{}?#%.") { bits |= pathRun }
        if printable(except: "\"<>\\^`{}?#%") { bits |= pathRunAndDots }
        if printable(except: "\"'<>#") { bits |= queryPlain }
        if printable(except: "\"<>`") { bits |= fragmentPlain }
        return bits
    }

    private let classes: UnsafeBufferPointer<UInt8>

    init(_ classes: UnsafeBufferPointer<UInt8>) { self.classes = classes }

    /// The index of the first byte at or after `start` whose class lacks `bits` (`bytes.count` if none).
    @inline(__always) func skip(_ bits: UInt8, _ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var i = start
        let count = bytes.count
        while i + 4 <= count {
            let all =
                classes[Int(bytes[i])] & classes[Int(bytes[i + 1])] & classes[Int(bytes[i + 2])]
                & classes[Int(bytes[i + 3])]
            guard all & bits != 0 else { break }
            i += 4
        }
        while i < count && classes[Int(bytes[i])] & bits != 0 { i += 1 }
        return i
    }
}
