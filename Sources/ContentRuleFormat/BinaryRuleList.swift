import ContentRuleModel

/// Why a binary rule list could not be read or written.
public enum BinaryRuleListError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file does not start with the binary rule list signature.
    case notARuleList
    /// The file's format version is not one this build reads.
    case unsupportedVersion(found: UInt32, supported: UInt32)
    /// The payload's checksum does not match the header (the file is damaged).
    case checksumMismatch(expected: UInt32, found: UInt32)
    /// The header's sizes do not match the file's size (truncated or padded).
    case sizeMismatch(expected: Int, found: Int)
    /// A value in the payload is out of range or inconsistent.
    case malformed(offset: Int, reason: String)
    /// The file system refused (open, write, rename, …).
    case io(path: String, operation: String, message: String)

    public var description: String {
        switch self {
        case .notARuleList: return "not a binary rule list (wrong signature)"
        case .unsupportedVersion(let found, let supported):
            return "binary rule list version \(found) is not supported (this build reads version \(supported))"
        case .checksumMismatch(let expected, let found):
            return "binary rule list is damaged: checksum \(hex(found)) does not match \(hex(expected))"
        case .sizeMismatch(let expected, let found):
            return "binary rule list is damaged: \(found) bytes where the header says \(expected)"
        case .malformed(let offset, let reason): return "binary rule list is damaged at byte \(offset): \(reason)"
        case .io(let path, let operation, let message): return "\(path): \(operation) failed: \(message)"
        }
    }

    private func hex(_ value: UInt32) -> String { "0x" + String(value, radix: 16) }
}

/// The binary rule list file format, version 1.
///
/// Layout (little-endian): an 8-byte signature `89 43 42 52 4C 0D 0A 1A` ("\x89CBRL\r\n\x1A"),
/// `u32` version, `u32` header size (32), `u64` payload size, `u32` CRC-32 of the payload,
/// `u32` reserved (0), then the payload: the encoded ``CompiledRuleList``. See
/// `Documentation/BinaryFormat.md` for the payload encoding.
public enum BinaryRuleList {
    /// The version this build writes and reads.
    public static let version: UInt32 = 1
    static let signature: [UInt8] = [0x89, 0x43, 0x42, 0x52, 0x4C, 0x0D, 0x0A, 0x1A]
    static let headerSize = 32

    /// Encodes a compiled rule list. O(size of the list).
    public static func encode(_ list: CompiledRuleList) -> [UInt8] {
        var payload = ByteWriter()
        payload.encode(list)
        var header = ByteWriter()
        for byte in signature { header.u8(byte) }
        header.u32(version)
        header.u32(UInt32(headerSize))
        header.u64(UInt64(payload.bytes.count))
        header.u32(CRC32.checksum(payload.bytes[...]))
        header.u32(0)
        return header.bytes + payload.bytes
    }

    /// Decodes and validates a binary rule list: signature, version, sizes, checksum, and every
    /// value of the payload (counts, enum tags, slot indices, UTF-8). Never traps on bad input.
    ///
    /// - Throws: ``BinaryRuleListError`` describing the first problem found.
    public static func decode(_ bytes: [UInt8]) throws(BinaryRuleListError) -> CompiledRuleList {
        guard bytes.count >= signature.count, Array(bytes[0..<signature.count]) == signature else {
            throw .notARuleList
        }
        var header = ByteReader(bytes, from: signature.count)
        let foundVersion = try header.u32()
        guard foundVersion == version else { throw .unsupportedVersion(found: foundVersion, supported: version) }
        let declaredHeaderSize = Int(try header.u32())
        guard declaredHeaderSize == headerSize else {
            throw .malformed(offset: 12, reason: "header size \(declaredHeaderSize)")
        }
        let payloadSize = try header.u64()
        let checksum = try header.u32()
        _ = try header.u32()
        let expectedSize = payloadSize > UInt64(Int.max - headerSize) ? Int.max : headerSize + Int(payloadSize)
        guard bytes.count == expectedSize else { throw .sizeMismatch(expected: expectedSize, found: bytes.count) }
        let found = CRC32.checksum(bytes[headerSize...])
        guard found == checksum else { throw .checksumMismatch(expected: checksum, found: found) }
        var reader = ByteReader(bytes, from: headerSize)
        let list = try reader.decodeRuleList()
        guard reader.remaining == 0 else { throw .malformed(offset: reader.offset, reason: "trailing bytes") }
        return list
    }
}

extension ByteWriter {
    mutating func encode(_ list: CompiledRuleList) {
        u64(UInt64(list.sourceRuleCount))
        optionalString(list.globalStylesheet)
        count(list.actionSlots.count)
        for action in list.actionSlots { encode(action) }
        count(list.rules.count)
        for rule in list.rules { encode(rule) }
    }

