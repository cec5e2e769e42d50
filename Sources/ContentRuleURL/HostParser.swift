// The host parser of the WHATWG URL Standard (hosts, IPv4, IPv6, opaque hosts, domain to ASCII).
internal import CIDN2

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

enum HostParser {
    /// Forbidden host code points (ASCII only; bytes).
    @inline(__always) static func isForbiddenHost(_ c: UInt8) -> Bool {
        switch c {
        case 0x00, 0x09, 0x0A, 0x0D, 0x20, 0x23, 0x2F, 0x3A, 0x3C, 0x3E, 0x3F, 0x40, 0x5B, 0x5C, 0x5D, 0x5E, 0x7C:
            return true
        default: return false
        }
    }

    /// Forbidden domain code points: forbidden host code points, C0 controls, `%`, DEL.
    @inline(__always) static func isForbiddenDomain(_ c: UInt8) -> Bool {
        isForbiddenHost(c) || c <= 0x1F || c == 0x25 || c == 0x7F
    }

    /// The host parser. `input` is the raw (not yet decoded) host text; nil means failure.
    static func parse(_ input: ArraySlice<UInt8>, isOpaque: Bool) -> URLHost? {
        if input.first == UInt8(ascii: "[") {
            guard input.count >= 2, input.last == UInt8(ascii: "]") else { return nil }
            guard let pieces = parseIPv6(input.dropFirst().dropLast()) else { return nil }
            return .ipv6(pieces)
        }
        if isOpaque {
            for c in input where isForbiddenHost(c) { return nil }
            return .opaque(PercentEncoding.encode(input, set: .c0Control))
        }
        // Domain: percent-decode, then domain to ASCII.
        var domain: [UInt8]
        if input.contains(UInt8(ascii: "%")) {
            domain = PercentEncoding.decode(Array(input))
        } else {
            domain = Array(input)
        }
        guard let ascii = domainToASCII(&domain) else { return nil }
        if endsInANumber(ascii) {
            guard let address = parseIPv4(ascii[...]) else { return nil }
            return .ipv4(address)
        }
        return .domain(String(decoding: ascii, as: UTF8.self))
    }

