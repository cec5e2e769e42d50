// WebURL: a URL parsed and serialized per the WHATWG URL Standard, as WebKit's URLParser does.

/// A URL parsed and serialized per the WHATWG URL Standard, as WebKit's `URLParser`
/// (`Source/WTF/wtf/URLParser.cpp`) does.
///
/// Content-blocker url-filters are matched against ``serialization`` (spec §3.6), so this type
/// reproduces the standard's canonicalization: scheme and host lower-cased, default ports dropped,
/// the empty path of special URLs becomes `/`, dot segments resolved, percent-encode sets applied,
/// IPv4 numbers (`0x7f.1` → `127.0.0.1`) and IPv6 compression, IDNA to punycode, backslashes
/// treated as slashes in special URLs, tabs and newlines removed, and leading/trailing C0 control
/// or space trimmed. Userinfo, query and fragment are kept.
///
/// Equality and hashing compare ``serialization`` only.
///
/// Parsing is O(n) in the UTF-8 length of the input. Known differences from the standard are listed
/// on ``init(_:)``.
public struct WebURL: Sendable, Hashable, CustomStringConvertible {
    /// The components, boxed so that a `WebURL` is four words and cheap to copy; nil when
    /// ``serialization`` takes the canonical fast path (``URLRecord/isCanonical(_:)``), whose record is
    /// rebuilt from it when needed: parsing a canonical URL, the common case for requests, then makes
    /// no component strings.
    private var parsed: ParsedRecord?
    /// The href; what url-filters are matched against.
    public internal(set) var serialization: String
    /// Where ``host`` is in the UTF-8 of a canonical ``serialization`` (`parsed` nil), as the fast
    /// path found it: its end shifted left 4 bits, or'd with its start (5–8); 0 when not known.
    private var canonicalHostBounds: UInt32 = 0

    /// An immutable box (setting ``record`` stores a new one).
    private final class ParsedRecord: Sendable {
        let record: URLRecord
        init(_ record: URLRecord) { self.record = record }
    }

    /// The URL record (rebuilt from ``serialization`` for a canonical URL; setting it stores it).
    var record: URLRecord {
        get { parsed?.record ?? URLRecord.parseCanonical(serialization) ?? URLRecord() }
        set { parsed = ParsedRecord(newValue) }
    }

    init(record: URLRecord) {
        self.init(record: record, serialization: record.serialize())
    }

    /// - Parameter record: nil for a `serialization` that passed ``URLRecord/isCanonical(_:)``.
    private init(record: URLRecord?, serialization: String) {
        parsed = record.map(ParsedRecord.init)
        self.serialization = serialization
    }

    /// Parses an absolute URL.
    ///
    /// - Parameter string: any text; it is parsed as UTF-8.
    /// - Returns: nil when the string is not a valid absolute URL (WebKit never matches such
    ///   requests against rules).
    ///
    /// Known differences from the URL Standard: internationalized labels are converted by libidn2
    /// (IDNA2008 + UTS #46 non-transitional) rather than a pure UTS #46 implementation, so a few
    /// exotic labels (e.g. some that libidn2 rejects for IDNA2008 contextual rules, or labels longer than 63
    /// bytes after conversion) may fail where the standard succeeds. A label starting with `xn--` must
    /// be valid Punycode that UTS #46 maps back to itself, as in WebKit (`https://xn--a.com/` is
    /// refused).
    public init?(_ string: String) {
        if let layout = URLRecord.canonicalLayout(string) {
            self.init(record: nil, serialization: string)
            if layout.hostEnd < 1 << 28 {
                canonicalHostBounds = UInt32(layout.hostEnd) << 4 | UInt32(layout.hostStart)
            }
            return
        }
        // The usual top URL of a frame without a document of its own: its parse, made once.
        if string.utf8.count == 11 && string == "about:blank", let aboutBlank = Self.aboutBlank {
            self = aboutBlank
            return
        }
        guard let parsed = Self(parsing: string) else { return nil }
        self = parsed
    }

    /// ``init(_:)`` by the full parser.
    private init?(parsing string: String) {
        var record = URLRecord()
        guard URLParser.parse(string, base: nil, url: &record, stateOverride: nil) == .done else { return nil }
        let serialization = record.serialize()
        // The same text: keep the input's storage.
        self.init(record: record, serialization: serialization == string ? string : serialization)
    }

    /// `about:blank` as the full parser gives it (the record is immutable and shared by the copies).
    private static let aboutBlank = WebURL(parsing: "about:blank")

    /// Parses `string` relative to `base` (the URL Standard's "URL parser" with a base URL).
    ///
    /// - Returns: nil when the result is not a valid URL.
    public init?(_ string: String, relativeTo base: WebURL) {
        var record = URLRecord()
        guard URLParser.parse(string, base: base.record, url: &record, stateOverride: nil) == .done else {
            return nil
        }
        self.init(record: record)
    }