    mutating func encode(_ pattern: CompiledPattern) {
        string(pattern.source)
        optionalString(pattern.pcre2Pattern)
        bool(pattern.caseSensitive)
        bool(pattern.literal != nil)
        if let literal = pattern.literal {
            string(literal.text)
            bool(literal.anchoredAtStart)
            bool(literal.anchoredAtEnd)
        }
    }

    mutating func encode(_ rule: CompiledRule) {
        u32(rule.sourceIndex)
        encode(rule.urlFilter)
        u16(rule.resourceTypes.rawValue)
        u8(rule.loadTypes.rawValue)
        u8(rule.loadContexts.rawValue)
        u8(rule.requestMethod.map { UInt8(RequestMethod.allCases.firstIndex(of: $0)! + 1) } ?? 0)
        if let condition = rule.condition {
            u8(UInt8(TriggerCondition.Kind.allCases.firstIndex(of: condition.kind)! + 1))
            count(condition.patterns.count)
            for pattern in condition.patterns { encode(pattern) }
        } else {
            u8(0)
        }
        u32(rule.actionSlot)
    }
}

extension ByteReader {
    mutating func decodeRuleList() throws(BinaryRuleListError) -> CompiledRuleList {
        let sourceRuleCount = try u64()
        guard sourceRuleCount <= UInt64(UInt32.max) else {
            throw .malformed(offset: offset - 8, reason: "rule count \(sourceRuleCount)")
        }
        let globalStylesheet = try optionalString()
        let slotCount = try count()
        var slots: [Action] = []
        slots.reserveCapacity(slotCount)
        for _ in 0..<slotCount { slots.append(try decodeAction()) }
        let ruleCount = try count(minimumElementSize: 16)
        var rules: [CompiledRule] = []
        rules.reserveCapacity(ruleCount)
        for _ in 0..<ruleCount {
            let start = offset
            let rule = try decodeRule()
            guard Int(rule.actionSlot) < slotCount else {
                throw .malformed(offset: start, reason: "action slot \(rule.actionSlot) out of range")
            }
            rules.append(rule)
        }
        return CompiledRuleList(
            rules: rules, actionSlots: slots, globalStylesheet: globalStylesheet, sourceRuleCount: Int(sourceRuleCount))
    }

    mutating func decodePattern() throws(BinaryRuleListError) -> CompiledPattern {
        var pattern = CompiledPattern(
            source: try string(), pcre2Pattern: try optionalString(), caseSensitive: try bool())
        if try bool() {
            let literalOffset = offset
            let literal = LiteralPattern(text: try string(), anchoredAtStart: try bool(), anchoredAtEnd: try bool())
            // The compiler writes literals non-empty and lower-cased unless case-sensitive; the matcher's
            // two strategies rely on it (a fuzzed file with "C" made them disagree).
            guard !literal.text.isEmpty,
                pattern.caseSensitive || !literal.text.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A })
            else { throw .malformed(offset: literalOffset, reason: "literal not in compiled form") }
            pattern.literal = literal
        }
        return pattern
    }

    mutating func decodeRule() throws(BinaryRuleListError) -> CompiledRule {
        let sourceIndex = try u32()
        let urlFilter = try decodePattern()
        let typesOffset = offset
        let resourceTypes = ResourceType(rawValue: try u16())
        guard ResourceType.all.isSuperset(of: resourceTypes) else {
            throw .malformed(offset: typesOffset, reason: "unknown resource type bits")
        }
        let loadTypes = LoadTypes(rawValue: try u8())
        let loadContexts = LoadContexts(rawValue: try u8())
        guard loadTypes.rawValue <= 3, loadContexts.rawValue <= 3 else {
            throw .malformed(offset: typesOffset + 2, reason: "unknown load type or load context bits")
        }
        let method = try enumValue(RequestMethod.allCases, what: "request method")
        let kind = try enumValue(TriggerCondition.Kind.allCases, what: "condition kind")
        var condition: CompiledCondition?
        if let kind {
            let patternCount = try count(minimumElementSize: 11)
            var patterns: [CompiledPattern] = []
            patterns.reserveCapacity(patternCount)
            for _ in 0..<patternCount { patterns.append(try decodePattern()) }
            condition = CompiledCondition(kind: kind, patterns: patterns)
        }
        return CompiledRule(
            sourceIndex: sourceIndex, urlFilter: urlFilter, resourceTypes: resourceTypes, loadTypes: loadTypes,
            loadContexts: loadContexts, requestMethod: method, condition: condition, actionSlot: try u32())
    }

    /// Reads a one-byte tag: 0 is `nil`, `n` is `cases[n - 1]`.
    mutating func enumValue<T>(_ cases: [T], what: String) throws(BinaryRuleListError) -> T? {
        let start = offset
        let tag = Int(try u8())
        if tag == 0 { return nil }
        guard tag <= cases.count else { throw .malformed(offset: start, reason: "unknown \(what) \(tag)") }
        return cases[tag - 1]
    }
}