    /// WHATWG "domain to ASCII" with beStrict = false. ASCII labels are lower-cased; labels with
    /// non-ASCII text go through libidn2 (UTS #46 non-transitional processing, no STD3 rules).
    /// Returns nil on failure (empty result, forbidden domain code point, IDNA error).
    static func domainToASCII(_ domain: inout [UInt8]) -> [UInt8]? {
        var isASCII = true
        for c in domain where c >= 0x80 {
            isASCII = false
            break
        }
        var result: [UInt8]
        if isASCII {
            for i in domain.indices { domain[i] = ASCII.lower(domain[i]) }
            result = domain
            for label in result.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: true)
            where label.starts(with: aLabelPrefix) {
                // WebKit converts such a domain through ICU, whose output (this domain) is bounded.
                guard result.count <= Punycode.domainLimit, isValidALabel(Array(label)) else { return nil }
            }
        } else {
            // Invalid UTF-8 (possible after percent-decoding) becomes U+FFFD, which UTS #46 rejects.
            let text = String(decoding: domain, as: UTF8.self)
            if text.unicodeScalars.contains("\u{FFFD}") { return nil }
            // UTS #46 maps these full stops to U+002E; split labels on all of them.
            var labels: [[UInt8]] = [[]]
            for scalar in text.unicodeScalars {
                switch scalar.value {
                case 0x2E, 0x3002, 0xFF0E, 0xFF61: labels.append([])
                default: labels[labels.count - 1].append(contentsOf: String(scalar).utf8)
                }
            }
            result = []
            result.reserveCapacity(domain.count + 16)
            for (index, label) in labels.enumerated() {
                if index > 0 { result.append(UInt8(ascii: ".")) }
                if label.allSatisfy({ $0 < 0x80 }) {
                    let lowered = label.map(ASCII.lower)
                    guard !lowered.starts(with: aLabelPrefix) || isValidALabel(lowered) else { return nil }
                    result.append(contentsOf: lowered)
                } else {
                    guard let converted = idnaLabelToASCII(label) else { return nil }
                    result.append(contentsOf: converted)
                }
            }
        }
        if result.isEmpty { return nil }
        // The limit of WebKit's conversion through ICU (``Punycode/domainLimit``).
        if !isASCII && result.count > Punycode.domainLimit { return nil }
        for c in result where isForbiddenDomain(c) { return nil }
        return result
    }

    private static let aLabelPrefix = Array("xn--".utf8)

    /// UTS #46 processing of a label that begins with `xn--` (lower-case ASCII), as WebKit's URL parser
    /// does it through ICU: the rest must be valid Punycode (``Punycode/decode(_:)``), the decoded
    /// label must hold a non-ASCII code point, and converting it back (as a non-ASCII label of a host
    /// is) must give this label again: a decoded label with code points UTS #46 disallows or maps (a
    /// control, an upper-case letter) does not. `xn--a` (U+0080) fails; `xn--mnchen-3ya`, `xn--ls8h`
    /// (U+1F4A9) pass.
    static func isValidALabel(_ label: [UInt8]) -> Bool {
        guard let decoded = Punycode.decode(label.dropFirst(aLabelPrefix.count)),
            decoded.contains(where: { $0 >= 0x80 })
        else { return false }
        var text = ""
        text.unicodeScalars.append(contentsOf: decoded.compactMap(Unicode.Scalar.init))
        return idnaLabelToASCII(Array(text.utf8)) == label
    }

    /// One non-ASCII label through `idn2_to_ascii_8z` (non-transitional, NFC input).
    private static func idnaLabelToASCII(_ label: [UInt8]) -> [UInt8]? {
        var cString = label.map { CChar(bitPattern: $0) }
        cString.append(0)
        var output: UnsafeMutablePointer<CChar>?
        let flags = Int32(IDN2_NONTRANSITIONAL.rawValue | IDN2_NFC_INPUT.rawValue)
        let status = idn2_to_ascii_8z(cString, &output, flags)
        guard status == Int32(IDN2_OK.rawValue), let output else {
            if let output { free(output) }
            // IDNA2008 disallows symbols that UTS #46 (and so the URL Standard) accepts.
            if status == Int32(IDN2_DISALLOWED.rawValue) || status == Int32(IDN2_2HYPHEN.rawValue)
                || status == Int32(IDN2_HYPHEN_STARTEND.rawValue)
                || status == Int32(IDN2_NOT_NFC.rawValue) || status == Int32(IDN2_PUNYCODE_BIG_OUTPUT.rawValue)
                || status == Int32(IDN2_TOO_BIG_LABEL.rawValue) || status == Int32(IDN2_TOO_BIG_DOMAIN.rawValue)
            {
                return Punycode.fallbackLabelToASCII(String(decoding: label, as: UTF8.self))
            }
            return nil
        }
        defer { free(output) }
        let converted = Array(UnsafeBufferPointer(start: output, count: strlen(output))).map {
            ASCII.lower(UInt8(bitPattern: $0))
        }
        return converted
    }

    /// "ends in a number".
    static func endsInANumber(_ input: [UInt8]) -> Bool {
        var end = input.endIndex
        if end > 0 && input[end - 1] == UInt8(ascii: ".") {
            // A trailing empty part is ignored unless it is the only part.
            if end == 1 { return false }
            end -= 1
        }
        var start = end
        while start > 0 && input[start - 1] != UInt8(ascii: ".") { start -= 1 }
        let last = input[start..<end]
        if !last.isEmpty && last.allSatisfy(ASCII.isDigit) { return true }
        return parseIPv4Number(last) != nil
    }

    /// The IPv4 number parser: decimal, `0x` hex, leading-`0` octal. Values saturate above 2^32.
    static func parseIPv4Number(_ input: ArraySlice<UInt8>) -> UInt64? {
        if input.isEmpty { return nil }
        var digits = input
        var radix: UInt64 = 10
        if digits.count >= 2 && digits.first == UInt8(ascii: "0")
            && (digits[digits.startIndex + 1] | 0x20) == UInt8(ascii: "x")
        {
            digits = digits.dropFirst(2)
            radix = 16
        } else if digits.count >= 2 && digits.first == UInt8(ascii: "0") {
            digits = digits.dropFirst()
            radix = 8
        }
        var value: UInt64 = 0
        for c in digits {
            let digit: UInt64
            switch radix {
            case 16:
                guard ASCII.isHexDigit(c) else { return nil }
                digit = UInt64(ASCII.hexValue(c))
            case 8:
                guard c >= 0x30 && c <= 0x37 else { return nil }
                digit = UInt64(c - 0x30)
            default:
                guard ASCII.isDigit(c) else { return nil }
                digit = UInt64(c - 0x30)
            }
            value = min(value * radix + digit, 1 << 40)
        }
        return value
    }

    /// The IPv4 parser.
    static func parseIPv4(_ input: ArraySlice<UInt8>) -> UInt32? {
        var parts = input.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        if parts.last?.isEmpty == true && parts.count > 1 { parts.removeLast() }
        if parts.count > 4 { return nil }
        var numbers: [UInt64] = []
        for part in parts {
            guard let n = parseIPv4Number(part) else { return nil }
            numbers.append(n)
        }
        for n in numbers.dropLast() where n > 255 { return nil }
        let last = numbers[numbers.count - 1]
        if last >= (1 << (8 * (5 - UInt64(numbers.count)))) { return nil }
        var ipv4 = last
        for (i, n) in numbers.dropLast().enumerated() {
            ipv4 += n << (8 * (3 - UInt64(i)))
        }
        return UInt32(ipv4)
    }

    /// The IPv6 parser (input without brackets).
    static func parseIPv6(_ input: ArraySlice<UInt8>) -> [UInt16]? {
        var address = [UInt16](repeating: 0, count: 8)
        var pieceIndex = 0
        var compress: Int?
        let bytes = Array(input)
        var p = 0
        func at(_ i: Int) -> UInt8? { i < bytes.count ? bytes[i] : nil }
        let colon = UInt8(ascii: ":")
        if at(p) == colon {
            guard at(p + 1) == colon else { return nil }
            p += 2
            pieceIndex += 1
            compress = pieceIndex
        }
        while let c = at(p) {
            if pieceIndex == 8 { return nil }
            if c == colon {
                if compress != nil { return nil }
                p += 1
                pieceIndex += 1
                compress = pieceIndex
                continue
            }
            var value: UInt16 = 0
            var length = 0
            while length < 4, let h = at(p), ASCII.isHexDigit(h) {
                value = value * 0x10 + UInt16(ASCII.hexValue(h))
                p += 1
                length += 1
            }
            if at(p) == UInt8(ascii: ".") {
                if length == 0 { return nil }
                p -= length
                if pieceIndex > 6 { return nil }
                var numbersSeen = 0
                while let d = at(p) {
                    var ipv4Piece: Int?
                    if numbersSeen > 0 {
                        if d == UInt8(ascii: "."), numbersSeen < 4 {
                            p += 1
                        } else {
                            return nil
                        }
                    }
                    guard let first = at(p), ASCII.isDigit(first) else { return nil }
                    while let digit = at(p), ASCII.isDigit(digit) {
                        let number = Int(digit - 0x30)
                        if ipv4Piece == nil {
                            ipv4Piece = number
                        } else if ipv4Piece == 0 {
                            return nil
                        } else {
                            ipv4Piece = ipv4Piece! * 10 + number
                        }
                        if ipv4Piece! > 255 { return nil }
                        p += 1
                    }
                    address[pieceIndex] = address[pieceIndex] * 0x100 + UInt16(ipv4Piece!)
                    numbersSeen += 1
                    if numbersSeen == 2 || numbersSeen == 4 { pieceIndex += 1 }
                }
                if numbersSeen != 4 { return nil }
                break
            } else if at(p) == colon {
                p += 1
                if at(p) == nil { return nil }
            } else if at(p) != nil {
                return nil
            }
            address[pieceIndex] = value
            pieceIndex += 1
        }
        if let compressStart = compress {
            var swaps = pieceIndex - compressStart
            pieceIndex = 7
            while pieceIndex != 0 && swaps > 0 {
                address.swapAt(pieceIndex, compressStart + swaps - 1)
                pieceIndex -= 1
                swaps -= 1
            }
        } else if pieceIndex != 8 {
            return nil
        }
        return address
    }
}
