// Shared by the libFuzzer targets (Fuzz/, through a symlink) and the replay tests (RobustnessTests).
// Signatures use only standard-library types so the file builds in both packages.

#if canImport(Glibc)
    import Glibc
#endif

/// A cursor over a fuzzer's input: single bytes for choices, 0xFF-separated fields for strings
/// (0xFF never occurs in UTF-8, so every other byte, NUL included, can appear inside a field).
struct FuzzInput {
    let bytes: [UInt8]
    var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { position >= bytes.count }

    /// The next byte, or 0 at the end.
    mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    /// The bytes up to the next 0xFF (or the end), consumed with the separator.
    mutating func field() -> [UInt8] {
        guard position < bytes.count else { return [] }
        let end = bytes[position...].firstIndex(of: 0xFF) ?? bytes.count
        defer { position = min(end + 1, bytes.count) }
        return Array(bytes[position..<end])
    }

    /// The next field as a string (invalid UTF-8 repaired with U+FFFD, as a caller decoding bytes would).
    mutating func string() -> String { String(decoding: field(), as: UTF8.self) }
}

/// The seed lists the matcher targets use, found by walking up from this file to the repository root
/// (the symlinked copy in Fuzz/ walks up from Fuzz/Sources/FuzzSupport and finds the same root).
enum FuzzData {
    static func repositoryFile(_ relativePath: String) -> [UInt8]? {
        var directory = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false).dropLast()
        while !directory.isEmpty {
            let candidate = directory.joined(separator: "/") + "/" + relativePath
            if let bytes = readFile(candidate) { return bytes }
            directory = directory.dropLast()
        }
        return nil
    }

    private static func readFile(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            result.append(contentsOf: buffer[0..<count])
        }
        return result
    }
}
