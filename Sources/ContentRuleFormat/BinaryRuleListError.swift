import ContentRuleModel

/// Why a binary rule list could not be read or written.
public enum BinaryRuleListError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file does not start with the binary rule list signature.
    case notARuleList
    /// The file's format version is not one this build reads.
    case unsupportedVersion(found: UInt32, supported: UInt32)
    /// The payload's checksum does not match the header (the file is damaged).
    case checksumMismatch(expected: UInt64, found: UInt64)
    /// The header's sizes do not match the file's size (truncated or padded).
    case sizeMismatch(expected: Int, found: Int)
    /// A value in the payload is out of range or inconsistent.
    case malformed(offset: Int, reason: String)
    /// The file system refused (open, write, rename, …).
    case io(path: String, operation: String, message: String)
    /// The rule list exceeds a limit of the format (a field's width); nothing was written.
    case tooLarge(String)

    public var description: String {
        switch self {
        case .notARuleList: return "not a binary rule list (wrong signature)"
        case .unsupportedVersion(let found, let supported):
            return "binary rule list version \(found) is not supported (this build reads version \(supported)):"
                + " compile the rule list again"
        case .checksumMismatch(let expected, let found):
            return "binary rule list is damaged: checksum \(hex(found)) does not match \(hex(expected))"
        case .sizeMismatch(let expected, let found):
            return "binary rule list is damaged: \(found) bytes where the header says \(expected)"
        case .malformed(let offset, let reason): return "binary rule list is damaged at byte \(offset): \(reason)"
        case .io(let path, let operation, let message): return "\(path): \(operation) failed: \(message)"
        case .tooLarge(let limit):
            return "the rule list is too large for binary rule list version \(BinaryRuleList.version): \(limit)"
        }
    }

    private func hex(_ value: UInt64) -> String { "0x" + String(value, radix: 16) }
}
