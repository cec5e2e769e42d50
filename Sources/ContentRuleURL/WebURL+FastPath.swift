// A fast path for URLs that are already in WHATWG canonical form (the common case for requests).

/// Where the components of a URL that passed the fast path lie in its bytes (offsets; the scheme
/// starts at 0, the query and fragment run to the next part or the end).
struct CanonicalLayout {
    /// The scheme's end (its `:`); the host begins 3 bytes later, after `://`.
    var schemeEnd: Int
    /// The host's end: the port's `:` or the path's `/`.
    var hostEnd: Int
    /// A non-default port, or nil.
    var port: UInt16?
    /// The path's first `/`.
    var pathStart: Int
    /// The path's end: the query's `?`, the fragment's `#`, or the end.
    var pathEnd: Int
    /// The query's end (its `?` is at `pathEnd` when `queryEnd > pathEnd`): the fragment's `#` or the end.
    var queryEnd: Int

    var hostStart: Int { schemeEnd + 3 }
}

extension URLRecord {
    /// Builds the record of `string` without running the state machine when `string` is an
    /// `http`/`https`/`ws`/`wss` URL that the basic URL parser would return unchanged: lower-case
    /// scheme, `//`, a lower-case ASCII domain whose last label does not start with a digit, an
    /// optional canonical non-default port, then a path, query and fragment that contain only bytes
    /// the parser keeps as they are, no dot segments and no `%2e`. Returns nil for anything else (the
    /// caller then runs the full parser). O(n), one pass.
    static func parseCanonical(_ string: String) -> URLRecord? {
        let record = string.utf8.withContiguousStorageIfAvailable { bytes -> URLRecord? in
            guard let layout = canonicalLayout(bytes) else { return nil }
            return URLRecord(canonical: bytes, layout)
        }
        return record ?? nil
    }

    /// Whether ``parseCanonical(_:)`` answers for `string`, without building the record's strings.
    static func isCanonical(_ string: String) -> Bool { canonicalLayout(string) != nil }

    /// Where the components of `string` are when ``parseCanonical(_:)`` answers for it (else nil).
    static func canonicalLayout(_ string: String) -> CanonicalLayout? {
        string.utf8.withContiguousStorageIfAvailable { canonicalLayout($0) } ?? nil
    }

    /// The record of `bytes`, laid out as `layout` says.
    private init(canonical bytes: UnsafeBufferPointer<UInt8>, _ layout: CanonicalLayout) {
        func text(_ range: Range<Int>) -> String {
            String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        }
        self.init()
        scheme = text(0..<layout.schemeEnd)
        host = .domain(text(layout.hostStart..<layout.hostEnd))
        port = layout.port
        var segments: [String] = []
        var segmentStart = layout.pathStart + 1
        for index in segmentStart...layout.pathEnd where index == layout.pathEnd || bytes[index] == 0x2F {
            segments.append(text(segmentStart..<index))
            segmentStart = index + 1
        }
        path = .segments(segments)
        if layout.queryEnd > layout.pathEnd { query = text(layout.pathEnd + 1..<layout.queryEnd) }
        if layout.queryEnd < bytes.count { fragment = text(layout.queryEnd + 1..<bytes.count) }
    }

    /// The fast path's scan: where the components of `bytes` are, or nil when the fast path does not
    /// answer for them.
    static func canonicalLayout(_ bytes: UnsafeBufferPointer<UInt8>) -> CanonicalLayout? {
        CanonicalByteClass.table.withUnsafeBufferPointer { classes in
            canonicalLayout(bytes, classes: CanonicalByteClass(classes))
        }
    }