    /// The href, as ``serialization``.
    public var description: String { serialization }

    /// The scheme, lower-case, without `:`.
    public var scheme: String {
        guard parsed == nil else { return record.scheme }
        var text = serialization
        return text.withUTF8 { bytes in
            var end = 0
            while bytes[end] != UInt8(ascii: ":") { end += 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[0..<end]), as: UTF8.self)
        }
    }
    /// Whether ``scheme`` is `name` (compare with a lower-case name), without making a string: the
    /// serialization starts with the scheme and `:`.
    @inlinable public func hasScheme(_ name: String) -> Bool {
        var text = serialization
        var name = name
        return text.withUTF8 { bytes in name.withUTF8 { Self.hasScheme($0, serialization: bytes) } }
    }

    /// ``hasScheme(_:)`` on the bytes of a serialization: whether they begin with `name` (lower-case
    /// bytes) and `:`. For callers that hold the bytes already (the fast matcher).
    @inlinable public static func hasScheme(
        _ name: UnsafeBufferPointer<UInt8>, serialization bytes: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        guard bytes.count > name.count else { return false }
        for index in 0..<name.count where bytes[index] != name[index] { return false }
        return bytes[name.count] == UInt8(ascii: ":")
    }
    /// The username, percent-encoded with the userinfo set; `""` when absent.
    public var username: String { record.username }
    /// The password, percent-encoded with the userinfo set; `""` when absent.
    public var password: String { record.password }
    /// The serialized host: `""` for the empty host (`file:///`), nil when the URL has no host
    /// (`about:blank`, `blob:…`); IPv6 addresses in brackets, IPv4 addresses dotted-decimal.
    public var host: String? {
        guard parsed == nil else { return record.host?.serialized }
        var text = serialization
        return text.withUTF8 {
            String(decoding: UnsafeBufferPointer(rebasing: $0[canonicalHost($0)]), as: UTF8.self)
        }
    }

    /// Calls `body` with the UTF-8 of ``host`` (nil when there is none), without making a string for
    /// a canonical URL.
    func withHostBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>?) -> Result) -> Result {
        if parsed == nil {
            // Native strings lend their bytes without a copy of the string (and its retain).
            if let result = serialization.utf8.withContiguousStorageIfAvailable({
                body(UnsafeBufferPointer(rebasing: $0[canonicalHost($0)]))
            }) {
                return result
            }
            var text = serialization
            return text.withUTF8 { body(UnsafeBufferPointer(rebasing: $0[canonicalHost($0)])) }
        }
        guard var host = record.host?.serialized else { return body(nil) }
        return host.withUTF8 { body($0) }
    }

    /// Where ``host`` is in the UTF-8 of ``serialization`` when the URL took the canonical fast path
    /// and its string has contiguous UTF-8 (else nil).
    var canonicalHostRange: Range<Int>? {
        guard parsed == nil else { return nil }
        return storedHostRange ?? serialization.utf8.withContiguousStorageIfAvailable { canonicalHost($0) }
    }

    /// ``canonicalHostBounds`` as a range (nil when not known).
    private var storedHostRange: Range<Int>? {
        canonicalHostBounds == 0 ? nil : Int(canonicalHostBounds & 0xF)..<Int(canonicalHostBounds >> 4)
    }

    /// Where the host of a canonical serialization (`bytes`) is: as the fast path found it (scanned
    /// again only for a serialization too long to keep that in 32 bits).
    private func canonicalHost(_ bytes: UnsafeBufferPointer<UInt8>) -> Range<Int> {
        if let stored = storedHostRange { return stored }
        let layout = URLRecord.canonicalLayout(bytes)!
        return layout.hostStart..<layout.hostEnd
    }

    /// The port; nil when absent or equal to the scheme's default port.
    public var port: UInt16? { record.port }
    /// The serialized path: `/a/b` for hierarchical paths, the opaque text for `about:blank` & co.
    public var path: String { record.serializedPath }
    /// The query without `?`; nil when there is none (`""` for a bare `?`).
    public var query: String? { record.query }
    /// The fragment without `#`; nil when there is none (`""` for a bare `#`).
    public var fragment: String? { record.fragment }
    /// True for the special schemes `http`, `https`, `ws`, `wss`, `ftp` and `file`.
    public var isSpecial: Bool { record.isSpecial }
    /// True when the path is opaque (`about:blank`, `blob:…`, `javascript:…`, `mailto:…`).
    public var hasOpaquePath: Bool { record.hasOpaquePath }
    /// True when the host is an IPv4 or IPv6 address.
    public var hostIsIPAddress: Bool {
        switch record.host {
        case .ipv4, .ipv6: return true
        default: return false
        }
    }

    public static func == (lhs: WebURL, rhs: WebURL) -> Bool { lhs.serialization == rhs.serialization }
    public func hash(into hasher: inout Hasher) { hasher.combine(serialization) }
}
