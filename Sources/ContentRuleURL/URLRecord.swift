// The component record of a URL (WHATWG URL Standard, "URL representation").

/// A host as the WHATWG host parser produces it.
enum URLHost: Sendable, Hashable {
    /// A domain, already ASCII (punycode) and lower-cased.
    case domain(String)
    /// An IPv4 address as a 32-bit number.
    case ipv4(UInt32)
    /// An IPv6 address as eight 16-bit pieces.
    case ipv6([UInt16])
    /// An opaque host of a non-special URL (percent-encoded).
    case opaque(String)
    /// The empty host (`file:///`, `sc://`).
    case empty

    /// The host serializer: IPv6 in brackets with the longest zero run compressed.
    var serialized: String {
        switch self {
        case .domain(let s), .opaque(let s): return s
        case .empty: return ""
        case .ipv4(let a):
            return "\(a >> 24).\((a >> 16) & 0xFF).\((a >> 8) & 0xFF).\(a & 0xFF)"
        case .ipv6(let pieces): return "[" + URLHost.serializeIPv6(pieces) + "]"
        }
    }

    var isEmpty: Bool {
        if case .empty = self { return true }
        return false
    }

    /// IPv6 serializer (URL Standard): compress the first longest run of two or more zero pieces.
    static func serializeIPv6(_ pieces: [UInt16]) -> String {
        var compressStart = -1
        var bestLength = 1
        var index = 0
        while index < 8 {
            if pieces[index] == 0 {
                var end = index
                while end < 8 && pieces[end] == 0 { end += 1 }
                if end - index > bestLength {
                    bestLength = end - index
                    compressStart = index
                }
                index = end
            } else {
                index += 1
            }
        }
        var output = ""
        var ignore0 = false
        for i in 0..<8 {
            if ignore0 && pieces[i] == 0 { continue }
            ignore0 = false
            if i == compressStart {
                output += i == 0 ? "::" : ":"
                ignore0 = true
                continue
            }
            output += String(pieces[i], radix: 16)
            if i != 7 { output += ":" }
        }
        return output
    }
}

/// A URL's path: opaque (`about:blank`) or a list of segments.
enum URLPath: Sendable, Hashable {
    case opaque(String)
    case segments([String])
}

/// The URL record of the URL Standard: every component kept apart, already encoded.
struct URLRecord: Sendable, Hashable {
    var scheme: String = ""
    var username: String = ""
    var password: String = ""
    var host: URLHost?
    var port: UInt16?
    var path: URLPath = .segments([])
    var query: String?
    var fragment: String?

    var isSpecial: Bool { URLRecord.defaultPort(forSpecialScheme: scheme) != nil }

    var hasOpaquePath: Bool {
        if case .opaque = path { return true }
        return false
    }

    /// "includes credentials": username or password non-empty.
    var includesCredentials: Bool { !username.isEmpty || !password.isEmpty }

    /// "cannot have a username/password/port": no host, the empty host, or scheme `file`.
    var cannotHaveCredentialsOrPort: Bool {
        guard let host else { return true }
        return host.isEmpty || scheme == "file"
    }

    /// The special schemes and their default ports; `file` maps to 0 (it has none); nil when not special.
    static func defaultPort(forSpecialScheme scheme: String) -> UInt16? {
        switch scheme {
        case "http", "ws": return 80
        case "https", "wss": return 443
        case "ftp": return 21
        case "file": return 0
        default: return nil
        }
    }

    /// The default port of the scheme (nil for `file` and non-special schemes).
    var defaultPort: UInt16? {
        guard let port = URLRecord.defaultPort(forSpecialScheme: scheme), port != 0 else { return nil }
        return port
    }

    /// The path serializer.
    var serializedPath: String {
        switch path {
        case .opaque(let s): return s
        case .segments(let segments):
            var output = ""
            for segment in segments {
                output += "/"
                output += segment
            }
            return output
        }
    }

    /// "shorten a URL's path".
    mutating func shortenPath() {
        guard case .segments(var segments) = path else { return }
        if scheme == "file" && segments.count == 1 && URLRecord.isNormalizedWindowsDriveLetter(segments[0]) {
            return
        }
        if !segments.isEmpty {
            segments.removeLast()
            path = .segments(segments)
        }
    }

    mutating func appendPathSegment(_ segment: String) {
        if case .segments(var segments) = path {
            path = .segments([])  // release the storage so the append does not copy
            segments.append(segment)
            path = .segments(segments)
        } else {
            path = .segments([segment])
        }
    }

    var pathSegments: [String] {
        if case .segments(let segments) = path { return segments }
        return []
    }

    static func isNormalizedWindowsDriveLetter(_ s: String) -> Bool {
        var iterator = s.utf8.makeIterator()
        guard let first = iterator.next(), let second = iterator.next(), iterator.next() == nil else {
            return false
        }
        return ASCII.isAlpha(first) && second == UInt8(ascii: ":")
    }

    /// The URL serializer (href).
    func serialize(excludingFragment: Bool = false) -> String {
        var output = scheme
        output += ":"
        if let host {
            output += "//"
            if includesCredentials {
                output += username
                if !password.isEmpty {
                    output += ":"
                    output += password
                }
                output += "@"
            }
            output += host.serialized
            if let port {
                output += ":"
                output += String(port)
            }
        } else if case .segments(let segments) = path, segments.count > 1, segments[0].isEmpty {
            output += "/."
        }
        output += serializedPath
        if let query {
            output += "?"
            output += query
        }
        if !excludingFragment, let fragment {
            output += "#"
            output += fragment
        }
        return output
    }
}

/// ASCII byte classification helpers.
enum ASCII {
    @inline(__always) static func isAlpha(_ c: UInt8) -> Bool { (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A }
    @inline(__always) static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
    @inline(__always) static func isAlphanumeric(_ c: UInt8) -> Bool { isAlpha(c) || isDigit(c) }
    @inline(__always) static func isHexDigit(_ c: UInt8) -> Bool {
        isDigit(c) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66)
    }
    @inline(__always) static func lower(_ c: UInt8) -> UInt8 { c >= 0x41 && c <= 0x5A ? c | 0x20 : c }
    @inline(__always) static func hexValue(_ c: UInt8) -> UInt8 {
        isDigit(c) ? c - 0x30 : (c | 0x20) - 0x61 + 10
    }
}