    private static func canonicalLayout(
        _ bytes: UnsafeBufferPointer<UInt8>, classes: CanonicalByteClass
    ) -> CanonicalLayout? {
        let count = bytes.count
        // Scheme: http, https, ws or wss, then "://" and at least one more byte.
        guard count >= 6 else { return nil }
        let schemeEnd: Int
        let defaultPort: UInt16
        if bytes[0] == 0x68 && bytes[1] == 0x74 && bytes[2] == 0x74 && bytes[3] == 0x70 {
            schemeEnd = bytes[4] == 0x73 ? 5 : 4
            defaultPort = schemeEnd == 5 ? 443 : 80
        } else if bytes[0] == 0x77 && bytes[1] == 0x73 {
            schemeEnd = bytes[2] == 0x73 ? 3 : 2
            defaultPort = schemeEnd == 3 ? 443 : 80
        } else {
            return nil
        }
        guard schemeEnd &+ 3 < count, bytes[schemeEnd] == 0x3A, bytes[schemeEnd &+ 1] == 0x2F,
            bytes[schemeEnd &+ 2] == 0x2F
        else { return nil }
        // Host: [a-z0-9.-]+, ended by the port's `:` or the path's `/`. Its last label (before a
        // trailing dot, if any) must not start with a digit: IPv4 candidates go the slow way, and so
        // do hosts with a label `xn--…` (an A-label, which the slow path validates): the scan stops at
        // each `-` and looks for `xn--` there.
        let hostStart = schemeEnd &+ 3
        var hostEnd = hostStart
        while true {
            hostEnd = classes.skip(CanonicalByteClass.hostWithoutDash, bytes, from: hostEnd)
            guard hostEnd &+ 1 < count, bytes[hostEnd] == 0x2D else { break }
            let label = hostEnd &- 2
            if bytes[hostEnd &+ 1] == 0x2D && label >= hostStart && (label == hostStart || bytes[label &- 1] == 0x2E)
                && bytes[label] == 0x78 && bytes[label &+ 1] == 0x6E
            {
                return nil
            }
            hostEnd &+= 1
        }
        guard hostEnd > hostStart, hostEnd < count else { return nil }
        var dot = hostEnd &- 2
        while dot >= hostStart && bytes[dot] != 0x2E { dot &-= 1 }
        guard !ASCII.isDigit(bytes[dot &+ 1]) else { return nil }
        var i = hostEnd
        // Port: 1–5 digits, no leading zero, at most 65535 and not the scheme's default.
        var port: UInt16?
        if bytes[i] == 0x3A {
            i &+= 1
            let portStart = i
            var value = 0
            while i < count && ASCII.isDigit(bytes[i]) && i &- portStart < 5 {
                value = value &* 10 &+ Int(bytes[i] &- 0x30)
                i &+= 1
            }
            guard i > portStart, bytes[portStart] != 0x30, value <= 65535, value != Int(defaultPort) else {
                return nil
            }
            port = UInt16(value)
        }
        // Path: must start with "/" (an empty path is serialized as "/").
        guard i < count, bytes[i] == 0x2F else { return nil }
        let pathStart = i
        i = scanPath(bytes, from: pathStart, classes: classes)
        guard i >= 0 else { return nil }
        let pathEnd = i
        // Query.
        if i < count && bytes[i] == 0x3F {
            i = classes.skipQuery(bytes, from: i &+ 1)
        }
        let queryEnd = i
        // Fragment.
        if i < count {
            guard bytes[i] == 0x23 else { return nil }
            i = classes.skip(CanonicalByteClass.fragmentPlain, bytes, from: i &+ 1)
            guard i == count else { return nil }
        }
        return CanonicalLayout(
            schemeEnd: schemeEnd, hostEnd: hostEnd, port: port, pathStart: pathStart, pathEnd: pathEnd,
            queryEnd: queryEnd)
    }

