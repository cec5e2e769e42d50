import ContentRuleFormat
import SystemCalls

#if canImport(Glibc)
    import Glibc
#endif

/// One stored content rule list: a file holding the binary rule list, then the list's identifier and
/// its JSON source, then a footer that says where each is. WebKit keeps the source beside the bytecode in
/// the same way (`APIContentRuleListStore.cpp`, `getContentRuleListSourceFromMappedFile`), so that a list
/// compiled by another format version can be compiled again from it.
///
/// ```
/// binary rule list   N bytes (`Documentation/BinaryFormat.md`), first, so that it is mapped aligned
/// identifier         I bytes, UTF-8
/// source             S bytes, the JSON as it was given
/// footer             32 bytes: "CRLSTOR1", u64 N, u64 I, u64 S (little-endian)
/// ```
///
/// The footer is read without understanding the binary rule list, whatever its version.
enum StoredFile {
    static let magic = Array("CRLSTOR1".utf8)
    static let footerSize = 32
    /// The file name prefix WebKit's store gives its files (`constructedPathPrefix`).
    static let namePrefix = "ContentRuleList-"
    /// The longest file name this store writes with the identifier spelled in it (Linux allows 255 bytes):
    /// a longer one is named by a hash of the identifier instead (``fileName(for:)``).
    static let longestSpelledName = 200

    /// Where the parts of a stored file are, from its footer.
    struct Layout: Equatable {
        var binaryLength: Int
        var identifierLength: Int
        var sourceLength: Int
        var identifierRange: Range<Int> { binaryLength..<(binaryLength + identifierLength) }
        var sourceRange: Range<Int> { identifierRange.upperBound..<(identifierRange.upperBound + sourceLength) }
    }

    /// The bytes of a stored file: `binary`, then `identifier`, `source` and the footer.
    static func encode(binary: [UInt8], identifier: String, source: [UInt8]) -> [UInt8] {
        var bytes = binary
        bytes.reserveCapacity(binary.count + identifier.utf8.count + source.count + footerSize)
        bytes += identifier.utf8
        bytes += source
        bytes += magic
        for value in [binary.count, identifier.utf8.count, source.count] {
            bytes += (0..<8).map { UInt8(truncatingIfNeeded: UInt64(value) >> (8 * UInt64($0))) }
        }
        return bytes
    }

    /// The footer of the file of `size` bytes open as `descriptor`, or why it is not one this store wrote.
    static func layout(_ descriptor: Int32, size: Int) -> Result<Layout, Damage> {
        guard size >= footerSize else { return .failure(Damage("\(size) bytes: shorter than the store's footer")) }
        guard let footer = read(descriptor, at: size - footerSize, count: footerSize) else {
            return .failure(Damage("the footer cannot be read: \(String(cString: strerror(errno)))"))
        }
        guard Array(footer[0..<8]) == magic else {
            return .failure(Damage("no store footer (not written by this store)"))
        }
        func value(_ at: Int) -> UInt64 { (0..<8).reduce(0) { $0 | UInt64(footer[at + $1]) << (8 * UInt64($1)) } }
        let lengths = [value(8), value(16), value(24)]
        guard lengths.allSatisfy({ $0 <= UInt64(size) }),
            lengths.reduce(UInt64(footerSize), +) == UInt64(size)
        else { return .failure(Damage("the footer's lengths do not add up to the file's \(size) bytes")) }
        return .success(
            Layout(binaryLength: Int(lengths[0]), identifierLength: Int(lengths[1]), sourceLength: Int(lengths[2])))
    }

    /// Why a stored file cannot be read.
    struct Damage: Error {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// `count` bytes at `offset` of `descriptor` (`pread`, retried on `EINTR`), or nil on an error or a
    /// short file.
    static func read(_ descriptor: Int32, at offset: Int, count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        let complete = bytes.withUnsafeMutableBytes { buffer -> Bool in
            while done < count {
                let got = SystemCall.retryingOnInterrupt {
                    pread(descriptor, buffer.baseAddress! + done, count - done, off_t(offset + done))
                }
                if got <= 0 { return false }
                done += got
            }
            return true
        }
        return complete ? bytes : nil
    }

    /// The file name of `identifier`'s list: WebKit's prefix and the identifier with every byte but
    /// ASCII letters, digits, `-` and `_` written `%XX` (so any string is a safe name, and names map
    /// back to identifiers), or, when that is longer than ``longestSpelledName``, the prefix, `~` and a
    /// 64-bit FNV-1a hash of the identifier in hex (the file's own identifier tells collisions apart).
    static func fileName(for identifier: String) -> String {
        var name = namePrefix
        for byte in identifier.utf8 {
            if isPlain(byte) {
                name.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                name += "%" + hexDigits(byte)
            }
        }
        if name.utf8.count <= longestSpelledName { return name }
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in identifier.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return namePrefix + "~" + String(hash, radix: 16)
    }

    /// The identifier a file name spells (``fileName(for:)``), or nil for a hashed name or a name this
    /// store does not write.
    static func identifier(spelledBy name: String) -> String? {
        guard name.hasPrefix(namePrefix) else { return nil }
        let spelled = Array(name.utf8.dropFirst(namePrefix.utf8.count))
        var bytes: [UInt8] = []
        var index = 0
        while index < spelled.count {
            let byte = spelled[index]
            if isPlain(byte) {
                bytes.append(byte)
                index += 1
            } else if byte == UInt8(ascii: "%"), index + 2 < spelled.count,
                let value = hexValue(spelled[index + 1], spelled[index + 2])
            {
                bytes.append(value)
                index += 3
            } else {
                return nil
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    static func isHashed(_ name: String) -> Bool { name.hasPrefix(namePrefix + "~") }

    private static func isPlain(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
    }

    private static func hexDigits(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF".unicodeScalars)
        return String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0xF)])
    }

    private static func hexValue(_ high: UInt8, _ low: UInt8) -> UInt8? {
        func digit(_ byte: UInt8) -> UInt8? {
            switch byte {
            case 0x30...0x39: return byte - 0x30
            case 0x41...0x46: return byte - 0x41 + 10
            default: return nil
            }
        }
        guard let high = digit(high), let low = digit(low) else { return nil }
        return high << 4 | low
    }
}
