// Punycode (RFC 3492) encoding, decoding and the fallback for labels libidn2's IDNA2008 rules reject.

enum Punycode {
    private static let base = 36, tMin = 1, tMax = 26, skew = 38, damp = 700
    private static let initialBias = 72, initialN = 0x80

    private static func adapt(_ delta: Int, _ numPoints: Int, _ firstTime: Bool) -> Int {
        var delta = firstTime ? delta / damp : delta / 2
        delta += delta / numPoints
        var k = 0
        while delta > ((base - tMin) * tMax) / 2 {
            delta /= base - tMin
            k += base
        }
        return k + (base - tMin + 1) * delta / (delta + skew)
    }

    private static func digit(_ d: Int) -> UInt8 { d < 26 ? UInt8(d) + 0x61 : UInt8(d - 26) + 0x30 }

    /// The longest domain WebKit's URL parser converts (`hostnameBufferLength` in URLParser.h: ICU
    /// writes the ASCII form into a buffer of 2,048 UTF-16 code units, and a longer one fails). A
    /// label's Punycode is at least as long as its code points, so longer inputs are refused before the
    /// encoder and decoder, whose work grows with the square of a label's length.
    static let domainLimit = 2048

    /// Encodes code points as Punycode (without the `xn--` prefix); nil on overflow or when the result
    /// would be longer than ``domainLimit``. O(n × distinct code points), n at most ``domainLimit``.
    static func encode(_ input: [UInt32]) -> [UInt8]? {
        guard input.count <= domainLimit else { return nil }
        let codePoints = input.map { Int($0) }
        var output: [UInt8] = []
        for c in codePoints where c < 0x80 { output.append(UInt8(c)) }
        let basicCount = output.count
        var handled = basicCount
        if basicCount > 0 { output.append(UInt8(ascii: "-")) }
        var n = initialN
        var delta = 0
        var bias = initialBias
        while handled < codePoints.count {
            var m = Int.max
            for c in codePoints where c >= n && c < m { m = c }
            let (product, overflow) = (m - n).multipliedReportingOverflow(by: handled + 1)
            if overflow { return nil }
            let (sum, overflowSum) = delta.addingReportingOverflow(product)
            if overflowSum { return nil }
            delta = sum
            n = m
            for c in codePoints {
                if c < n { delta += 1 }
                if c == n {
                    var q = delta
                    var k = base
                    while true {
                        let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                        if q < t { break }
                        output.append(digit(t + (q - t) % (base - t)))
                        q = (q - t) / (base - t)
                        k += base
                    }
                    output.append(digit(q))
                    bias = adapt(delta, handled + 1, handled == basicCount)
                    delta = 0
                    handled += 1
                }
            }
            // Too long for WebKit's conversion already (the prefix `xn--` aside).
            if output.count > domainLimit { return nil }
            delta += 1
            n += 1
        }
        return output
    }

    /// Decodes Punycode (without the `xn--` prefix; ASCII letters of either case) into code points;
    /// nil when the text is not valid Punycode (a non-ASCII byte, a bad digit, an overflow, a code
    /// point past U+10FFFF or a surrogate) or longer than ``domainLimit``. RFC 3492 §6.2. (libidn2's
    /// decoder refuses outputs longer than 63 code points, which WebKit's ICU accepts: a URL's host
    /// may have longer labels.)
    static func decode(_ input: ArraySlice<UInt8>) -> [UInt32]? {
        guard input.count <= domainLimit else { return nil }
        var output: [UInt32] = []
        // The basic code points: those before the last `-`, if any.
        var start = input.startIndex
        if let delimiter = input.lastIndex(of: UInt8(ascii: "-")) {
            for byte in input[..<delimiter] {
                guard byte < 0x80 else { return nil }
                output.append(UInt32(byte))
            }
            start = delimiter + 1
        }
        var n = initialN
        var i = 0
        var bias = initialBias
        var at = start
        while at < input.endIndex {
            let oldI = i
            var w = 1
            var k = base
            while true {
                guard at < input.endIndex, let digit = digitValue(input[at]) else { return nil }
                at += 1
                let (product, overflowProduct) = digit.multipliedReportingOverflow(by: w)
                let (sum, overflowSum) = i.addingReportingOverflow(product)
                guard !overflowProduct, !overflowSum, sum <= 0x7FFF_FFFF else { return nil }
                i = sum
                let t = k <= bias ? tMin : (k >= bias + tMax ? tMax : k - bias)
                if digit < t { break }
                let (weight, overflowWeight) = w.multipliedReportingOverflow(by: base - t)
                guard !overflowWeight, weight <= 0x7FFF_FFFF else { return nil }
                w = weight
                k += base
            }
            bias = adapt(i - oldI, output.count + 1, oldI == 0)
            n += i / (output.count + 1)
            i %= output.count + 1
            guard n <= 0x10FFFF, !(0xD800...0xDFFF).contains(n) else { return nil }
            output.insert(UInt32(n), at: i)
            i += 1
        }
        return output
    }

    private static func digitValue(_ byte: UInt8) -> Int? {
        switch byte {
        case 0x61...0x7A: Int(byte - 0x61)
        case 0x41...0x5A: Int(byte - 0x41)
        case 0x30...0x39: Int(byte - 0x30) + 26
        default: nil
        }
    }

    /// Approximates UTS #46 processing for one label that libidn2 rejects under IDNA2008 rules (symbols
    /// and emoji such as U+2603, which UTS #46 allows): full lower-casing, removal of code points
    /// UTS #46 maps to nothing, rejection of controls, format characters, separators, private-use,
    /// surrogates and unassigned code points, then Punycode. Returns "" for a label that maps to nothing.
    static func fallbackLabelToASCII(_ label: String) -> [UInt8]? {
        var scalars: [UInt32] = []
        for scalar in label.lowercased().unicodeScalars {
            let v = scalar.value
            if v == 0xAD || v == 0x34F || (0x180B...0x180F).contains(v) || v == 0x200B || v == 0x2060
                || (0xFE00...0xFE0F).contains(v) || v == 0xFEFF || (0x1BCA0...0x1BCA3).contains(v)
                || (0xE0100...0xE01EF).contains(v)
            {
                continue
            }
            switch scalar.properties.generalCategory {
            case .control, .surrogate, .privateUse, .unassigned, .spaceSeparator, .lineSeparator,
                .paragraphSeparator:
                return nil
            case .format where v != 0x200C && v != 0x200D:
                return nil
            default: scalars.append(v)
            }
        }
        if scalars.allSatisfy({ $0 < 0x80 }) { return scalars.map { UInt8($0) } }
        guard let encoded = encode(scalars) else { return nil }
        return Array("xn--".utf8) + encoded
    }
}