    /// The end of the path that begins with the `/` at `start` (the `?`, the `#` or the end), or -1
    /// when the fast path does not answer: a byte the parser changes, a dot segment or a `%2e`.
    ///
    /// One run of the bytes the parser keeps and the `/` between segments, stopped at each `.` (a
    /// segment `.` or `..` is refused) and `%` (a `%2e` is refused). Past ``CanonicalByteClass/dotStops``
    /// dots, the run takes the dots too and the dot segments are looked for after it
    /// (``hasDotSegment(_:from:to:)``): a path repeating `.js` costs no stop per dot.
    private static func scanPath(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, classes: CanonicalByteClass
    ) -> Int {
        let count = bytes.count
        var i = start
        var run = CanonicalByteClass.pathRun
        var dots = 0
        // Where the dot segments are left to `hasDotSegment` (-1: none).
        var pairsFrom = -1
        while true {
            i = classes.skip(run, bytes, from: i)
            guard i < count else { break }
            let byte = bytes[i]
            if byte == 0x2E {
                // The segment's first byte (after the path's leading `/`, `i - 1` is in the path).
                if bytes[i &- 1] == 0x2F && Self.isDotSegment(bytes, dot: i) { return -1 }
                dots &+= 1
                if dots == CanonicalByteClass.dotStops {
                    run = CanonicalByteClass.pathRunAndDots
                    pairsFrom = i &+ 1
                }
            } else if byte == 0x25 {
                if i &+ 2 < count && bytes[i &+ 1] == 0x32 && (bytes[i &+ 2] | 0x20) == 0x65 { return -1 }
            } else if byte == 0x3F || byte == 0x23 {
                break
            } else {
                return -1
            }
            i &+= 1
        }
        if pairsFrom >= 0 && Self.hasDotSegment(bytes, from: pairsFrom, to: i) { return -1 }
        return i
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
/// table entry per byte, eight bytes per step.
struct CanonicalByteClass {
    /// `[a-z0-9.]`: a host's bytes (its labels and the dots between them) but `-`, where the scan
    /// stops to look for an A-label.
    static let hostWithoutDash: UInt8 = 1
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
        if (byte >= 0x61 && byte <= 0x7A) || byte == 0x2E || ASCII.isDigit(byte) { bits |= hostWithoutDash }
        if printable(except: "\"<>\\^`{}?#%.") { bits |= pathRun }
        if printable(except: "\"<>\\^`{}?#%") { bits |= pathRunAndDots }
        if printable(except: "\"'<>#") { bits |= queryPlain }
        if printable(except: "\"<>`") { bits |= fragmentPlain }
        return bits
    }

    private let classes: UnsafeBufferPointer<UInt8>

    init(_ classes: UnsafeBufferPointer<UInt8>) { self.classes = classes }

    /// The index of the first byte at or after `start` whose class lacks `bits` (`bytes.count` if none).
    /// Eight bytes per step while they all qualify, then byte by byte; `start` is at most `bytes.count`.
    @inline(__always) func skip(_ bits: UInt8, _ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress, let table = classes.baseAddress else { return start }
        var i = start
        let count = bytes.count
        @inline(__always) func of(_ at: Int) -> UInt8 { table[Int(base[at])] }
        while i &+ 8 <= count {
            let all =
                of(i) & of(i &+ 1) & of(i &+ 2) & of(i &+ 3) & of(i &+ 4) & of(i &+ 5) & of(i &+ 6) & of(i &+ 7)
            guard all & bits != 0 else { break }
            i &+= 8
        }
        while i < count && of(i) & bits != 0 { i &+= 1 }
        return i
    }

    /// ``skip(_:_:from:)`` for ``queryPlain``: 32 bytes per step (two 16-byte vectors) while they all
    /// qualify, then ``skip(_:_:from:)`` finds the byte that ends the run. The query is most of a long
    /// URL.
    func skipQuery(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress else { return start }
        let raw = UnsafeRawPointer(base)
        var i = start
        while i &+ 32 <= bytes.count {
            let first = Self.queryStops(raw.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self))
            let second = Self.queryStops(raw.loadUnaligned(fromByteOffset: i &+ 16, as: SIMD16<UInt8>.self))
            let words = unsafeBitCast(first | second, to: SIMD2<UInt64>.self)
            if words[0] | words[1] != 0 { break }
            i &+= 32
        }
        return skip(Self.queryPlain, bytes, from: i)
    }

    /// The bytes of `vector` that are not ``queryPlain``, as their high bit (the others are 0): those
    /// outside `0x21...0x7E` (`0x80...` has it already; below `0x21`, `byte + 0x5F` lacks it) and `"`,
    /// `#`, `'`, `<`, `>`. Only `==` compares (which compile to vector compares; `<` does not).
    @inline(__always) static func queryStops(_ vector: SIMD16<UInt8>) -> SIMD16<UInt8> {
        var excluded = SIMDMask<SIMD16<Int8>>(repeating: false)
        excluded .|= vector .== SIMD16(repeating: 0x22)
        excluded .|= vector .== SIMD16(repeating: 0x23)
        excluded .|= vector .== SIMD16(repeating: 0x27)
        excluded .|= vector .== SIMD16(repeating: 0x3C)
        excluded .|= vector .== SIMD16(repeating: 0x3E)
        excluded .|= vector .== SIMD16(repeating: 0x7F)
        let flags = SIMD16<UInt8>(repeating: 0).replacing(with: 0x80, where: excluded)
        return (vector | ~(vector &+ SIMD16(repeating: 0x5F)) | flags) & SIMD16(repeating: 0x80)
    }
}
