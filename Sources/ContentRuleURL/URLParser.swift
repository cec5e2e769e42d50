// The basic URL parser of the WHATWG URL Standard, over UTF-8 bytes.

/// Parser states (URL Standard, "basic URL parser").
enum URLParserState {
    case schemeStart, scheme, noScheme, specialRelativeOrAuthority, pathOrAuthority, relative
    case relativeSlash, specialAuthoritySlashes, specialAuthorityIgnoreSlashes, authority
    case host, hostname, port, file, fileSlash, fileHost, pathStart, path, opaquePath, query, fragment
}

/// The outcome of a parse with a state override.
enum URLParseOutcome {
    /// The parser ran to completion (or returned at an override's natural end).
    case done
    /// The parser returned early without changing the record (the setter is refused).
    case refused
    /// The parser returned failure.
    case failure
}

struct URLParser {
    private let input: [UInt8]
    private let base: URLRecord?
    private let stateOverride: URLParserState?
    private var pointer = 0
    private var buffer: [UInt8] = []
    private var atSignSeen = false
    private var insideBrackets = false
    private var passwordTokenSeen = false

    private static let endOfInput = -1

    /// Runs the basic URL parser. Without `stateOverride` this starts with a fresh record; with one it
    /// modifies `url` in place (the caller must discard it on `.failure`).
    static func parse(
        _ string: some StringProtocol, base: URLRecord?, url: inout URLRecord, stateOverride: URLParserState?
    ) -> URLParseOutcome {
        let utf8 = string.utf8
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        if stateOverride == nil {
            // Leading and trailing C0 control or space are removed; ASCII tab or newline anywhere.
            var start = utf8.startIndex
            while start < utf8.endIndex && utf8[start] <= 0x20 { start = utf8.index(after: start) }
            for c in utf8[start...] where c != 0x09 && c != 0x0A && c != 0x0D { bytes.append(c) }
            while let last = bytes.last, last <= 0x20 { bytes.removeLast() }
        } else {
            for c in utf8 where c != 0x09 && c != 0x0A && c != 0x0D { bytes.append(c) }
        }
        var parser = URLParser(input: bytes, base: base, stateOverride: stateOverride)
        return parser.run(&url)
    }

    private init(input: [UInt8], base: URLRecord?, stateOverride: URLParserState?) {
        self.input = input
        self.base = base
        self.stateOverride = stateOverride
    }

    @inline(__always) private func byte(at index: Int) -> Int {
        index >= 0 && index < input.count ? Int(input[index]) : URLParser.endOfInput
    }

    /// "remaining starts with `c`".
    @inline(__always) private func remainingStarts(with c: UInt8) -> Bool {
        byte(at: pointer + 1) == Int(c)
    }

    /// "starts with a Windows drive letter" for the code points from `index` on.
    private func startsWithWindowsDriveLetter(at index: Int) -> Bool {
        guard index + 1 < input.count, ASCII.isAlpha(input[index]),
            input[index + 1] == UInt8(ascii: ":") || input[index + 1] == UInt8(ascii: "|")
        else { return false }
        if index + 2 == input.count { return true }
        switch input[index + 2] {
        case UInt8(ascii: "/"), UInt8(ascii: "\\"), UInt8(ascii: "?"), UInt8(ascii: "#"): return true
        default: return false
        }
    }

    private static func isWindowsDriveLetter(_ b: [UInt8]) -> Bool {
        b.count == 2 && ASCII.isAlpha(b[0]) && (b[1] == UInt8(ascii: ":") || b[1] == UInt8(ascii: "|"))
    }

    private static func isSingleDot(_ b: [UInt8]) -> Bool {
        b == [0x2E] || (b.count == 3 && b[0] == 0x25 && b[1] == 0x32 && (b[2] | 0x20) == 0x65)
    }

    private static func isDoubleDot(_ b: [UInt8]) -> Bool {
        switch b.count {
        case 2: return b[0] == 0x2E && b[1] == 0x2E
        case 4:
            return (b[0] == 0x2E && isSingleDot(Array(b[1...]))) || (isSingleDot(Array(b[0..<3])) && b[3] == 0x2E)
        case 6: return isSingleDot(Array(b[0..<3])) && isSingleDot(Array(b[3...]))
        default: return false
        }
    }

