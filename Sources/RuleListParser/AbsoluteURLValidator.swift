/// Decides whether a string parses as an absolute URL (the WHATWG URL Standard, as WebKit's
/// `URL { string }` in `RedirectAction::parse`, `ContentExtensionActions.cpp`).
///
/// Scope: only failures are computed, not the serialized URL. Implemented: stripping of leading and
/// trailing C0/space and of TAB/LF/CR; the scheme; for special schemes (`http`, `https`, `ws`,
/// `wss`, `ftp`) the authority (credentials, host, port 0–65535), host parsing with percent-decoding,
/// forbidden domain code points, the IPv4 parser (decimal, octal, hex parts, "ends in a number"), and
/// IPv6 literals; for `file` the host when present; for other schemes the opaque host (when `//`
/// follows) and port. Not implemented: full IDNA/UTS #46 processing — a non-ASCII host is accepted
/// when it contains no forbidden code point (WebKit may reject some such hosts, e.g. ones with
/// disallowed code points or invalid punycode).
enum AbsoluteURLValidator {
    enum Verdict: Equatable {
        /// Valid; carries the lower-cased scheme.
        case valid(scheme: String)
        case invalid(String)
    }

    static let specialPorts: [String: Int?] = [
        "ftp": 21, "file": nil, "http": 80, "https": 443, "ws": 80, "wss": 443,
    ]

    static func validate(_ string: String) -> Verdict {
        var scalars = Array(string.unicodeScalars)
        while let first = scalars.first, first.value <= 0x20 { scalars.removeFirst() }
        while let last = scalars.last, last.value <= 0x20 { scalars.removeLast() }
        scalars.removeAll { $0 == "\t" || $0 == "\n" || $0 == "\r" }

        // Scheme.
        var k = 0
        guard k < scalars.count, isASCIIAlpha(scalars[k]) else { return .invalid("no scheme (not an absolute URL)") }
        while k < scalars.count, isSchemeCharacter(scalars[k]) { k += 1 }
        guard k < scalars.count, scalars[k] == ":" else { return .invalid("no scheme (not an absolute URL)") }
        let scheme = String(String.UnicodeScalarView(scalars[0..<k])).lowercased()
        var rest = Array(scalars[(k + 1)...])

        if scheme == "file" {
            guard rest.count >= 2, isSlash(rest[0], special: true), isSlash(rest[1], special: true) else {
                return .valid(scheme: scheme)
            }
            rest.removeFirst(2)
            let end = rest.firstIndex { isSlash($0, special: true) || $0 == "?" || $0 == "#" } ?? rest.count
            let host = Array(rest[0..<end])
            if host.isEmpty { return .valid(scheme: scheme) }
            if let problem = hostProblem(host, special: true) { return .invalid(problem) }
            return .valid(scheme: scheme)
        }

        let special = specialPorts[scheme] != nil
        if special {
            // "special authority ignore slashes": any run of / and \ before the authority.
            while let first = rest.first, isSlash(first, special: true) { rest.removeFirst() }
        } else {
            guard rest.count >= 2, rest[0] == "/", rest[1] == "/" else { return .valid(scheme: scheme) }
            rest.removeFirst(2)
        }
        let end = rest.firstIndex { isSlash($0, special: special) || $0 == "?" || $0 == "#" } ?? rest.count
        var authority = Array(rest[0..<end])
        if let at = authority.lastIndex(of: "@") {
            authority = Array(authority[(at + 1)...])
            if authority.isEmpty { return .invalid("credentials without a host") }
        }
        // Split host and port at the last ':' outside brackets.
        var inBrackets = false
        var colon: Int?
        for (index, scalar) in authority.enumerated() {
            if scalar == "[" { inBrackets = true } else if scalar == "]" { inBrackets = false }
            if scalar == ":" && !inBrackets && colon == nil { colon = index }
        }
        let host = Array(authority[0..<(colon ?? authority.count)])
        if let colon {
            let port = authority[(colon + 1)...]
            var value = 0
            for scalar in port {
                guard let digit = asciiDigit(scalar) else { return .invalid("invalid port") }
                value = value * 10 + digit
                if value > 65535 { return .invalid("port out of range") }
            }
        }
        if host.isEmpty {
            if special { return .invalid("empty host") }
            if colon != nil { return .invalid("port without a host") }
            return .valid(scheme: scheme)
        }
        if let problem = hostProblem(host, special: special) { return .invalid(problem) }
        return .valid(scheme: scheme)
    }

    /// The host parser's failure reason, or `nil` when the host is valid.
    static func hostProblem(_ host: [Unicode.Scalar], special: Bool) -> String? {
        if host.first == "[" {
            guard host.last == "]", host.count >= 2 else { return "unterminated IPv6 address" }
            return isValidIPv6(Array(host[1..<(host.count - 1)])) ? nil : "invalid IPv6 address"
        }
        if !special {
            for scalar in host where isForbiddenHostCodePoint(scalar) { return "forbidden host code point" }
            return nil
        }
        guard let decoded = percentDecode(host) else { return "host is not UTF-8 after percent-decoding" }
        let lowered = decoded.map { scalar -> Unicode.Scalar in
            (scalar.value >= 0x41 && scalar.value <= 0x5A) ? Unicode.Scalar(scalar.value + 0x20)! : scalar
        }
        if lowered.isEmpty { return "empty host" }
        for scalar in lowered {
            if isForbiddenHostCodePoint(scalar) || scalar.value <= 0x1F || scalar == "%" || scalar.value == 0x7F {
                return "forbidden domain code point"
            }
        }
        let parts = String(String.UnicodeScalarView(lowered)).split(separator: ".", omittingEmptySubsequences: false)
            .map(String.init)
        if endsInANumber(parts) {
            return ipv4Problem(parts)
        }
        return nil
    }

    static func endsInANumber(_ parts: [String]) -> Bool {
        var parts = parts
        if parts.last == "" {
            if parts.count == 1 { return false }
            parts.removeLast()
        }
        guard let last = parts.last, !last.isEmpty else { return false }
        if last.unicodeScalars.allSatisfy({ asciiDigit($0) != nil }) { return true }
        return ipv4Number(last) != nil
    }

    static func ipv4Problem(_ parts: [String]) -> String? {
        var parts = parts
        if parts.last == "", parts.count > 1 { parts.removeLast() }
        if parts.count > 4 { return "IPv4 address with more than four parts" }
        var numbers: [Int] = []
        for part in parts {
            guard let number = ipv4Number(part) else { return "invalid IPv4 address part" }
            numbers.append(number)
        }
        for number in numbers.dropLast() where number > 255 { return "IPv4 address part out of range" }
        let limit = 1 << (8 * (5 - numbers.count))
        if let last = numbers.last, last >= limit { return "IPv4 address out of range" }
        return nil
    }

    /// The WHATWG IPv4 number parser (decimal, `0x` hex, leading-`0` octal); `nil` on failure.
    static func ipv4Number(_ part: String) -> Int? {
        var text = Substring(part)
        if text.isEmpty { return nil }
        var radix = 10
        if text.count >= 2, text.hasPrefix("0x") || text.hasPrefix("0X") {
            text = text.dropFirst(2)
            radix = 16
        } else if text.count >= 2, text.hasPrefix("0") {
            text = text.dropFirst()
            radix = 8
        }
        if text.isEmpty { return 0 }
        var value = 0
        for scalar in text.unicodeScalars {
            guard scalar.isASCII, let digit = Int(String(scalar), radix: radix) else { return nil }
            value = value * radix + digit
            if value > Int(UInt32.max) * 2 { value = Int(UInt32.max) * 2 }  // saturate; only ranges matter
        }
        return value
    }

    /// A simplified IPv6 check: up to eight 1–4 digit hex pieces separated by `:`, at most one
    /// `::`, optionally ending in a dotted IPv4 address (which counts as two pieces).
    static func isValidIPv6(_ scalars: [Unicode.Scalar]) -> Bool {
        let text = String(String.UnicodeScalarView(scalars))
        if text.isEmpty { return false }
        var halves: [String] = []
        var rest = Substring(text)
        while let range = rest.firstRange(of: "::") {
            halves.append(String(rest[..<range.lowerBound]))
            rest = rest[range.upperBound...]
        }
        halves.append(String(rest))
        if halves.count > 2 { return false }
        func pieces(_ s: String, allowIPv4: Bool) -> Int? {
            if s.isEmpty { return 0 }
            let items = s.split(separator: ":", omittingEmptySubsequences: false)
            var count = 0
            for (index, item) in items.enumerated() {
                if allowIPv4 && index == items.count - 1 && item.contains(".") {
                    let octets = item.split(separator: ".", omittingEmptySubsequences: false)
                    guard octets.count == 4 else { return nil }
                    for octet in octets {
                        guard !octet.isEmpty, octet.count <= 3, let v = Int(octet), v <= 255 else { return nil }
                        if octet.count > 1 && octet.hasPrefix("0") { return nil }
                    }
                    count += 2
                } else {
                    guard (1...4).contains(item.count), item.allSatisfy(\.isHexDigit), item.allSatisfy(\.isASCII)
                    else { return nil }
                    count += 1
                }
            }
            return count
        }
        if halves.count == 2 {
            guard let left = pieces(halves[0], allowIPv4: false), let right = pieces(halves[1], allowIPv4: true)
            else { return false }
            return left + right <= 7
        }
        guard let count = pieces(text, allowIPv4: true) else { return false }
        return count == 8
    }

    static func percentDecode(_ scalars: [Unicode.Scalar]) -> [Unicode.Scalar]? {
        var bytes: [UInt8] = []
        for scalar in scalars { bytes.append(contentsOf: String(scalar).utf8) }
        var out: [UInt8] = []
        var k = 0
        while k < bytes.count {
            if bytes[k] == 0x25, k + 2 < bytes.count, let hi = hex(bytes[k + 1]), let lo = hex(bytes[k + 2]) {
                out.append(hi << 4 | lo)
                k += 3
            } else {
                out.append(bytes[k])
                k += 1
            }
        }
        guard let text = String(validating: out, as: UTF8.self) else { return nil }
        return Array(text.unicodeScalars)
    }

    static func hex(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: return c - 0x30
        case 0x41...0x46: return c - 0x41 + 10
        case 0x61...0x66: return c - 0x61 + 10
        default: return nil
        }
    }

    static func isForbiddenHostCodePoint(_ s: Unicode.Scalar) -> Bool {
        switch s {
        case "\u{0}", "\t", "\n", "\r", " ", "#", "/", ":", "<", ">", "?", "@", "[", "\\", "]", "^", "|": return true
        default: return false
        }
    }

    static func isSlash(_ s: Unicode.Scalar, special: Bool) -> Bool { s == "/" || (special && s == "\\") }
    static func isASCIIAlpha(_ s: Unicode.Scalar) -> Bool {
        (s.value >= 0x41 && s.value <= 0x5A) || (s.value >= 0x61 && s.value <= 0x7A)
    }
    static func isSchemeCharacter(_ s: Unicode.Scalar) -> Bool {
        isASCIIAlpha(s) || asciiDigit(s) != nil || s == "+" || s == "-" || s == "."
    }
    static func asciiDigit(_ s: Unicode.Scalar) -> Int? {
        s.value >= 0x30 && s.value <= 0x39 ? Int(s.value - 0x30) : nil
    }
}