    private mutating func run(_ url: inout URLRecord) -> URLParseOutcome {
        var state = stateOverride ?? .schemeStart
        let slash = Int(UInt8(ascii: "/"))
        let backslash = Int(UInt8(ascii: "\\"))
        let question = Int(UInt8(ascii: "?"))
        let hash = Int(UInt8(ascii: "#"))
        let eof = URLParser.endOfInput
        while true {
            let c = byte(at: pointer)
            switch state {
            case .schemeStart:
                if c != eof && ASCII.isAlpha(UInt8(c)) {
                    buffer.append(ASCII.lower(UInt8(c)))
                    state = .scheme
                } else if stateOverride == nil {
                    state = .noScheme
                    pointer -= 1
                } else {
                    return .failure
                }
            case .scheme:
                if c != eof
                    && (ASCII.isAlphanumeric(UInt8(c)) || c == 0x2B || c == 0x2D || c == 0x2E)
                {
                    buffer.append(ASCII.lower(UInt8(c)))
                } else if c == 0x3A {
                    let newScheme = String(decoding: buffer, as: UTF8.self)
                    if stateOverride != nil {
                        let newIsSpecial = URLRecord.defaultPort(forSpecialScheme: newScheme) != nil
                        if url.isSpecial != newIsSpecial { return .refused }
                        if (url.includesCredentials || url.port != nil) && newScheme == "file" { return .refused }
                        if url.scheme == "file" && url.host?.isEmpty == true { return .refused }
                    }
                    url.scheme = newScheme
                    if stateOverride != nil {
                        if url.port != nil && url.port == url.defaultPort { url.port = nil }
                        return .done
                    }
                    buffer.removeAll()
                    if newScheme == "file" {
                        state = .file
                    } else if url.isSpecial, let base, base.scheme == newScheme {
                        state = .specialRelativeOrAuthority
                    } else if url.isSpecial {
                        state = .specialAuthoritySlashes
                    } else if remainingStarts(with: 0x2F) {
                        state = .pathOrAuthority
                        pointer += 1
                    } else {
                        url.path = .opaque("")
                        state = .opaquePath
                    }
                } else if stateOverride == nil {
                    buffer.removeAll()
                    state = .noScheme
                    pointer = -1
                } else {
                    return .failure
                }
            case .noScheme:
                guard let base, !(base.hasOpaquePath && c != hash) else { return .failure }
                if base.hasOpaquePath && c == hash {
                    url.scheme = base.scheme
                    url.path = base.path
                    url.query = base.query
                    url.fragment = ""
                    state = .fragment
                } else if base.scheme != "file" {
                    state = .relative
                    pointer -= 1
                } else {
                    state = .file
                    pointer -= 1
                }
            case .specialRelativeOrAuthority:
                if c == slash && remainingStarts(with: 0x2F) {
                    state = .specialAuthorityIgnoreSlashes
                    pointer += 1
                } else {
                    state = .relative
                    pointer -= 1
                }
            case .pathOrAuthority:
                if c == slash {
                    state = .authority
                } else {
                    state = .path
                    pointer -= 1
                }
            case .relative:
                guard let base else { return .failure }
                url.scheme = base.scheme
                if c == slash || (url.isSpecial && c == backslash) {
                    state = .relativeSlash
                } else {
                    url.username = base.username
                    url.password = base.password
                    url.host = base.host
                    url.port = base.port
                    url.path = base.path
                    url.query = base.query
                    if c == question {
                        url.query = ""
                        state = .query
                    } else if c == hash {
                        url.fragment = ""
                        state = .fragment
                    } else if c != eof {
                        url.query = nil
                        url.shortenPath()
                        state = .path
                        pointer -= 1
                    }
                }
            case .relativeSlash:
                if url.isSpecial && (c == slash || c == backslash) {
                    state = .specialAuthorityIgnoreSlashes
                } else if c == slash {
                    state = .authority
                } else {
                    if let base {
                        url.username = base.username
                        url.password = base.password
                        url.host = base.host
                        url.port = base.port
                    }
                    state = .path
                    pointer -= 1
                }
            case .specialAuthoritySlashes:
                if c == slash && remainingStarts(with: 0x2F) {
                    pointer += 1
                } else {
                    pointer -= 1
                }
                state = .specialAuthorityIgnoreSlashes
            case .specialAuthorityIgnoreSlashes:
                if c != slash && c != backslash {
                    state = .authority
                    pointer -= 1
                }
            case .authority:
                if c == 0x40 {
                    if atSignSeen { buffer.insert(contentsOf: [0x25, 0x34, 0x30], at: 0) }
                    atSignSeen = true
                    var username: [UInt8] = Array(url.username.utf8)
                    var password: [UInt8] = Array(url.password.utf8)
                    for b in buffer {
                        if b == 0x3A && !passwordTokenSeen {
                            passwordTokenSeen = true
                            continue
                        }
                        if passwordTokenSeen {
                            PercentEncoding.append(b, to: &password, set: .userinfo)
                        } else {
                            PercentEncoding.append(b, to: &username, set: .userinfo)
                        }
                    }
                    url.username = String(decoding: username, as: UTF8.self)
                    url.password = String(decoding: password, as: UTF8.self)
                    buffer.removeAll()
                } else if c == eof || c == slash || c == question || c == hash || (url.isSpecial && c == backslash) {
                    if atSignSeen && buffer.isEmpty { return .failure }
                    pointer -= buffer.count + 1
                    buffer.removeAll()
                    state = .host
                } else {
                    buffer.append(UInt8(c))
                }
            case .host, .hostname:
                if stateOverride != nil && url.scheme == "file" {
                    pointer -= 1
                    state = .fileHost
                } else if c == 0x3A && !insideBrackets {
                    if buffer.isEmpty { return .failure }
                    if stateOverride == .hostname { return .refused }
                    guard let host = HostParser.parse(buffer[...], isOpaque: !url.isSpecial) else { return .failure }
                    url.host = host
                    buffer.removeAll()
                    state = .port
                } else if c == eof || c == slash || c == question || c == hash || (url.isSpecial && c == backslash) {
                    pointer -= 1
                    if url.isSpecial && buffer.isEmpty { return .failure }
                    if stateOverride != nil && buffer.isEmpty && (url.includesCredentials || url.port != nil) {
                        return .refused
                    }
                    guard let host = HostParser.parse(buffer[...], isOpaque: !url.isSpecial) else { return .failure }
                    url.host = host
                    buffer.removeAll()
                    state = .pathStart
                    if stateOverride != nil { return .done }
                } else {
                    if c == 0x5B { insideBrackets = true }
                    if c == 0x5D { insideBrackets = false }
                    buffer.append(UInt8(c))
                }
            case .port:
                if c != eof && ASCII.isDigit(UInt8(c)) {
                    buffer.append(UInt8(c))
                } else if c == eof || c == slash || c == question || c == hash || (url.isSpecial && c == backslash)
                    || stateOverride != nil
                {
                    if !buffer.isEmpty {
                        var value = 0
                        for d in buffer {
                            value = value * 10 + Int(d - 0x30)
                            if value > 65535 { return .failure }
                        }
                        let port = UInt16(value)
                        url.port = port == url.defaultPort ? nil : port
                        buffer.removeAll()
                        if stateOverride != nil { return .done }
                    }
                    if stateOverride != nil { return .failure }
                    state = .pathStart
                    pointer -= 1
                } else {
                    return .failure
                }
            case .file:
                url.scheme = "file"
                url.host = .empty
                if c == slash || c == backslash {
                    state = .fileSlash
                } else if let base, base.scheme == "file" {
                    url.host = base.host
                    url.path = base.path
                    url.query = base.query
                    if c == question {
                        url.query = ""
                        state = .query
                    } else if c == hash {
                        url.fragment = ""
                        state = .fragment
                    } else if c != eof {
                        url.query = nil
                        if !startsWithWindowsDriveLetter(at: pointer) {
                            url.shortenPath()
                        } else {
                            url.path = .segments([])
                        }
                        state = .path
                        pointer -= 1
                    }
                } else {
                    state = .path
                    pointer -= 1
                }
            case .fileSlash:
                if c == slash || c == backslash {
                    state = .fileHost
                } else {
                    if let base, base.scheme == "file" {
                        url.host = base.host
                        if !startsWithWindowsDriveLetter(at: pointer), let first = base.pathSegments.first,
                            URLRecord.isNormalizedWindowsDriveLetter(first)
                        {
                            url.appendPathSegment(first)
                        }
                    }
                    state = .path
                    pointer -= 1
                }
            case .fileHost:
                if c == eof || c == slash || c == backslash || c == question || c == hash {
                    pointer -= 1
                    if stateOverride == nil && URLParser.isWindowsDriveLetter(buffer) {
                        state = .path
                    } else if buffer.isEmpty {
                        url.host = .empty
                        if stateOverride != nil { return .done }
                        state = .pathStart
                    } else {
                        guard var host = HostParser.parse(buffer[...], isOpaque: !url.isSpecial) else {
                            return .failure
                        }
                        if host == .domain("localhost") { host = .empty }
                        url.host = host
                        if stateOverride != nil { return .done }
                        buffer.removeAll()
                        state = .pathStart
                    }
                } else {
                    buffer.append(UInt8(c))
                }
            case .pathStart:
                if url.isSpecial {
                    state = .path
                    if c != slash && c != backslash { pointer -= 1 }
                } else if stateOverride == nil && c == question {
                    url.query = ""
                    state = .query
                } else if stateOverride == nil && c == hash {
                    url.fragment = ""
                    state = .fragment
                } else if c != eof {
                    state = .path
                    if c != slash { pointer -= 1 }
                } else if stateOverride != nil && url.host == nil {
                    url.appendPathSegment("")
                }
            case .path:
                if c == eof || c == slash || (url.isSpecial && c == backslash)
                    || (stateOverride == nil && (c == question || c == hash))
                {
                    let isSlash = c == slash || (url.isSpecial && c == backslash)
                    if URLParser.isDoubleDot(buffer) {
                        url.shortenPath()
                        if !isSlash { url.appendPathSegment("") }
                    } else if URLParser.isSingleDot(buffer) {
                        if !isSlash { url.appendPathSegment("") }
                    } else {
                        if url.scheme == "file" && url.pathSegments.isEmpty && URLParser.isWindowsDriveLetter(buffer) {
                            buffer[1] = UInt8(ascii: ":")
                        }
                        url.appendPathSegment(String(decoding: buffer, as: UTF8.self))
                    }
                    buffer.removeAll(keepingCapacity: true)
                    if c == question {
                        url.query = ""
                        state = .query
                    }
                    if c == hash {
                        url.fragment = ""
                        state = .fragment
                    }
                } else {
                    PercentEncoding.append(UInt8(c), to: &buffer, set: .path)
                }
            case .opaquePath:
                if c == question {
                    url.query = ""
                    state = .query
                } else if c == hash {
                    url.fragment = ""
                    state = .fragment
                } else if c == 0x20 {
                    let next = byte(at: pointer + 1)
                    if next == question || next == hash {
                        buffer.append(contentsOf: [0x25, 0x32, 0x30])
                    } else {
                        buffer.append(0x20)
                    }
                } else if c != eof {
                    PercentEncoding.append(UInt8(c), to: &buffer, set: .c0Control)
                }
                if c == eof || state != .opaquePath {
                    if case .opaque(let existing) = url.path {
                        url.path = .opaque(existing + String(decoding: buffer, as: UTF8.self))
                    } else {
                        url.path = .opaque(String(decoding: buffer, as: UTF8.self))
                    }
                    buffer.removeAll()
                }
            case .query:
                if (stateOverride == nil && c == hash) || c == eof {
                    let set: PercentEncodeSet = url.isSpecial ? .specialQuery : .query
                    var encoded = Array((url.query ?? "").utf8)
                    for b in buffer { PercentEncoding.append(b, to: &encoded, set: set) }
                    url.query = String(decoding: encoded, as: UTF8.self)
                    buffer.removeAll()
                    if c == hash {
                        url.fragment = ""
                        state = .fragment
                    }
                } else {
                    buffer.append(UInt8(c))
                }
            case .fragment:
                if c != eof {
                    PercentEncoding.append(UInt8(c), to: &buffer, set: .fragment)
                } else {
                    url.fragment = (url.fragment ?? "") + String(decoding: buffer, as: UTF8.self)
                    buffer.removeAll()
                }
            }
            if pointer >= input.count { break }
            pointer += 1
        }
        return .done
    }
}
